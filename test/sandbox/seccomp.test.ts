import { describe, expect, test } from "bun:test";
import {
  type Instruction,
  seccompArchOf,
  seccompInstructions,
  seccompProgram,
} from "../../src/sandbox/seccomp.ts";

/** A classic-BPF interpreter for the few opcodes the filter uses, run over one seccomp_data. */
function evaluate(program: Instruction[], data: { nr: number; arch: number; arg0: number }): number {
  const word = (
    offset: number,
  ) => (offset === 0 ? data.nr : offset === 4 ? data.arch : offset === 16 ? data.arg0 : 0);
  let acc = 0;
  for (let pc = 0; pc < program.length;) {
    const ins = program[pc]!;
    if (ins.code === 0x20) acc = word(ins.k);
    else if (ins.code === 0x06) return ins.k;
    else if (ins.code === 0x15) pc += acc === ins.k ? ins.jt : ins.jf;
    else if (ins.code === 0x35) pc += acc >= ins.k ? ins.jt : ins.jf;
    else throw new Error(`unexpected opcode ${ins.code}`);
    pc++;
  }
  throw new Error("fell off the end of the program");
}

const ALLOW = 0x7fff0000;
const EPERM = 0x00050001;
const X86 = 0xc000003e;

describe("seccomp filter", () => {
  const program = seccompInstructions("x86_64");
  const cases: Array<[string, { nr: number; arch: number; arg0: number }, number]> = [
    ["socket(AF_UNIX) is refused", { nr: 41, arch: X86, arg0: 1 }, EPERM],
    ["socket(AF_INET) is allowed", { nr: 41, arch: X86, arg0: 2 }, ALLOW],
    ["socket(AF_INET6) is allowed", { nr: 41, arch: X86, arg0: 10 }, ALLOW],
    ["socketpair(AF_UNIX) is allowed", { nr: 53, arch: X86, arg0: 1 }, ALLOW],
    ["read is allowed", { nr: 0, arch: X86, arg0: 1 }, ALLOW],
    ["io_uring_setup is refused", { nr: 425, arch: X86, arg0: 0 }, EPERM],
    ["keyctl is refused", { nr: 250, arch: X86, arg0: 0 }, EPERM],
    ["ptrace is refused", { nr: 101, arch: X86, arg0: 0 }, EPERM],
    ["an x32 socket call is refused", { nr: 0x40000000 + 41, arch: X86, arg0: 2 }, EPERM],
    ["any i386 call is refused", { nr: 102, arch: 0x40000003, arg0: 1 }, EPERM],
  ];
  for (const [name, data, expected] of cases) {
    test(name, () => expect(evaluate(program, data)).toBe(expected));
  }
  test("aarch64 refuses socket(AF_UNIX) by its own number", () => {
    const arm = seccompInstructions("aarch64");
    expect(evaluate(arm, { nr: 198, arch: 0xc00000b7, arg0: 1 })).toBe(EPERM);
    expect(evaluate(arm, { nr: 198, arch: 0xc00000b7, arg0: 2 })).toBe(ALLOW);
    expect(evaluate(arm, { nr: 41, arch: 0xc00000b7, arg0: 1 })).toBe(ALLOW);
  });
  test("encodes 8 little-endian bytes per instruction", () => {
    const bytes = seccompProgram("x86_64");
    expect(bytes.length).toBe(program.length * 8);
    const view = new DataView(bytes.buffer);
    expect(view.getUint16(0, true)).toBe(0x20);
    expect(view.getUint32(4, true)).toBe(4);
  });
  test("only known architectures get a filter", () => {
    expect(seccompArchOf("x64")).toBe("x86_64");
    expect(seccompArchOf("arm64")).toBe("aarch64");
    expect(seccompArchOf("riscv64")).toBeNull();
  });
});
