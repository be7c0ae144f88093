/**
 * A classic-BPF seccomp program for bwrap's `--seccomp FD` (bwrap reads the raw `sock_filter` array).
 *
 * What it blocks, with EPERM:
 * - `socket(AF_UNIX, ...)`: no new unix socket can be made, so no path or abstract socket of the host
 *   (docker, ssh-agent, D-Bus, X11) is reachable, even on a read-only mount where `connect` would work.
 *   `socketpair` stays allowed: its two ends only talk to each other.
 * - `io_uring_setup`: io_uring can open sockets without passing through the syscall filter.
 * - the kernel keyring (`add_key`, `request_key`, `keyctl`), `bpf`, `perf_event_open`, `userfaultfd`,
 *   `ptrace`: not needed by build tools, and each a known escalation or snooping surface.
 * - every system call from a foreign ABI (x32 on x86-64, or any non-native `arch`): the 32-bit
 *   `socketcall` multiplexer would otherwise hide the socket family behind a pointer.
 *
 * What it does not cover: an inherited unix socket file descriptor (the runtime passes none but its
 * own bridge channel), sockets passed in by `SCM_RIGHTS` over such a descriptor, and file-system
 * access, which the mount plan handles.
 */

export type SeccompArch = "x86_64" | "aarch64";

interface ArchTable {
  auditArch: number;
  /** System call numbers of this ABI. */
  nr: Record<
    | "socket"
    | "io_uring_setup"
    | "add_key"
    | "request_key"
    | "keyctl"
    | "bpf"
    | "perf_event_open"
    | "userfaultfd"
    | "ptrace",
    number
  >;
  /** Numbers at or above this belong to a second ABI sharing the arch value (x32); 0 when none. */
  foreignAbiBit: number;
}

const ARCHES: Record<SeccompArch, ArchTable> = {
  x86_64: {
    auditArch: 0xc000003e,
    nr: {
      socket: 41,
      io_uring_setup: 425,
      add_key: 248,
      request_key: 249,
      keyctl: 250,
      bpf: 321,
      perf_event_open: 298,
      userfaultfd: 323,
      ptrace: 101,
    },
    foreignAbiBit: 0x40000000,
  },
  aarch64: {
    auditArch: 0xc00000b7,
    nr: {
      socket: 198,
      io_uring_setup: 425,
      add_key: 217,
      request_key: 218,
      keyctl: 219,
      bpf: 280,
      perf_event_open: 241,
      userfaultfd: 282,
      ptrace: 117,
    },
    foreignAbiBit: 0,
  },
};

const AF_UNIX = 1;
const EPERM = 1;

// Classic BPF opcodes (linux/filter.h) and seccomp return actions (linux/seccomp.h).
const LD_W_ABS = 0x20;
const JEQ_K = 0x15;
const JGE_K = 0x35;
const RET_K = 0x06;
const RET_ALLOW = 0x7fff0000;
const RET_ERRNO = 0x00050000;

// Offsets in struct seccomp_data: nr, arch, then args[] (u64 each, low word first on little endian).
const OFFSET_NR = 0;
const OFFSET_ARCH = 4;
const OFFSET_ARG0_LOW = 16;

export interface Instruction {
  code: number;
  jt: number;
  jf: number;
  k: number;
}

/** An instruction whose jumps name a label; `assemble` turns labels into relative offsets. */
type Step = { label?: string; code: number; k: number; ifTrue?: string; ifFalse?: string };

const ld = (offset: number): Step => ({ code: LD_W_ABS, k: offset });
const ret = (value: number, label?: string): Step => ({ code: RET_K, k: value, ...(label ? { label } : {}) });
const jumpIf = (code: number, k: number, ifTrue: string): Step => ({ code, k, ifTrue });

function assemble(steps: Step[]): Instruction[] {
  const at = new Map<string, number>();
  steps.forEach((s, i) => s.label && at.set(s.label, i));
  const offset = (from: number, label?: string) => {
    if (!label) return 0;
    const target = at.get(label);
    if (target === undefined || target <= from || target - from - 1 > 255) {
      throw new Error(`seccomp: bad jump to ${label}`);
    }
    return target - from - 1;
  };
  return steps.map((s, i) => ({ code: s.code, k: s.k, jt: offset(i, s.ifTrue), jf: offset(i, s.ifFalse) }));
}

/** The machine's arch in seccomp's terms, or null when no filter is known for it. */
export function seccompArchOf(nodeArch: string = process.arch): SeccompArch | null {
  if (nodeArch === "x64") return "x86_64";
  if (nodeArch === "arm64") return "aarch64";
  return null;
}

/** The names of the system calls the filter refuses outright (for documentation and explanations). */
const BLOCKED_SYSCALLS = [
  "io_uring_setup",
  "add_key",
  "request_key",
  "keyctl",
  "bpf",
  "perf_event_open",
  "userfaultfd",
  "ptrace",
] as const;

/** The filter as instructions; kept apart from the byte encoding so tests can read it. */
export function seccompInstructions(arch: SeccompArch): Instruction[] {
  const table = ARCHES[arch];
  return assemble([
    ld(OFFSET_ARCH),
    { code: JEQ_K, k: table.auditArch, ifTrue: "native", ifFalse: "deny" },
    { ...ld(OFFSET_NR), label: "native" },
    ...(table.foreignAbiBit ? [jumpIf(JGE_K, table.foreignAbiBit, "deny")] : []),
    ...BLOCKED_SYSCALLS.map((name) => jumpIf(JEQ_K, table.nr[name], "deny")),
    jumpIf(JEQ_K, table.nr.socket, "socket"),
    ret(RET_ALLOW),
    { ...ld(OFFSET_ARG0_LOW), label: "socket" },
    jumpIf(JEQ_K, AF_UNIX, "deny"),
    ret(RET_ALLOW),
    ret(RET_ERRNO | EPERM, "deny"),
  ]);
}

/** The filter as bwrap expects it on `--seccomp FD`: `struct sock_filter[]`, host byte order. */
export function seccompProgram(arch: SeccompArch): Uint8Array {
  const instructions = seccompInstructions(arch);
  const bytes = new Uint8Array(instructions.length * 8);
  const view = new DataView(bytes.buffer);
  instructions.forEach((ins, index) => {
    const at = index * 8;
    view.setUint16(at, ins.code, true);
    view.setUint8(at + 2, ins.jt);
    view.setUint8(at + 3, ins.jf);
    view.setUint32(at + 4, ins.k, true);
  });
  return bytes;
}
