import { describe, expect, test } from "bun:test";
import { bwrapArgs } from "../../src/sandbox/bwrap.ts";
import { type FsView, type MountOp, planMounts } from "../../src/sandbox/mount-plan.ts";
import type { EntryKind } from "../../src/sandbox/paths.ts";
import type { SandboxProfile } from "../../src/sandbox/profile.ts";
import type { ScanResult } from "../../src/sandbox/scan.ts";
import { testProfile } from "./fixtures.ts";

const WS = "/w/my repo";
const TMP = "/t/run/tmp";

const profile = (over: Partial<SandboxProfile> = {}) => testProfile(WS, over);

const noScan: ScanResult = {
  linkedOutside: [],
  linkedOutsideDirs: [],
  aliasesOfDenied: [],
  nestedGitDirs: [],
  entries: 0,
};

/** A fake disk: listed paths have the given kind, everything else is missing. */
function disk(entries: Record<string, EntryKind>): FsView {
  return { kind: (path) => entries[path] ?? "missing" };
}

const gitRepo = disk({
  [WS]: "dir",
  [`${WS}/.git`]: "dir",
  [`${WS}/.git/hooks`]: "dir",
  [`${WS}/.git/config`]: "file",
  [`${WS}/.bashrc`]: "file",
  [`${WS}/.claude`]: "dir",
  [`${WS}/.claude/settings.json`]: "file",
});

const find = (mounts: MountOp[], path: string) => mounts.filter((m) => m.path === path).map((m) => m.op);

describe("planMounts", () => {
  const plan = planMounts(profile(), gitRepo, noScan, TMP);

  test("the workspace and the private temp dir are writable, first", () => {
    expect(plan.mounts.slice(0, 2)).toEqual([
      { op: "bind", path: WS, why: "writable root" },
      { op: "bind", path: TMP, why: "private temp dir" },
    ]);
  });
  test("existing protected paths are bound read-only onto themselves", () => {
    for (const p of [".git/hooks", ".git/config", ".bashrc", ".claude/settings.json"]) {
      expect(find(plan.mounts, `${WS}/${p}`), p).toEqual(["ro-bind"]);
    }
  });
  test("parents of protected paths are pinned so they cannot be renamed away", () => {
    expect(find(plan.mounts, `${WS}/.git`)).toEqual(["bind"]);
    expect(find(plan.mounts, `${WS}/.claude`)).toEqual(["bind"]);
  });
  test("a missing protected file becomes a file placeholder, a missing directory a directory", () => {
    expect(plan.placeholders).toContainEqual({ path: `${WS}/.zshrc`, kind: "file" });
    expect(plan.placeholders).toContainEqual({ path: `${WS}/.vscode`, kind: "dir" });
    expect(find(plan.mounts, `${WS}/.zshrc`)).toEqual(["ro-bind"]);
  });
  test("a missing parent is the placeholder (a directory), not the leaf", () => {
    const bare = planMounts(profile(), disk({ [WS]: "dir" }), noScan, TMP);
    expect(bare.placeholders).toContainEqual({ path: `${WS}/.claude`, kind: "dir" });
    expect(bare.placeholders.some((p) => p.path.startsWith(`${WS}/.claude/`))).toBe(false);
  });
  test("without a .git directory, git entries are left alone (git init keeps working)", () => {
    const bare = planMounts(profile(), disk({ [WS]: "dir" }), noScan, TMP);
    expect(bare.mounts.some((m) => m.path.endsWith("/.git") || m.path.includes("/.git/"))).toBe(false);
    const worktree = planMounts(profile(), disk({ [WS]: "dir", [`${WS}/.git`]: "file" }), noScan, TMP);
    expect(worktree.mounts.some((m) => m.path.includes(".git/"))).toBe(false);
  });
  test("a symlink on the way to a protected path is a refusal that names it", () => {
    const linked = planMounts(profile(), disk({ [WS]: "dir", [`${WS}/.claude`]: "symlink" }), noScan, TMP);
    expect(linked.refusals.join("\n")).toContain(`${WS}/.claude is a symbolic link`);
  });
  test("profile problems are refusals", () => {
    expect(planMounts(profile({ problems: ["loop"] }), gitRepo, noScan, TMP).refusals).toContain("loop");
  });
  test("denyRead masks directories and files; a denied dir inside the workspace pins its parents", () => {
    const p = planMounts(
      profile({ denyRead: ["/home/u/.ssh", "/etc/shadow", `${WS}/secrets/keys`, "/absent"] }),
      disk({
        ...{ [WS]: "dir" },
        "/home/u/.ssh": "dir",
        "/etc/shadow": "file",
        [`${WS}/secrets/keys`]: "dir",
      }),
      noScan,
      TMP,
    );
    expect(find(p.mounts, "/home/u/.ssh")).toEqual(["mask-dir"]);
    expect(find(p.mounts, "/etc/shadow")).toEqual(["mask-file"]);
    expect(find(p.mounts, `${WS}/secrets/keys`)).toEqual(["mask-dir"]);
    expect(find(p.mounts, `${WS}/secrets`)).toEqual(["bind"]);
    expect(find(p.mounts, "/absent")).toEqual([]);
  });
  test("hard links to outside files go read-only; links to read-denied files are masked", () => {
    const p = planMounts(profile(), gitRepo, {
      ...noScan,
      linkedOutside: [`${WS}/prelinked`, `${WS}/key-copy`, `${WS}/.git/hooks/x`],
      aliasesOfDenied: [`${WS}/key-copy`],
    }, TMP);
    expect(find(p.mounts, `${WS}/prelinked`)).toEqual(["ro-bind"]);
    expect(find(p.mounts, `${WS}/key-copy`)).toEqual(["mask-file"]);
    expect(find(p.mounts, `${WS}/.git/hooks/x`)).toEqual([]); // already under a read-only mount
  });
  test("a directory whose files are all linked outside is one read-only mount, not one per file", () => {
    const p = planMounts(profile(), gitRepo, {
      ...noScan,
      linkedOutside: [`${WS}/nm/pkg/a.js`, `${WS}/nm/pkg/lib/b.js`, `${WS}/own-link`],
      linkedOutsideDirs: [`${WS}/nm/pkg`],
    }, TMP);
    expect(find(p.mounts, `${WS}/nm/pkg`)).toEqual(["ro-bind"]);
    expect(find(p.mounts, `${WS}/nm/pkg/a.js`)).toEqual([]);
    expect(find(p.mounts, `${WS}/nm/pkg/lib/b.js`)).toEqual([]);
    expect(find(p.mounts, `${WS}/own-link`)).toEqual(["ro-bind"]);
  });
  test("nested repositories get their hooks and config protected", () => {
    const p = planMounts(
      profile(),
      disk({
        [WS]: "dir",
        [`${WS}/vendor`]: "dir",
        [`${WS}/vendor/lib/.git`]: "dir",
        [`${WS}/vendor/lib`]: "dir",
      }),
      { ...noScan, nestedGitDirs: [`${WS}/vendor/lib/.git`] },
      TMP,
    );
    expect(p.placeholders).toContainEqual({ path: `${WS}/vendor/lib/.git/hooks`, kind: "dir" });
    expect(find(p.mounts, `${WS}/vendor/lib/.git`)).toEqual(["bind"]);
  });
  test("denyWrite inside the workspace is protected; outside it is already read-only", () => {
    const p = planMounts(
      profile({ denyWrite: [`${WS}/dist`, "/opt/x"] }),
      disk({ [WS]: "dir", [`${WS}/dist`]: "dir" }),
      noScan,
      TMP,
    );
    expect(find(p.mounts, `${WS}/dist`)).toEqual(["ro-bind"]);
    expect(find(p.mounts, "/opt/x")).toEqual([]);
  });
  test("every mount comes after its parents, and no bind sits below a read-only mount", () => {
    plan.mounts.forEach((m, i) => {
      for (const later of plan.mounts.slice(i + 1)) {
        expect(m.path.startsWith(`${later.path}/`) && later.op !== "bind", `${m.path} before ${later.path}`)
          .toBe(false);
      }
    });
  });
});

describe("bwrapArgs", () => {
  const plan = planMounts(
    profile({ denyRead: ["/home/u/.ssh"] }),
    disk({ ...{ [WS]: "dir" }, "/home/u/.ssh": "dir" }),
    noScan,
    TMP,
  );
  const args = bwrapArgs(plan, {
    bwrapPath: "/usr/bin/bwrap",
    cwd: WS,
    emptyFile: "/t/run/empty",
    emptyDir: "/t/run/empty.d",
    seccompFd: 3,
  });
  const joined = args.join(" ");
  test("isolates: namespaces, no capabilities, no nested user namespaces, dies with the parent", () => {
    for (
      const flag of [
        "--unshare-user",
        "--unshare-pid",
        "--unshare-net",
        "--unshare-ipc",
        "--new-session",
        "--die-with-parent",
        "--disable-userns",
      ]
    ) {
      expect(args).toContain(flag);
    }
    expect(joined).toContain("--cap-drop ALL");
  });
  test("read-only root first, then fresh /dev and /proc, then the plan in order", () => {
    expect(joined).toStartWith("/usr/bin/bwrap");
    expect(joined.indexOf("--ro-bind / /")).toBeLessThan(joined.indexOf(`--bind ${WS} ${WS}`));
    expect(joined).toContain("--dev /dev --proc /proc");
    expect(joined).toContain("--ro-bind /t/run/empty.d /home/u/.ssh");
  });
  test("paths with spaces stay single arguments", () => {
    const at = args.indexOf(`${WS}/.bashrc`);
    expect(at).toBeGreaterThan(0);
    expect(args[at - 1]).toBe("--ro-bind");
    expect(args[at + 1]).toBe(`${WS}/.bashrc`);
  });
  test("ends with the seccomp descriptor, the working directory and --", () => {
    expect(args.slice(-5)).toEqual(["--seccomp", "3", "--chdir", WS, "--"]);
  });
});
