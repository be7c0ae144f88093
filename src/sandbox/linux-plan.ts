/**
 * The Linux mount plan for a profile as the disk is now: the trees' indexes refreshed (`scan.ts`),
 * the git layout read (`git-dirs.ts`), then the pure planner. Shared by runs, `--print-profile
 * linux` and `--explain`.
 */
import { isAbsolute, join } from "node:path";
import { defaultStateDir } from "../cli/options.ts";
import { isInside } from "../tool/paths.ts";
import { type GitLayout, gitLayout } from "./git-dirs.ts";
import { type MountPlan, planMounts } from "./mount-plan.ts";
import { entryKind, resolveReal } from "./paths.ts";
import type { SandboxProfile } from "./profile.ts";
import { type ScanResult, scanWritableRoots, TreeIndexes } from "./scan.ts";
import { timingMark } from "./timing.ts";

export interface DiskPlan {
  plan: MountPlan;
  scan: ScanResult;
  git: GitLayout;
}

/** The sandbox's part of the state dir: tree indexes and quarantine, private to the user. */
export function sandboxStateDir(stateDir: string = defaultStateDir()): string {
  return join(stateDir, "sandbox");
}

/** Every `.git` entry (directory, file or link) in the roots, the roots' own included. */
export function gitEntries(
  scan: Pick<ScanResult, "nestedGitDirs" | "gitPointers">,
  roots: string[],
): string[] {
  const own = roots.map((r) => join(r, ".git")).filter((g) => entryKind(g) === "dir");
  return [...new Set([...own, ...scan.nestedGitDirs, ...scan.gitPointers])].sort();
}

export function planOnDisk(
  profile: SandboxProfile,
  tempDir: string,
  options: { stateDir?: string; scan?: ScanResult; visible?: readonly string[] } = {},
): DiskPlan {
  const state = sandboxStateDir(options.stateDir);
  const scan = options.scan ??
    scanWritableRoots(profile.writableRoots, profile.denyRead, new TreeIndexes(join(state, "index")));
  timingMark("plan:scan");
  const git = gitLayout(gitEntries(scan, profile.writableRoots), profile.writableRoots);
  timingMark("plan:git");
  // The whole state dir is hidden: its audit log holds every call's input, its quarantine what runs
  // left. Only a workspace inside it (a state dir of its own) keeps it visible, but for `sandbox/`.
  const whole = options.stateDir ?? defaultStateDir();
  const hidden = profile.writableRoots.some((root) => isInside(root, whole)) ? state : whole;
  const plan = planMounts(profile, { kind: entryKind }, scan, tempDir, {
    git,
    stateDir: hidden,
    ...(options.visible ? { visible: options.visible } : {}),
  });
  return { plan, scan, git };
}

/**
 * What a command must still see when it lies in a private temp dir (`PRIVATE_HOST_DIRS`): its working
 * directory, its home (read-only, its credential locations masked as anywhere), its PATH directories,
 * and the programs toolrt starts (given as absolute paths).
 */
export function visibleForCommand(
  cwd: string,
  env: { PATH?: string; HOME?: string },
  programs: readonly string[],
): string[] {
  const dirs = (env.PATH ?? "").split(":");
  return [cwd, env.HOME ?? "", ...dirs, ...programs].filter((p) => isAbsolute(p)).map((p) =>
    resolveReal(p) ?? p
  );
}
