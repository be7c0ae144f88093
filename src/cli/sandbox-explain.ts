/**
 * `toolrt sandbox --explain`: what the sandbox would protect in this workspace and how, and every
 * protection it cannot give as asked, with what the user can do. Reads the disk as a run would
 * (the same plan), runs nothing. As root it tries the private device nodes a run would make, in a
 * temp dir (or the state dir, as a run would), and removes them.
 */
import { rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DevNodesError, devNodesForRun } from "../sandbox/dev-nodes.ts";
import { planOnDisk, sandboxStateDir } from "../sandbox/linux-plan.ts";
import { PRIVATE_HOST_DIRS } from "../sandbox/mount-plan.ts";
import type { SandboxProfile } from "../sandbox/profile.ts";
import type { Revalidation } from "../sandbox/tree-watch.ts";
import { WatchClient } from "../sandbox/watch-service.ts";
import { addStubs, planProgramMasks, type ProgramMask } from "../sandbox/program-masks.ts";
import { makeRunDir } from "../sandbox/run-dir.ts";
import { sandboxUser } from "../sandbox/run-as.ts";
import { isInside } from "../tool/paths.ts";

/** Prints the explanation; 0, or 2 when the sandbox would refuse this profile. */
export async function explainSandbox(
  profile: SandboxProfile,
  masks: readonly ProgramMask[] = [],
  command?: string,
  stateDir?: string,
): Promise<number> {
  // Asks the workspace's change watcher as a run would, but starts none.
  const trees = { roots: profile.writableRoots, denyRead: profile.denyRead };
  const scanned = await new WatchClient(sandboxStateDir(stateDir), trees, { start: false })
    .scan(trees.roots, trees.denyRead);
  const { plan, scan, git } = planOnDisk(profile, join(tmpdir(), "toolrt-sbx-XXXXXX", "tmp"), {
    scan: scanned.scan,
    ...(stateDir ? { stateDir } : {}),
  });
  const programs = planProgramMasks(masks, {
    pathEnv: process.env.PATH ?? "",
    exempt: command === undefined ? [] : [command],
    hidden: profile.denyRead,
  });
  addStubs(plan, programs);
  const stubs = plan.mounts.filter((m) => m.op === "stub");
  const readOnly = plan.mounts.filter((m) => m.op === "ro-bind");
  const out: string[] = [
    `writable: ${profile.writableRoots.join(", ")} and a private temp dir; everything else read-only`,
    sharedTempLine(plan.mounts.filter((m) => m.op === "private-tmp").map((m) => m.path)),
    `indexed: ${scan.entries} directories; ${revalidationLine(scanned.revalidation)}`,
    `git directories (their hooks, config, config.worktree and commondir are read-only): ${git.gitDirs.length}`,
    ...git.gitDirs.map((d) =>
      `  ${d}${profile.writableRoots.some((r) => isInside(d, r)) ? "" : " (outside the writable roots)"}`
    ),
    `read-only inside the writable roots: ${readOnly.length}`,
    ...readOnly.map((m) => `  ${m.path} (${m.why})`),
    `masked (unreadable): ${plan.mounts.filter((m) => m.op.startsWith("mask")).length}`,
    `missing protected paths, moved to quarantine after a run if the command creates them: ${plan.absent.length}`,
    `programs kept from starting unless the command line names them (deny and ask rules naming a bare ` +
    `program, --mask-program): ${masks.length === 0 ? "none" : masks.map((m) => m.program).join(", ")}`,
    ...stubs.map((m) => `  ${m.path} (${m.why})`),
    ...programs.notices.map((n) => `  ${n}`),
  ];
  const refusals = [...plan.refusals];
  const devices = await deviceNodes(profile, stateDir);
  if ("refusal" in devices) refusals.push(devices.refusal);
  else out.push(devices.line);
  if (plan.notices.length === 0) out.push("every protection is given as asked");
  for (const n of plan.notices) out.push(`not as asked [${n.id}]: ${n.message}`, `  what to do: ${n.remedy}`);
  for (const r of refusals) out.push(`refused: ${r}`);
  process.stdout.write(`${out.join("\n")}\n`);
  return refusals.length ? 2 : 0;
}

/** Whose /dev/null the command gets; as the host's uid 0, whether private nodes can be made here (tried). */
async function deviceNodes(
  profile: SandboxProfile,
  stateDir: string | undefined,
): Promise<{ line: string } | { refusal: string }> {
  if (process.getuid?.() !== 0 || sandboxUser(profile) !== null) {
    return {
      line:
        "device nodes: the host's /dev/null, zero, full, random, urandom, tty (the command does not own them)",
    };
  }
  const cleanups: Array<() => void | Promise<void>> = [];
  const runDir = makeRunDir();
  try {
    const { place } = devNodesForRun(runDir, sandboxStateDir(stateDir), cleanups);
    if (place === "none") {
      return {
        line:
          "device nodes: the host's; the command runs as uid 0 but they belong to another uid here (as in a rootless container)",
      };
    }
    return {
      line: "device nodes: the command runs as the host's uid 0, so /dev/null, zero, full, random, urandom " +
        `and tty are private nodes made for each run, in the ${place} (a chmod inside leaves the host's alone)`,
    };
  } catch (error) {
    if (error instanceof DevNodesError) return { refusal: error.message };
    throw error;
  } finally {
    for (const fn of cleanups.reverse()) await fn();
    rmSync(runDir, { recursive: true, force: true });
  }
}

/** Whether the command sees the host's /tmp and /var/tmp, or empty ones of its own (`privateTmp`). */
function sharedTempLine(privateDirs: readonly string[]): string {
  if (privateDirs.length > 0) {
    return `shared temp dirs: ${
      privateDirs.join(", ")
    } replaced by empty, read-only ones of the sandbox's own (privateTmp)`;
  }
  return `shared temp dirs: ${PRIVATE_HOST_DIRS.join(", ")} are the host's, visible read-only ` +
    "(--private-tmp or sandbox privateTmp: empty ones of the sandbox's own)";
}

function revalidationLine(r: Revalidation): string {
  return r.mode === "events"
    ? "revalidated by the change watcher: only what changed since the last run is looked at"
    : `revalidated in full (one lstat per directory, before and after a run): ${r.reason}`;
}
