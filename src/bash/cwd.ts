/**
 * Where each command of a command line runs. `cd`, `pushd` and `popd` earlier in the same line move
 * the shell, so `cd / && rm -rf ./*` empties `/` and `cd ~/.ssh && cat id_rsa` reads a key. A change
 * may fail (a missing directory, a subshell that ends), so each command gets every directory it may
 * run in: the ones before the change and the ones after. `.` is where the line started; `~-` is a
 * directory nothing is known about (an `OLDPWD` from before the line, too many possibilities).
 */
import type { Judged } from "./command.ts";
import { parseArgs } from "./options.ts";

export const START = ".";
const UNKNOWN_DIR = "~-";
/** More candidate directories than this: the command may run anywhere. */
const MAX_DIRS = 8;

interface State {
  dirs: string[];
  oldDirs: string[];
  /** pushd's stack, top last; undefined entries stand for the shell's own stack (unknown). */
  stack: string[][];
  /** Directories reached through an unquoted pattern (`cd .gi?`): paths below them are patterns too. */
  patternDirs: Set<string>;
}

/**
 * Sets `dirs` and `oldDirs` on every judged command and rewrites its relative paths (and `~+`,
 * `~-`) into one path per directory it may run in.
 */
export function placeCommands(judged: Judged[]): void {
  const state: State = { dirs: [START], oldDirs: [UNKNOWN_DIR], stack: [], patternDirs: new Set() };
  for (const j of judged) {
    // `env -C DIR cmd` runs cmd in DIR (and not at all when DIR is not there).
    const where = j.chdir === undefined ? state : { dirs: inDirs(j.chdir, state), oldDirs: state.dirs };
    j.dirs = where.dirs;
    j.oldDirs = where.oldDirs;
    const moved = where.dirs.length !== 1 || where.dirs[0] !== START;
    if (moved || j.paths.some((p) => p.path.startsWith("~"))) {
      j.paths = j.paths.flatMap((p) =>
        inDirs(p.path, where).map((
          path,
        ) => (below(path, state.patternDirs) ? { ...p, path, glob: true } : { ...p, path }))
      );
    }
    move(j, state);
  }
}

/** `path` as seen from each directory the command may run in. */
export function inDirs(
  path: string,
  where: { dirs: readonly string[]; oldDirs: readonly string[] },
): string[] {
  const tilde = /^~([+-])(?=\/|$)/.exec(path);
  if (tilde) {
    const rest = path.slice(2);
    return unique((tilde[1] === "+" ? where.dirs : where.oldDirs).map((dir) => joinDir(dir, `.${rest}`)));
  }
  if (path.startsWith("/") || path.startsWith("~")) return [path];
  return unique(where.dirs.map((dir) => joinDir(dir, path)));
}

function joinDir(dir: string, path: string): string {
  if (dir === START) return path;
  const rest = path === "." ? "" : path.replace(/^\.\//, "");
  return rest === "" ? dir : dir.endsWith("/") ? `${dir}${rest}` : `${dir}/${rest}`;
}

function move(j: Judged, state: State): void {
  const name = j.name.slice(j.name.lastIndexOf("/") + 1);
  if (name !== "cd" && name !== "pushd" && name !== "popd") return;
  const { operands, options } = parseArgs(j.args);
  const before = state.dirs;
  let after: string[];
  if (name === "popd") {
    const top = operands.length === 0 && options.length === 0 ? state.stack.pop() : undefined;
    after = top ?? [UNKNOWN_DIR];
  } else if (name === "pushd" && (operands.length === 0 || /^[+-]\d+$/.test(operands[0]!))) {
    after = operands.length === 0 ? state.stack.pop() ?? [UNKNOWN_DIR] : [UNKNOWN_DIR];
    if (operands.length === 0) state.stack.push(before);
  } else if (operands.length > 1) {
    return; // bash: too many arguments; the shell stays where it is
  } else {
    const target = operands[0] ?? "~";
    after = target === "-" ? state.oldDirs : targetsOf(target, state);
    // bash expands the pattern before cd sees it: judged by what it matches, like any operand.
    const pattern = j.words.some((w, i) => i > 0 && w.text === target && w.glob && !w.quoted);
    if (pattern || after.some((dir) => below(dir, state.patternDirs))) {
      for (const dir of after) state.patternDirs.add(dir);
    }
    if (name === "pushd") state.stack.push(before);
  }
  // The change may fail: the shell is then still where it was.
  state.dirs = capped([...before, ...after]);
  state.oldDirs = capped([...state.oldDirs, ...before]);
}

/** The directories `cd target` may go to: joined as bash does (logically) and as the kernel does. */
function targetsOf(target: string, state: State): string[] {
  return inDirs(target, state).flatMap((dir) => dir.split("/").includes("..") ? [dir, logical(dir)] : [dir]);
}

/** `a/b/..` as `cd` reads it by default: `..` removes the component before it. */
function logical(path: string): string {
  const out: string[] = [];
  for (const part of path.split("/")) {
    const last = out.at(-1);
    if (part === ".." && last !== undefined && last !== ".." && last !== "" && last !== "~") out.pop();
    else if (part !== "." || out.length === 0) out.push(part);
  }
  return out.join("/") || (path.startsWith("/") ? "/" : START);
}

/** Whether `path` is one of `dirs` or below one. */
function below(path: string, dirs: ReadonlySet<string>): boolean {
  for (const dir of dirs) if (path === dir || path.startsWith(`${dir}/`)) return true;
  return false;
}

function unique(list: string[]): string[] {
  return [...new Set(list)];
}

function capped(list: string[]): string[] {
  const all = unique(list);
  return all.length <= MAX_DIRS ? all : [...all.slice(0, MAX_DIRS - 1), UNKNOWN_DIR];
}
