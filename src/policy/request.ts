/**
 * Builds the one request `decide` reads. `toolrt check`, the pipeline, `serve`, `hook` and the agent
 * all go through `buildRequest`, so the same call gets the same facts wherever it comes from.
 */
import { homedir } from "node:os";
import { basename, resolve } from "node:path";
import { catastrophesAt } from "../bash/analyze.ts";
import { throughProcLinks } from "../bash/targets.ts";
import type { BashAnalysis } from "../bash/types.ts";
import type { AnyTool, PermissionMode, PermissionResult, ToolContext } from "../tool/types.ts";
import { EDIT_TOOLS, READ_TOOLS } from "./modes.ts";
import {
  expandPattern,
  isInside,
  MAX_PATTERN_MATCHES,
  realPathOfNearestExisting,
  type ResolvedPath,
  resolvePath,
} from "../tool/paths.ts";
import type { DecisionRequest, PathAccess, ToolFacts } from "./types.ts";
import { partialClone, untrustedRepository } from "./git-repository.ts";
import { withGitFacts } from "./git-facts.ts";
import { type ConfigEntry, gitConfigList } from "./git-credentials.ts";
import { patchWrites } from "./patch-targets.ts";
import { type HistoryPaths, historyPaths } from "./git-history.ts";
import type { HistoryRead } from "../bash/git-history.ts";
import { pickingFile } from "./toolchain-file.ts";
import { toolchainFiles, toolchainWhy } from "../bash/toolchains.ts";
import { MAX_TREE_ENTRIES, walkTree } from "./tree-walk.ts";
import type { TreeRead } from "../bash/recursion.ts";
import { hasPattern } from "../tool/shell-pattern.ts";

export interface CallDescription {
  tool: string;
  input: unknown;
  cwd: string;
  /**
   * Where a shell command starts when that is not `cwd`, the workspace root (a hook host's per-call
   * working directory): its relative words, repositories and toolchain files are found from here.
   */
  dir?: string;
  additionalDirs?: string[];
  mode?: PermissionMode;
  agent?: { depth: number; type?: string };
  bash?: BashAnalysis;
  /** For `~` in paths; defaults to the user's home. */
  home?: string;
}

export interface RequestOptions {
  /** Resolves symlinks; injectable for tests. Returns undefined when the path cannot be resolved. */
  realpath?: (path: string) => string | undefined;
  /** Lists the files a git command may print from the history (see `git-history.ts`); injectable for tests. */
  gitHistory?: (dir: string, kind: HistoryRead) => HistoryPaths;
  /** Reads `alias.NAME` of git's configuration in a directory (see `git-facts.ts`); injectable for tests. */
  gitAlias?: (dir: string, name: string) => string | null;
  /** Reads git's configuration as `git config --list` prints it (see `git-credentials.ts`); injectable for tests. */
  gitConfig?: (dir: string, gitDir: boolean, scope: readonly string[]) => ConfigEntry[];
}

/** Input fields that name the file a built-in tool touches (claude-code-compat.md §1). */
const PATH_FIELDS = ["file_path", "notebook_path", "path"] as const;

export function buildRequest(
  call: CallDescription,
  facts: ToolFacts = {},
  options: RequestOptions = {},
): DecisionRequest {
  const home = call.home ?? homedir();
  const realpath = options.realpath ?? realPathOfNearestExisting;
  const cwd = resolve(call.cwd);
  const start = call.dir === undefined ? cwd : resolve(cwd, call.dir);
  const additionalDirs = (call.additionalDirs ?? []).map((dir) => resolvePath(dir, { cwd, home }).path);
  // A workspace reached through a symlink is not a symlinked file: targets inside its real path
  // are shown under the path it was given as.
  const roots = [cwd, ...additionalDirs].map((dir) => ({ dir, real: realpath(dir) ?? dir }));
  const targetOf = (raw: string): string | undefined => {
    const target = realpath(raw);
    const root = target === undefined
      ? undefined
      : roots.find((r) => r.real !== r.dir && isInside(target, r.real));
    return target && root ? root.dir + target.slice(root.real.length) : target;
  };
  const readOnly = facts.readOnly ?? false;
  const shell = call.tool === "Bash";
  const written = shell ? bashPaths(call.bash) : otherPaths(call, facts, readOnly);
  const paths = written.flatMap(({ glob, tree, ...access }) => {
    const resolved = throughProc(resolvePath(access.path, { cwd: start, home, shell }), start);
    const unresolved = access.unresolved ?? resolved.unresolved;
    if (unresolved) return [{ ...access, path: resolved.path, unresolved }];
    return (glob ? patternFiles(resolved) : [resolved]).flatMap((one): PathAccess[] => {
      if (one.unresolved) return [{ ...access, path: one.path, unresolved: one.unresolved }];
      if (glob && optionLike(one.path)) {
        return [{
          ...access,
          path: one.path,
          unresolved: `${one.path} would reach the command as an option`,
        }];
      }
      const target = targetOf(one.raw);
      const named = target && target !== one.path
        ? { ...access, path: one.path, target }
        : { ...access, path: one.path };
      return tree ? [named, ...treePaths(one, tree, access, targetOf)] : [named];
    });
  });
  const realRoots = roots.map((r) => r.real);
  const shellPath = (path: string) => {
    const resolved = resolvePath(path, { cwd: start, home, shell });
    return resolved.unresolved ? undefined : resolved.path;
  };
  // The files a patch writes are named in it: read when deciding (`patch-targets.ts`).
  const patched = (call.bash?.patches ?? []).flatMap((use) => patchWrites(use, shellPath));
  const gitAliasDep = options.gitAlias ? { alias: options.gitAlias } : {};
  const repositories: PathAccess[] = (call.bash?.repositories ?? []).flatMap((use): PathAccess[] => {
    const resolved = resolvePath(use.dir, { cwd: start, home, shell });
    if (resolved.unresolved) {
      // A repository found from a place known only at run time may be anyone's.
      const untrusted = `git would use a repository whose location is unknown (${resolved.unresolved})`;
      return [{
        path: resolved.path,
        access: "read",
        command: use.command,
        unresolved: resolved.unresolved,
        untrusted,
      }];
    }
    const starts = hasPattern(resolved.raw) ? patternFiles(resolved) : [resolved];
    return starts.flatMap((one): PathAccess[] => {
      const real = realpath(one.raw) ?? one.path;
      const why = one.unresolved ?? untrustedRepository(real, realRoots, use.gitDir);
      if (why !== undefined) {
        return [{ path: one.path, access: "read", command: use.command, untrusted: why }];
      }
      const fetches = use.objects && !use.gitDir ? partialClone(real) : undefined;
      return fetches === undefined
        ? []
        : [{ path: one.path, access: "read", command: use.command, untrusted: fetches, network: true }];
    });
  });
  const historyReads: PathAccess[] = [];
  for (const use of call.bash?.repositories ?? []) {
    if (use.reads === undefined || use.gitDir) continue;
    const resolved = resolvePath(use.dir, { cwd: start, home, shell });
    if (resolved.unresolved) continue; // judged as an unresolved repository above
    const found = (options.gitHistory ?? historyPaths)(realpath(resolved.raw) ?? resolved.path, use.reads);
    if ("paths" in found) {
      historyReads.push(
        ...found.paths.map((path) => ({ path, access: "read" as const, command: use.command })),
      );
    } else if ("unknown" in found) {
      repositories.push({
        path: resolved.path,
        access: "read",
        command: use.command,
        unresolved: `${use.command} prints files as git stored them, and which files ${
          use.reads === "history" ? "the history" : "the index"
        } holds is not known (${found.unknown})`,
      });
    }
  }
  const toolchains = (call.bash?.toolchains ?? []).flatMap((use): PathAccess[] => {
    const resolved = resolvePath(use.dir, { cwd: start, home, shell });
    // A directory known only at run time may hold a file that picks any program.
    const unknownDir = (unresolved: string): PathAccess => ({
      path: resolved.path,
      access: "read",
      command: use.command,
      unresolved,
      untrusted: `${use.command} runs the toolchain a file in a directory known only at run time may pick`,
    });
    if (resolved.unresolved) return [unknownDir(resolved.unresolved)];
    // `cd su? && cargo -V`: the directory bash picks is any the pattern matches.
    const starts = hasPattern(resolved.raw) ? patternFiles(resolved) : [resolved];
    return starts.flatMap((one): PathAccess[] => {
      if (one.unresolved) return [{ ...unknownDir(one.unresolved), path: one.path }];
      const file = pickingFile(realpath(one.raw) ?? one.path, realRoots, toolchainFiles(use.command));
      return file === undefined
        ? []
        : [{ path: file, access: "read", command: use.command, untrusted: toolchainWhy(use.command, file) }];
    });
  });
  return {
    tool: call.tool,
    input: call.input,
    cwd,
    additionalDirs,
    mode: call.mode ?? "default",
    agent: call.agent ?? { depth: 0 },
    readOnly: call.tool === "Bash" ? call.bash?.readOnly ?? false : readOnly,
    paths: [
      ...paths,
      ...patched,
      ...outsideStart(call, start, roots, realpath),
      ...repositories,
      ...toolchains,
    ],
    ...(historyReads.length > 0 ? { historyReads } : {}),
    ...(facts.permission && facts.permission.behavior !== "passthrough"
      ? { permission: facts.permission }
      : {}),
    ...(facts.requiresUserInteraction ? { requiresUserInteraction: true } : {}),
    ...(call.bash
      ? {
        bash: withGitFacts(placedBash(call.bash, startDirs(start, roots, realpath), home, realpath), {
          resolve: shellPath,
          ...gitAliasDep,
          config: options.gitConfig ?? ((dir, gitDir, scope) => gitConfigList(dir, gitDir, scope, home)),
        }),
      }
      : {}),
  };
}

/**
 * A shell call a host runs outside every root (Claude Code keeps the cwd of an earlier `cd /elsewhere`)
 * works there: its repository, toolchain files and implicit `.` are outside the workspace, so the
 * directory counts as read, as `cd /elsewhere && git status` does.
 */
function outsideStart(
  call: CallDescription,
  start: string,
  roots: readonly { dir: string; real: string }[],
  realpath: (path: string) => string | undefined,
): PathAccess[] {
  if (call.dir === undefined || call.tool !== "Bash") return [];
  const real = realpath(start) ?? start;
  const inside = roots.some((r) => isInside(start, r.dir) || isInside(real, r.real));
  return inside ? [] : [{ path: start, access: "read", command: "the shell's working directory" }];
}

/**
 * A path through the process's own links read as the file it reaches: `/proc/self/cwd/a.txt` is
 * `a.txt` where the command runs, `/proc/self/root/x` is `/x`. `/dev/fd/N` and `/proc/self/fd/N`
 * (past the standard three) are whatever file that descriptor has open, known only when it runs.
 */
function throughProc(resolved: ResolvedPath, start: string): ResolvedPath {
  if (resolved.unresolved !== undefined || !/^\/(?:proc|dev)\//.test(resolved.path)) return resolved;
  if (
    /^\/(?:dev\/fd|proc\/(?:self|thread-self|\d+)\/fd)\/\d+/.test(resolved.path) &&
    !/^\/dev\/fd\/[012]$/.test(resolved.path)
  ) {
    return {
      ...resolved,
      unresolved: `${resolved.path} is an open file descriptor: its file is known only when it runs`,
    };
  }
  const path = throughProcLinks(resolved.path, start);
  return path === resolved.path ? resolved : { path, raw: path };
}

/** The directory a command starts in, as written and as resolved; in the workspace, every root's real path too. */
function startDirs(
  start: string,
  roots: { dir: string; real: string }[],
  realpath: (path: string) => string | undefined,
): string[] {
  return start === roots[0]?.dir ? [start, ...roots.map((r) => r.real)] : [start, realpath(start) ?? start];
}

/**
 * The analysis with the catastrophes only the place shows added: relative words judged from the
 * working directory (as written and as resolved, since the kernel resolves `..` physically) and
 * the home named by its absolute path.
 */
function placedBash(
  bash: BashAnalysis,
  cwds: string[],
  home: string,
  realpath: (path: string) => string | undefined,
): BashAnalysis {
  const homes = [...new Set([home, realpath(home) ?? home].map((h) => resolve(h)))];
  const found = new Map(bash.catastrophic.map((c) => [c.id, c]));
  for (const cwd of new Set(cwds)) {
    for (const c of catastrophesAt(bash.command, { cwd, homes })) if (!found.has(c.id)) found.set(c.id, c);
  }
  return found.size === bash.catastrophic.length ? bash : { ...bash, catastrophic: [...found.values()] };
}

/** What a Tool object says about this input: the facts `check` and the pipeline pass to `buildRequest`. */
export async function factsFromTool(tool: AnyTool, input: unknown, ctx: ToolContext): Promise<ToolFacts> {
  return toolFacts(tool, input, ctx, await tool.checkPermissions(input, ctx));
}

/** The same facts when the tool's permission answer is already known (the pipeline asked it). */
export function toolFacts(
  tool: AnyTool,
  input: unknown,
  ctx: ToolContext,
  permission: PermissionResult,
): ToolFacts {
  const path = tool.getPath?.(input, ctx);
  return { readOnly: tool.isReadOnly(input), ...(path ? { paths: [path] } : {}), permission };
}

/** A path as the call wrote it; `glob` for an unquoted Bash pattern, `tree` for a directory walked whole. */
type WrittenPath = Omit<PathAccess, "target"> & { glob?: boolean; tree?: TreeRead };

/**
 * What a tree-walking command reads below a directory, each as a path of its own: every file when
 * it reads contents, every link it follows (with where it points); past the limit, the directory
 * counts as unknown.
 */
function treePaths(
  dir: ResolvedPath,
  tree: TreeRead,
  access: Omit<WrittenPath, "path" | "glob" | "tree">,
  targetOf: (raw: string) => string | undefined,
): PathAccess[] {
  const found = walkTree(dir.path, tree.follow, tree.hidden);
  if (found === undefined) {
    return [{
      ...access,
      path: dir.path,
      unresolved: `${dir.path} holds more than ${MAX_TREE_ENTRIES} entries to judge one by one`,
    }];
  }
  const files = tree.contents ? found.files.map((path) => ({ ...access, path })) : [];
  const links = found.links.map((path): PathAccess => {
    const target = targetOf(path);
    return target && target !== path ? { ...access, path, target } : { ...access, path };
  });
  return [...files, ...links];
}

function bashPaths(analysis: BashAnalysis | undefined): WrittenPath[] {
  return (analysis?.paths ?? []).map((p) => ({
    path: p.path,
    access: p.access,
    command: p.command,
    ...(p.glob ? { glob: true } : {}),
    ...(p.runtime ? { unresolved: `${p.path} holds a value known only when the command runs` } : {}),
    ...(p.tree ? { tree: p.tree } : {}),
  }));
}

function otherPaths(
  call: CallDescription,
  facts: ToolFacts,
  readOnly: boolean,
): WrittenPath[] {
  const access = READ_TOOLS.has(call.tool)
    ? "read"
    : EDIT_TOOLS.has(call.tool)
    ? "write"
    : readOnly
    ? "read"
    : "write";
  const paths = facts.paths ?? pathsFromInput(call.tool, call.input);
  return paths.map((path) => ({ path, access }));
}

/** Paths named by the input of file tools; search tools without a path search the workspace. */
function pathsFromInput(tool: string, input: unknown): string[] {
  if (!READ_TOOLS.has(tool) && !EDIT_TOOLS.has(tool)) return [];
  const record = input !== null && typeof input === "object" ? input as Record<string, unknown> : {};
  const named = PATH_FIELDS.map((field) => record[field]).filter((v): v is string => typeof v === "string");
  if (named.length === 0 && (tool === "Grep" || tool === "Glob" || tool === "LS")) return ["."];
  return named;
}

/**
 * A pattern written without a folder (`*`) expands to bare names, so a matched file named `-R`
 * reaches the command as an option (`grep KEY *` turns recursive): nothing is known of it then.
 * The pattern as written may have lost its folder to an earlier `cd`, so any such match counts.
 */
function optionLike(matched: string): boolean {
  return basename(matched).startsWith("-");
}

/**
 * The files a Bash pattern names now (`cat .en?` reads `.env`), each judged on its own; the
 * pattern as written when nothing matches (bash passes it on), unresolved past the limit.
 */
function patternFiles(pattern: ResolvedPath): ResolvedPath[] {
  const files = expandPattern(pattern.raw);
  if (files === undefined) {
    return [{ ...pattern, unresolved: `${pattern.path} matches more than ${MAX_PATTERN_MATCHES} files` }];
  }
  return files.length === 0 ? [pattern] : files.map((file) => ({ path: resolve(file), raw: file }));
}
