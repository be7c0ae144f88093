/**
 * Commands with system-wide, usually irreversible effects. The shipped default policy denies every
 * command listed here; critical deletion targets that are not catastrophic still always ask.
 */
import type { Judged } from "./command.ts";
import { interpreterName, INTERPRETERS, programFromStdin } from "./rules.ts";
import type { Catastrophe } from "./types.ts";
import { SHELLS } from "./wrappers.ts";

const SYSTEM_DIRS =
  "bin|boot|dev|etc|home|lib|lib32|lib64|opt|proc|root|sbin|srv|sys|usr|var|System|Users|Library|Applications|private";
/** `/`, `~`, their contents, and top-level system directories. */
const CATASTROPHIC_TARGET = new RegExp(`^(?:/|~|/\\*|~/\\*|~/\\.\\*|/(?:${SYSTEM_DIRS})(?:/\\*)?)$`);
/** Deleting these is never auto-approved: any top-level directory, home, the working directory and its parents. */
const CRITICAL_TARGET = /^(?:\/[^/]*|~[^/]*|~\/\*|\.|\.\.|\.\/\*|\*|(?:\.\.\/)+\.\.|(?:\.\.\/)*\*)$/;

const DOWNLOADERS = new Set([
  "curl",
  "wget",
  "fetch",
  "aria2c",
  "http",
  "https",
  "xh",
  "nc",
  "ncat",
  "socat",
  "lynx",
]);
const SHUTDOWN = new Set(["shutdown", "reboot", "halt", "poweroff", "killall5"]);
const SYSTEM_FILE =
  /^\/etc\/(?:passwd|shadow|group|gshadow|sudoers|sudoers\.d(?:\/.*)?|crontab|cron\.[^/]+(?:\/.*)?|anacrontab)$|^\/var\/spool\/cron(?:\/.*)?$|^\/private\/etc\/(?:passwd|sudoers|master\.passwd)$/;
const BLOCK_DEVICE =
  /^\/dev\/(?:sd[a-z]|hd[a-z]|vd[a-z]|xvd[a-z]|nvme\d|mmcblk\d|disk\d|rdisk\d|md\d|dm-\d|mapper\/|loop\d|sr\d)/;
const DISK_TOOLS =
  /^(?:mkfs(?:\..+)?|mke2fs|mkswap|wipefs|fdisk|sfdisk|cfdisk|parted|sgdisk|gdisk|blkdiscard|hdparm)$/;

/** `$HOME/` → `~`; duplicate slashes, `.` and `..` resolved as the kernel would; no trailing slash. */
function normalizeTarget(path: string): string {
  const p = path.replace(/^(?:\$HOME|\$\{HOME\})(?=\/|$)/, "~");
  const absolute = p.startsWith("/");
  const parts: string[] = [];
  for (const part of p.split("/")) {
    if (part === "" || part === ".") continue;
    // `..` above the root stays at the root; relative `..` is kept (the working directory is unknown).
    if (part === ".." && parts.length > 0 && parts.at(-1) !== ".." && parts.at(-1) !== "~") parts.pop();
    else if (part !== ".." || !absolute) parts.push(part);
  }
  const joined = parts.join("/");
  if (absolute) return `/${joined}`;
  return joined === "" ? (p.startsWith(".") ? "." : p) : joined;
}

/**
 * The program a catastrophe is judged by: the file name of any path (`./../../bin/rm` is rm) and
 * zsh's builtin twins (`zf_rm`). Only for denying; rules still see the command as written.
 */
function programOf(name: string): string {
  return name.slice(name.lastIndexOf("/") + 1).replace(/^zf_/, "");
}

export function isCriticalTarget(path: string): boolean {
  const p = normalizeTarget(path);
  return CATASTROPHIC_TARGET.test(p) || CRITICAL_TARGET.test(p);
}

const recursive = (args: string[]) =>
  args.some((a) => /^-[a-zA-Z]*[rR]/.test(a) && !a.startsWith("--") || a === "--recursive");

/** Every catastrophe in the judged commands of one analysis. */
export function findCatastrophes(raw: string, judged: Judged[]): Catastrophe[] {
  const found = new Map<string, Catastrophe>();
  const add = (id: string, reason: string) => found.has(id) || found.set(id, { id, reason });

  if (isForkBomb(raw)) {
    add("fork-bomb", "a fork bomb exhausts the machine's processes");
  }
  // After `cd /` or a bare `cd` (home), `rm -rf *` empties that directory.
  let inCriticalDir = false;
  for (const j of judged) {
    const { args } = j;
    const name = programOf(j.name);
    const operands = args.filter((a) => !a.startsWith("-") || a === "-");
    if (name === "cd") inCriticalDir = CATASTROPHIC_TARGET.test(normalizeTarget(operands[0] ?? "~"));
    const targets = inCriticalDir
      ? operands.map((o) => (/^(?:\.\/?)?\*?$|^\.\*$/.test(o) ? "/" : o))
      : operands;
    if (
      name === "rm" && recursive(args) && targets.some((o) => CATASTROPHIC_TARGET.test(normalizeTarget(o)))
    ) {
      add("rm-root", `rm -r of ${operands.join(" ")} deletes the system or the home directory`);
    }
    if (name === "rm" && args.includes("--no-preserve-root")) {
      add("rm-root", "rm --no-preserve-root deletes the system");
    }
    if (name === "find" && args.some((a) => a === "-delete" || a === "-exec" || a === "-execdir")) {
      const roots = args.slice(0, args.findIndex((a) => /^[-(!]/.test(a)));
      if (roots.some((r) => CATASTROPHIC_TARGET.test(normalizeTarget(r)))) {
        add(
          "rm-root",
          `find ${roots.join(" ")} with ${
            args.includes("-delete") ? "-delete" : "-exec"
          } can delete the system or home`,
        );
      }
    }
    if (["chmod", "chown", "chgrp"].includes(name) && recursive(args)) {
      if (operands.slice(1).some((o) => CATASTROPHIC_TARGET.test(normalizeTarget(o)))) {
        add(
          "recursive-chmod-root",
          `recursive ${name} of ${operands.slice(1).join(" ")} breaks the system or home`,
        );
      }
    }
    if (SHUTDOWN.has(name)) add("shutdown", `${name} stops or restarts the machine`);
    if ((name === "init" || name === "telinit") && /^[06]$/.test(args[0] ?? "")) {
      add("shutdown", `${name} ${args[0]} stops the machine`);
    }
    if (
      (name === "systemctl" || name === "loginctl") &&
      args.some((a) => /^(?:poweroff|reboot|halt|kexec|emergency|rescue)(?:\.target)?$/.test(a))
    ) {
      add("shutdown", `${name} stops or restarts the machine`);
    }
    if (name === "kill" && killsEverything(args)) {
      add("kill-all", "kill -1 signals every process the user can reach");
    }
    if ((name === "pkill" || name === "killall") && matchesEverything(name, args)) {
      add("kill-all", `${name} with this pattern signals every process the user can reach`);
    }
    if (name === "crontab" && !(args.length === 1 && args[0] === "-l")) {
      add("cron-write", "crontab installs or removes scheduled jobs");
    }
    for (const p of j.paths) {
      if (p.access !== "write") continue;
      const target = normalizeTarget(p.path);
      if (SYSTEM_FILE.test(target)) {
        add("system-file-write", `writes ${p.path}, a system account, sudo or cron file`);
      }
      if (BLOCK_DEVICE.test(target)) add("block-device", `writes the block device ${p.path} directly`);
      if (target === "/proc/sysrq-trigger") {
        add("shutdown", "writing /proc/sysrq-trigger can stop the machine at once");
      }
    }
    if (DISK_TOOLS.test(name)) add("block-device", `${name} rewrites disks or partitions`);
    if (runsDownloadedCode(j)) {
      add("pipe-to-shell", "runs code downloaded from the network or decoded from hidden text");
    }
  }
  const opensSocket = judged.some((j) => j.raw.redirects.some((r) => NET_DEVICE.test(r.target)));
  for (const [pipe, stages] of groupPipelines(judged)) {
    const sinkAt = stages.findIndex((j) => j.raw.stage > 0 && readsCodeFromStdin(j));
    if (pipe === 0 || sinkAt === -1) continue;
    const sink = stages[sinkAt]!;
    const source = (j: Judged) =>
      DOWNLOADERS.has(programOf(j.name)) || isDecoder(j) || (opensSocket && readsSocket(j));
    if (stages.some((j) => j.raw.stage < sink.raw.stage && source(j))) {
      add("pipe-to-shell", `pipes downloaded or decoded text into ${sink.name}, which runs it`);
    }
  }
  return [...found.values()];
}

/** `name() {` or `function name {`, and the body up to the first `}`. */
const FUNCTION_DEFINITION =
  /(?:\bfunction\s+([\w:.-]{1,64})\s*(?:\(\s*\))?|([\w:.-]{1,64})\s*\(\s*\))\s*\{([^}]{0,200})/g;

/**
 * A function that calls itself twice with at least one call in the background: `:(){ :|:& };:`,
 * `f(){ f & f; }`, `function f { f|f& }`.
 */
function isForkBomb(raw: string): boolean {
  if (/\bfork\s+while\s+fork\b/.test(raw)) return true;
  if (!raw.includes("{")) return false;
  for (const [, keyword, plain, body] of raw.matchAll(FUNCTION_DEFINITION)) {
    const self = (keyword ?? plain)!.replace(/[.]/g, "\\.");
    const calls = body!.match(new RegExp(`(?:^|[\\s;&|])${self}(?=[\\s;&|]|$)`, "g")) ?? [];
    if (calls.length >= 2 && /(?<!&)&(?![&>])/.test(body!)) return true;
  }
  return false;
}

/** `pkill -v x` (everything but x) or a pattern any process name matches (`.`, `.*`, `^`). */
function matchesEverything(name: string, args: string[]): boolean {
  const operands = args.filter((a) => !a.startsWith("-"));
  const inverse = name === "pkill" && args.some((a) => /^-[a-zA-Z]*v/.test(a) || a === "--inverse");
  return inverse || operands.some((p) => /^(?:\^?\.\*?\$?|\^|\.\+|)$/.test(p));
}

function killsEverything(args: string[]): boolean {
  let i = 0;
  if (args[0] === "-s" || args[0] === "-n") i = 2;
  else if (args[0] !== undefined && /^-(?:\d+|[A-Z]+[A-Z0-9+-]*)$/.test(args[0]) && args.length > 1) i = 1;
  if (args[i] === "--") i++;
  return args.slice(i).some((a) => a === "-1");
}

const DECOMPRESSORS = /^(?:gzip|bzip2|xz|zstd|lzma|lz4|brotli)$/;
const ALWAYS_DECODES = /^(?:uudecode|gunzip|zcat|bzcat|xzcat|zstdcat|unxz|bunzip2|rev|tr)$/;

/** A command whose output is its input transformed: base64 -d, xxd -r, gzip -d, rev, tr. */
function isDecoder(j: Judged): boolean {
  const { args } = j;
  const name = programOf(j.name);
  if (name === "base64" || name === "base32" || name === "basenc") {
    return args.some((a) => /^-[a-zA-Z]*[dD]|^--decode$/.test(a));
  }
  if (name === "xxd") return args.some((a) => /^-[a-zA-Z]*r/.test(a));
  if (name === "openssl") return args.some((a) => a === "-d" || a === "base64" || a === "enc");
  if (DECOMPRESSORS.test(name)) return args.some((a) => /^-[a-zA-Z]*d|^--(?:decompress|stdout)$/.test(a));
  return ALWAYS_DECODES.test(name);
}

/** `/dev/tcp/host/port`: bash opens a network connection. */
const NET_DEVICE = /^\/dev\/(?:tcp|udp)\//;

/** Reads a socket opened by a redirection: `cat <&3` after `exec 3<>/dev/tcp/...`, or `< /dev/tcp/...`. */
function readsSocket(j: Judged): boolean {
  return j.raw.redirects.some((r) =>
    r.op.startsWith("<") && (NET_DEVICE.test(r.target) || /^&?[3-9]$/.test(r.target))
  );
}

/** A shell or interpreter that takes its program from standard input. */
function readsCodeFromStdin(j: Judged): boolean {
  const { name, args } = j;
  if (name === "source" || name === ".") return args[0] === "/dev/stdin" || args[0] === "-";
  return programFromStdin(name, args, SHELLS.has(name));
}

/** `bash <(curl ...)`, `sh -c "$(curl ...)"`, `$(curl ...)` as the command itself, `eval "$(... | base64 -d)"`. */
function runsDownloadedCode(j: Judged): boolean {
  const fetched = j.raw.subs.some((s) => {
    const name = s.words[0]?.text ?? "";
    return DOWNLOADERS.has(name) || isDecoder({ ...j, name, args: s.words.slice(1).map((w) => w.text) });
  });
  if (!fetched) return false;
  const runner = SHELLS.has(j.name) || INTERPRETERS.has(interpreterName(j.name)) ||
    ["eval", "source", ".", "exec"].includes(j.name);
  return runner || j.words[0]?.dynamic === true;
}

function groupPipelines(judged: Judged[]): Map<number, Judged[]> {
  const pipes = new Map<number, Judged[]>();
  for (const j of judged) {
    const list = pipes.get(j.raw.pipe) ?? [];
    list.push(j);
    pipes.set(j.raw.pipe, list);
  }
  return pipes;
}
