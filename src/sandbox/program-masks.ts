/**
 * Programs a deny or ask rule names, kept from running inside the sandbox unless the approved
 * command line names them itself. A rule like `Bash(curl:*)` is read by the analyzer on the line
 * the model writes; whatever a program of that line runs by other means (`sed '1e curl x'`, tar's
 * checkpoint actions, make's `$(shell)`, an alias, ssh's ProxyCommand) the analyzer can miss. Here
 * the sandbox enforces the rule for the whole class: every executable file of that name it can
 * reach is covered by a stub that says which rule blocked it and exits 126.
 *
 * One stub per file, on the real file (so every symbolic link to it, wherever it is, reaches the
 * stub) and on each hard link of it found in the searched directories. Copying the program inside
 * the run copies the stub; `exec -a`, another PATH, `/proc/self/root/...` or the dynamic loader
 * all open the same path. Rules are about programs: an interpreter's own network or file code
 * (`python -c 'urllib...'`, `perl -e unlink`) or another implementation of the tool (a busybox
 * applet of another file, a binary built in the workspace) is not that program.
 */
import { type Dirent, lstatSync, readdirSync, realpathSync, statSync } from "node:fs";
import { dirname, isAbsolute, join } from "node:path";
import { isInside } from "../tool/paths.ts";
import type { MountPlan } from "./mount-plan.ts";

/** A program to keep from running, and why (the rule and its source), for the stub's message. */
export interface ProgramMask {
  program: string;
  why: string;
}

/** One file the stub covers. */
export interface StubMount {
  path: string;
  program: string;
  why: string;
}

export interface MaskPlan {
  stubs: StubMount[];
  /** The stub's text per program (`#!` line, message, `exit 126`). */
  texts: Map<string, string>;
  /** Masks not given as asked, each with why. */
  notices: string[];
  /** Reasons the masks cannot be given; the sandbox refuses to run. */
  refusals: string[];
}

/**
 * At most this many stubs (one mount each; bwrap re-reads the mount table per mount). A program
 * usually has one file; more than this means rules naming a multi-call binary with hard links.
 */
export const MAX_STUB_MOUNTS = 64;

/** Where programs live besides the PATH's directories. */
export const SYSTEM_BIN_DIRS: readonly string[] = [
  "/usr/local/sbin",
  "/usr/local/bin",
  "/usr/sbin",
  "/usr/bin",
  "/sbin",
  "/bin",
  "/usr/games",
  "/usr/local/games",
  "/snap/bin",
  "/usr/libexec",
  "/usr/local/libexec",
];

/**
 * Directories whose subdirectories (and their `bin`) hold programs run by full path:
 * `/usr/lib/git-core/git` is a copy of git, `/opt/tool/bin/curl` another curl.
 */
export const PROGRAM_TREE_DIRS: readonly string[] = ["/usr/lib", "/usr/libexec", "/usr/local/lib", "/opt"];

/** Programs a stub may be interpreted by, the first one not masked. */
const STUB_SHELLS = ["/bin/sh", "/bin/dash", "/bin/bash", "/usr/bin/sh", "/usr/bin/dash", "/usr/bin/bash"];

export interface MaskContext {
  /** The PATH the command runs with: its absolute directories are searched too. */
  pathEnv?: string;
  /** Programs that must run (the shell that runs the command line): never masked. */
  exempt?: readonly string[];
  /** Paths the sandbox hides (denyRead): nothing under them needs a stub. */
  hidden?: readonly string[];
  /** The directories searched: default the PATH's, SYSTEM_BIN_DIRS and PROGRAM_TREE_DIRS' subdirectories. */
  binDirs?: readonly string[];
}

interface SearchDirs {
  /** Searched for the program's name and for hard links of it. */
  bins: string[];
  /** Searched for the program's name only (reading every file of /usr/lib would cost too much). */
  trees: string[];
}

/** The stubs for `masks` on this machine's disk. Reads only directories and file status. */
export function planProgramMasks(masks: readonly ProgramMask[], context: MaskContext = {}): MaskPlan {
  const plan: MaskPlan = { stubs: [], texts: new Map(), notices: [], refusals: [] };
  if (masks.length === 0) return plan;
  const { bins, trees } = searchDirs(context);
  const dirs = [...bins, ...trees];
  const exempt = new Map<string, string>();
  for (const program of context.exempt ?? []) {
    const real = program.includes("/")
      ? realFile(program)
      : bins.map((d) => realFile(join(d, program))).find((r) => r !== null) ?? null;
    if (real) exempt.set(real, program);
  }
  const targets = new Map<string, StubMount>();
  const add = (path: string, mask: ProgramMask) => {
    if ((context.hidden ?? []).some((h) => isInside(path, h)) || targets.has(path)) return;
    targets.set(path, { path, program: mask.program, why: mask.why });
  };
  for (const mask of masks) {
    const reals = new Set(dirs.map((d) => realFile(join(d, mask.program))).filter((r) => r !== null));
    for (const real of reals) {
      const runs = exempt.get(real);
      if (runs !== undefined) {
        plan.notices.push(
          `${mask.program} is not blocked: ${real} is also ${runs}, which runs the command line (${mask.why})`,
        );
        continue;
      }
      add(real, mask);
      const links = statSync(real).nlink;
      if (links === 1) continue;
      const found = hardLinks(real, [...bins, dirname(real)]);
      for (const link of found) add(link, mask);
      if (found.length + 1 < links) {
        plan.notices.push(
          `${real} (${mask.program}) has ${links - 1 - found.length} hard link(s) outside the searched ` +
            `directories: those are not blocked`,
        );
      }
    }
  }
  plan.stubs = [...targets.values()];
  if (plan.stubs.length > MAX_STUB_MOUNTS) {
    plan.refusals.push(
      `the rules naming ${[...new Set(masks.map((m) => m.program))].join(", ")} would need ` +
        `${plan.stubs.length} stub mounts, more than ${MAX_STUB_MOUNTS}: narrow the deny and ask rules ` +
        "that name a bare program, or run the command outside the sandbox",
    );
  }
  const interpreter = STUB_SHELLS.find((s) => {
    const real = realFile(s);
    return real !== null && !targets.has(real);
  }) ?? "/bin/sh";
  for (const mask of masks) plan.texts.set(mask.program, stubText(mask, interpreter));
  return plan;
}

/** The stub: a shell script that names the rule, says how to get the program run, exits 126. */
export function stubText(mask: ProgramMask, interpreter: string): string {
  const message = `toolrt: ${mask.program} is blocked in this sandbox by ${mask.why}: a program of the ` +
    `approved command line may not start it. To run ${mask.program}, make it a command of its own, so ` +
    "that toolrt can decide it (ask a person, or apply the rule).";
  return `#!${interpreter}\necho '${message.replaceAll("'", `'\\''`)}' >&2\nexit 126\n`;
}

/** The PATH's absolute directories, the system's, and the program trees' subdirectories. */
function searchDirs(context: MaskContext): SearchDirs {
  if (context.binDirs) return { bins: [...context.binDirs], trees: [] };
  const fromPath = (context.pathEnv ?? "").split(":").filter((d) => isAbsolute(d));
  const trees = PROGRAM_TREE_DIRS.flatMap((root) => {
    let names: string[];
    try {
      names = readdirSync(root);
    } catch {
      return [];
    }
    return names.flatMap((name) => [join(root, name), join(root, name, "bin")]);
  });
  // `/bin` is often `/usr/bin`: each directory once, by its real path.
  const bins = [...fromPath, ...SYSTEM_BIN_DIRS].flatMap((d) => {
    try {
      return [realpathSync(d)];
    } catch {
      return [];
    }
  });
  return { bins: [...new Set(bins)], trees };
}

/** The real path of `path` when it is an executable file (links followed); else null. */
function realFile(path: string): string | null {
  try {
    const stat = statSync(path);
    if (!stat.isFile() || (stat.mode & 0o111) === 0) return null;
    return realpathSync(path);
  } catch {
    return null;
  }
}

/**
 * Other names of `real`'s inode in `dirs`. Regular files only: a symbolic link to it reaches the
 * stub anyway, and one to another name of it is covered when that name's directory is searched.
 */
function hardLinks(real: string, dirs: readonly string[]): string[] {
  const { dev, ino } = statSync(real);
  const found = new Set<string>();
  for (const dir of new Set(dirs)) {
    let entries: Dirent[];
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      continue;
    }
    for (const entry of entries) {
      if (!entry.isFile()) continue;
      const path = join(dir, entry.name);
      const stat = lstatSync(path, { throwIfNoEntry: false });
      if (!stat || stat.ino !== ino || stat.dev !== dev) continue;
      try {
        const at = realpathSync(path);
        if (at !== real) found.add(at);
      } catch {
        // gone since: not a link to cover
      }
    }
  }
  return [...found];
}

/** The stubs as mounts of a plan (last: each covers one file), and their refusals as its own. */
export function addStubs(plan: MountPlan, masks: MaskPlan): void {
  for (const stub of masks.stubs) {
    const text = masks.texts.get(stub.program) ?? "";
    plan.mounts.push({ op: "stub", path: stub.path, why: `${stub.program}: ${stub.why}`, text });
  }
  plan.refusals.push(...masks.refusals);
}
