/**
 * The sandbox profile: one description of what a sandboxed command may do, built from settings
 * (policy, CLI flags) and turned into a bwrap command line on Linux or an SBPL profile on macOS.
 */
import { homedir } from "node:os";
import { hiddenCredentialPaths } from "./credentials.ts";
import { DEFAULT_SECRET_ENV_PATTERNS } from "./env.ts";
import { isInside } from "../tool/paths.ts";
import { expandPath, listingResolveReal, resolveReal } from "./paths.ts";
import { expandPresets } from "./presets.ts";
import { MANDATORY_PROTECTED, type ProtectedEntry } from "./protected.ts";
import { unsafeWritableRoot } from "./writable-root-guard.ts";

/** What policy or the command line asks for. Paths may be relative (to the workspace) or use `~`. */
export interface SandboxSettings {
  allowWrite?: string[];
  denyRead?: string[];
  /** Credential locations (`credentials.ts`) the command may read after all, spelled as listed there. */
  allowRead?: string[];
  denyWrite?: string[];
  /** Hosts reachable through the runtime's proxy: `example.com`, `*.example.com`, `host:port`. */
  allowNet?: string[];
  /** Extra environment-variable name globs to drop, on top of the default patterns. */
  unsetEnv?: string[];
  /**
   * Listening on and connecting to localhost. Linux: always, on the sandbox's own loopback. macOS:
   * only with this, and it is the host's loopback (other local services answer too).
   */
  allowLocalhost?: boolean;
  /** When toolrt runs as root: keep root inside instead of the workspace owner's uid. */
  runAsRoot?: boolean;
  /**
   * Give the command empty /tmp and /var/tmp of its own instead of the host's, read-only
   * (`PRIVATE_HOST_DIRS`): other sessions' files there stay unseen, but so do scripts left there to run.
   */
  privateTmp?: boolean;
  /** Any limit not given keeps its default (`DEFAULT_LIMITS`). */
  limits?: Partial<SandboxLimits>;
}

export interface SandboxLimits {
  /** Processes (threads) of the sandbox together: cgroup pids.max, else RLIMIT_NPROC. */
  maxProcesses: number;
  /** Memory of the sandbox together (cgroup), else RLIMIT_DATA per process. Includes the private temp dir. */
  maxMemoryBytes: number;
  /** CPU seconds per process (RLIMIT_CPU); null: none. */
  maxCpuSeconds: number | null;
  /** Seconds from start until the whole sandbox is killed; null: none. */
  maxWallSeconds: number | null;
  /** Size of the private temp dir (`$TMPDIR`, a tmpfs of its own). */
  maxTmpBytes: number;
}

export interface SandboxProfile {
  /** Real path of the workspace (always writable). */
  workspace: string;
  /** Real paths, the workspace first; none lies inside another. */
  writableRoots: string[];
  denyRead: string[];
  /** The credential locations among `denyRead` (hidden by default, not asked for), for explanations. */
  hiddenCredentials: string[];
  denyWrite: string[];
  protectedEntries: readonly ProtectedEntry[];
  allowNet: string[];
  allowLocalhost: boolean;
  unsetEnvPatterns: string[];
  limits: SandboxLimits;
  /** Keep uid 0 inside when toolrt runs as root (`run-as.ts`). */
  runAsRoot: boolean;
  /** Host /tmp and /var/tmp replaced by empty ones of the sandbox's own; off: shown read-only. */
  privateTmp: boolean;
  /** Settings that could not be honoured as written (e.g. a symlink loop); the caller refuses. */
  problems: string[];
}

export const DEFAULT_LIMITS: SandboxLimits = {
  maxProcesses: 2048,
  maxMemoryBytes: 8 * 1024 ** 3,
  maxCpuSeconds: null,
  maxWallSeconds: null,
  maxTmpBytes: 2 * 1024 ** 3,
};

/**
 * Builds a profile for `workspace`. Resolves every path through symlinks (a writable root given as
 * a link becomes its target; a deny path is denied where writes through it would land); tests pass
 * `realPath` to stand for another machine's disk.
 *
 * @example buildSandboxProfile({ denyRead: ["~/.ssh"], allowNet: ["registry.npmjs.org"] }, "/src/app")
 */
export function buildSandboxProfile(
  settings: SandboxSettings,
  workspace: string,
  context: { home?: string; realPath?: (path: string) => string | null } = {},
): SandboxProfile {
  const home = context.home ?? homedir();
  const realPath = context.realPath ?? resolveReal;
  const presets = expandPresets(settings, home);
  const problems: string[] = [...presets.problems];
  const resolveAll = (paths: string[] | undefined, what: string, resolver = realPath) =>
    (paths ?? []).flatMap((raw) => {
      const real = resolver(expandPath(raw, { home, base: workspace }));
      if (real === null) problems.push(`${what} path ${raw}: symbolic-link loop or unresolvable`);
      return real === null ? [] : [real];
    });
  const [workspaceReal] = resolveAll([workspace], "workspace");
  const root = workspaceReal ?? expandPath(workspace, { home, base: process.cwd() });
  const writable = [root, ...resolveAll(presets.allowWrite, "allowWrite")];
  const writableRoots = writable.filter((p, i) =>
    writable.findIndex((q) => q === p) === i && !writable.some((q) => q !== p && isInside(p, q))
  );
  const realHome = realPath(home) ?? home;
  for (const [i, path] of writable.entries()) {
    const unsafe = unsafeWritableRoot(path, realHome, i === 0 ? "the workspace" : "the writable path");
    if (unsafe) problems.push(unsafe);
  }
  const hiddenCredentials = unique(
    resolveAll(
      hiddenCredentialPaths(settings.allowRead ?? [], home),
      "credential location",
      // Over a hundred paths, most of them missing: their directories are listed instead.
      context.realPath ?? listingResolveReal(),
    ),
  );
  return {
    workspace: root,
    writableRoots,
    hiddenCredentials,
    denyRead: unique([...resolveAll(settings.denyRead, "denyRead"), ...hiddenCredentials]),
    denyWrite: unique(resolveAll(settings.denyWrite, "denyWrite")),
    protectedEntries: MANDATORY_PROTECTED,
    allowNet: presets.allowNet,
    allowLocalhost: settings.allowLocalhost === true,
    unsetEnvPatterns: unique([...DEFAULT_SECRET_ENV_PATTERNS, ...(settings.unsetEnv ?? [])]),
    limits: { ...DEFAULT_LIMITS, ...definedOnly(settings.limits ?? {}) },
    runAsRoot: settings.runAsRoot === true,
    privateTmp: settings.privateTmp === true,
    problems,
  };
}

const unique = (values: string[]) => [...new Set(values)];
const definedOnly = <T extends object>(value: T): Partial<T> =>
  Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
