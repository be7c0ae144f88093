import { describe, expect, test } from "bun:test";
import { bwrapArgs } from "../../src/sandbox/bwrap.ts";
import {
  collapseLinkMounts,
  type FsView,
  MAX_LINK_MOUNTS,
  type MountOp,
  planMounts,
} from "../../src/sandbox/mount-plan.ts";
import type { EntryKind } from "../../src/sandbox/paths.ts";
import type { SandboxProfile } from "../../src/sandbox/profile.ts";
import { type ScanResult, withLinkMounts } from "../../src/sandbox/scan.ts";
import { testProfile } from "./fixtures.ts";

const WS = "/w/my repo";
const TMP = "/t/run/tmp";

const profile = (over: Partial<SandboxProfile> = {}) => testProfile(WS, over);

const noScan: ScanResult = {
  linkedOutside: [],
  linkedOutsideDirs: [],
  aliasesOfDenied: [],
  nestedGitDirs: [],
  gitPointers: [],
  unreadable: [],
  entries: 0,
};

/** A fake disk: listed paths have the given kind, everything else is missing. */
function disk(entries: Record<string, EntryKind>): FsView {
  return { kind: (path) => entries[path] ?? "missing" };
}

const gitRepoEntries: Record<string, EntryKind> = {
  [WS]: "dir",
  [`${WS}/.git`]: "dir",
  [`${WS}/.git/hooks`]: "dir",
  [`${WS}/.git/config`]: "file",
  [`${WS}/.bashrc`]: "file",
  [`${WS}/.claude`]: "dir",
  [`${WS}/.claude/settings.json`]: "file",
};
const gitRepo = disk(gitRepoEntries);

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
  test("a missing protected path gets no mount and nothing on the host: it is watched instead", () => {
    const absent = plan.absent.map((a) => a.path);
    expect(absent).toContain(`${WS}/.zshrc`);
    expect(absent).toContain(`${WS}/.vscode`);
    expect(absent).toContain(`${WS}/.git/commondir`);
    expect(find(plan.mounts, `${WS}/.zshrc`)).toEqual([]);
  });
  test("a missing parent is not pinned; the whole protected path is watched", () => {
    const bare = planMounts(profile(), disk({ [WS]: "dir" }), noScan, TMP);
    expect(bare.absent.map((a) => a.path)).toContain(`${WS}/.claude/settings.json`);
    expect(find(bare.mounts, `${WS}/.claude`)).toEqual([]);
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
  test("hard-linked files beyond the mount budget collapse into their directories, and say so", () => {
    const objects = Array.from({ length: 1000 }, (_, i) => {
      const hex = i.toString(16).padStart(4, "0");
      return `${WS}/.git/objects/${hex.slice(0, 2)}/${hex.slice(2)}`;
    });
    const p = planMounts(profile(), gitRepo, { ...noScan, linkedOutside: [...objects, `${WS}/one`] }, TMP);
    const readOnly = p.mounts.filter((m) => m.op === "ro-bind");
    expect(readOnly.length).toBeLessThanOrEqual(MAX_LINK_MOUNTS + 10);
    for (const f of [...objects, `${WS}/one`]) {
      expect(readOnly.some((m) => f === m.path || f.startsWith(`${m.path}/`)), f).toBe(true);
    }
    expect(p.notices.map((n) => n.id)).toContain("link-mounts-collapsed");
    expect(p.notices.find((n) => n.id === "link-mounts-collapsed")!.remedy).toContain("git repack -a -d");
  });
  test("the same scan planned again with other read-only mounts gets the linked-file mounts those need", () => {
    // A watcher hands back one scan object while nothing changed; the plan must not reuse what it
    // derived from it under other mounts.
    const scan = { ...noScan, linkedOutside: [`${WS}/vendor/x.js`, `${WS}/one`] };
    const fs = disk({
      [WS]: "dir",
      [`${WS}/vendor`]: "dir",
      [`${WS}/vendor/x.js`]: "file",
      [`${WS}/one`]: "file",
    });
    const first = planMounts(profile(), fs, scan, TMP);
    expect(find(first.mounts, `${WS}/vendor/x.js`)).toEqual(["ro-bind"]);
    const covered = planMounts(profile({ denyWrite: [`${WS}/vendor`] }), fs, scan, TMP);
    expect(find(covered.mounts, `${WS}/vendor`)).toEqual(["ro-bind"]);
    expect(find(covered.mounts, `${WS}/vendor/x.js`)).toEqual([]); // covered by vendor's own mount
    expect(find(covered.mounts, `${WS}/one`)).toEqual(["ro-bind"]);
    expect(find(planMounts(profile(), fs, scan, TMP).mounts, `${WS}/vendor/x.js`)).toEqual(["ro-bind"]);
  });
  describe("a watcher's link mounts, made with its scan", () => {
    const objects = Array.from({ length: 300 }, (_, i) => {
      const hex = i.toString(16).padStart(4, "0");
      return `${WS}/.git/objects/${hex.slice(0, 2)}/${hex.slice(2)}`;
    });
    const linked = (...more: string[]) => [...objects, ...more].sort();
    const scans: Array<[string, ScanResult, Partial<SandboxProfile>]> = [
      ["objects only", { ...noScan, linkedOutside: linked() }, {}],
      ["one under a protected mount", { ...noScan, linkedOutside: linked(`${WS}/.git/hooks/x`) }, {}],
      [
        "one masked as a read-denied file's alias",
        { ...noScan, linkedOutside: linked(`${WS}/key-copy`), aliasesOfDenied: [`${WS}/key-copy`] },
        {},
      ],
      [
        "some in a directory all linked",
        { ...noScan, linkedOutside: linked(`${WS}/nm/pkg/a.js`), linkedOutsideDirs: [`${WS}/nm/pkg`] },
        {},
      ],
      ["some under denyWrite", { ...noScan, linkedOutside: linked(`${WS}/vendor/x.js`) }, {
        denyWrite: [`${WS}/vendor`],
      }],
    ];
    test.each(scans)("%s: the same plan as collapsing in the plan", (_, scan, over) => {
      const fs = disk({ ...gitRepoEntries, [`${WS}/vendor`]: "dir" });
      expect(planMounts(profile(over), fs, withLinkMounts(scan, [WS]), TMP)).toEqual(
        planMounts(profile(over), fs, { ...scan }, TMP),
      );
    });
    test("taken as is when nothing else covers those files; not when a mount does", () => {
      const given = { files: [`${WS}/given`], dirs: [] };
      const plain = planMounts(
        profile(),
        gitRepo,
        { ...noScan, linkedOutside: linked(), linkMounts: given },
        TMP,
      );
      expect(find(plain.mounts, `${WS}/given`)).toEqual(["ro-bind"]);
      const covered = planMounts(profile(), gitRepo, {
        ...noScan,
        linkedOutside: linked(`${WS}/.git/hooks/x`),
        linkMounts: given,
      }, TMP);
      expect(find(covered.mounts, `${WS}/given`)).toEqual([]);
      expect(find(covered.mounts, `${WS}/.git/objects/00`)).toEqual(["ro-bind"]);
    });
  });
  test("a budget's worth of linked files keeps a mount each", () => {
    const files = Array.from({ length: MAX_LINK_MOUNTS }, (_, i) => `${WS}/d${i % 3}/f${i}`);
    expect(collapseLinkMounts(files, [WS])).toEqual({ files, dirs: [] });
  });
  test("a directory that could not be read is read-only, and reported", () => {
    const p = planMounts(
      profile(),
      gitRepo,
      { ...noScan, unreadable: [`${WS}/locked`, "/home/u/.ssh/x"] },
      TMP,
    );
    expect(find(p.mounts, `${WS}/locked`)).toEqual(["ro-bind"]);
    expect(p.notices.map((n) => [n.id, n.path])).toEqual([
      ["unreadable-dir", `${WS}/locked`],
      ["unreadable-denied-dir", "/home/u/.ssh/x"],
    ]);
  });
  test("git directories and pointers from the layout are protected; a .git link is not mounted", () => {
    const p = planMounts(
      profile(),
      disk({ [WS]: "dir", [`${WS}/.git`]: "file", [`${WS}/gd`]: "dir", [`${WS}/gd/config`]: "file" }),
      noScan,
      TMP,
      {
        git: {
          gitDirs: [`${WS}/gd`, "/elsewhere/.git"],
          pointers: [{ path: `${WS}/.git`, kind: "file", value: "gitdir: gd" }],
          includes: [],
        },
      },
    );
    expect(find(p.mounts, `${WS}/.git`)).toEqual(["ro-bind"]);
    expect(find(p.mounts, `${WS}/gd/config`)).toEqual(["ro-bind"]);
    expect(p.absent.map((a) => a.path)).toContain(`${WS}/gd/commondir`);
    expect(p.mounts.some((m) => m.path.startsWith("/elsewhere"))).toBe(false);
  });
  test("files a repository's config includes are protected like its config: read-only, or watched when missing", () => {
    const p = planMounts(
      profile(),
      disk({ [WS]: "dir", [`${WS}/.git`]: "dir", [`${WS}/tools`]: "dir", [`${WS}/tools/git.conf`]: "file" }),
      noScan,
      TMP,
      {
        git: {
          gitDirs: [`${WS}/.git`],
          pointers: [],
          includes: [`${WS}/tools/git.conf`, `${WS}/later.conf`, "/home/u/shared.conf"],
        },
      },
    );
    expect(find(p.mounts, `${WS}/tools/git.conf`)).toEqual(["ro-bind"]);
    expect(find(p.mounts, `${WS}/tools`)).toEqual(["bind"]); // pinned: not renamed away with it
    expect(p.absent.map((a) => a.path)).toContain(`${WS}/later.conf`);
    expect(p.mounts.some((m) => m.path.startsWith("/home"))).toBe(false);
  });
  test("the sandbox's own state is hidden in the sandbox, also when a writable root holds it", () => {
    const elsewhere = planMounts(
      profile(),
      disk({ [WS]: "dir", "/home/u/.state/sandbox": "dir" }),
      noScan,
      TMP,
      {
        stateDir: "/home/u/.state/sandbox",
      },
    );
    expect(find(elsewhere.mounts, "/home/u/.state/sandbox")).toEqual(["mask-dir"]);
    const inside = planMounts(
      profile(),
      disk({ [WS]: "dir", [`${WS}/state`]: "dir", [`${WS}/state/sandbox`]: "dir" }),
      noScan,
      TMP,
      { stateDir: `${WS}/state/sandbox` },
    );
    expect(find(inside.mounts, `${WS}/state/sandbox`)).toEqual(["mask-dir"]);
    expect(find(inside.mounts, `${WS}/state`)).toEqual(["bind"]); // pinned: cannot be renamed away
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
    expect(p.absent.map((a) => a.path)).toContain(`${WS}/vendor/lib/.git/hooks`);
    expect(find(p.mounts, `${WS}/vendor/lib`)).toEqual(["bind"]);
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

describe("private /tmp and /var/tmp (privateTmp)", () => {
  const TWS = "/tmp/ws";
  const fs = disk({
    "/tmp": "dir",
    "/var/tmp": "dir",
    [TWS]: "dir",
    [`${TWS}/.bashrc`]: "file",
    "/tmp/tools/bin": "dir",
    "/tmp/ws/sub": "dir",
    "/home/u/bin": "dir",
  });
  const visible = ["/tmp/tools/bin", "/tmp/ws/sub", "/home/u/bin", "/tmp", "/tmp/gone"];
  const plan = planMounts(testProfile(TWS, { privateTmp: true }), fs, noScan, "/tmp/toolrt-sbx-0/run/tmp", {
    visible,
  });
  test("off by default: the host's stay as they are (read-only under /), nothing is shown back", () => {
    const p = planMounts(testProfile(TWS), fs, noScan, "/tmp/toolrt-sbx-0/run/tmp", { visible });
    expect(p.mounts.filter((m) => m.op === "private-tmp" || m.op === "show")).toEqual([]);
    expect(p.mounts[0]).toEqual({ op: "bind", path: TWS, why: "writable root" });
  });
  test("each becomes an empty tmpfs before anything is bound, then the workspace comes back", () => {
    expect(plan.mounts.slice(0, 3).map((m) => [m.op, m.path])).toEqual([
      ["private-tmp", "/tmp"],
      ["private-tmp", "/var/tmp"],
      ["bind", TWS],
    ]);
    expect(find(plan.mounts, `${TWS}/.bashrc`)).toEqual(["ro-bind"]);
  });
  test("what the command needs in them comes back read-only, nothing else and not the whole dir", () => {
    expect(plan.mounts.filter((m) => m.op === "show").map((m) => m.path)).toEqual(["/tmp/tools/bin"]);
  });
  test("a writable root that holds one keeps it as it is", () => {
    const p = planMounts(
      testProfile("/var", { privateTmp: true }),
      disk({ "/tmp": "dir", "/var/tmp": "dir", "/var": "dir" }),
      noScan,
      TMP,
    );
    expect(p.mounts.filter((m) => m.op === "private-tmp").map((m) => m.path)).toEqual(["/tmp"]);
  });
  test("bwrap gets a tmpfs for each before the binds, made read-only after everything", () => {
    const args = bwrapArgs(plan, {
      bwrapPath: "bwrap",
      cwd: TWS,
      seccompFd: 3,
      mountFds: plan.mounts.map((_, i) => 10 + i),
      privateTmp: { path: "/tmp/toolrt-sbx-0/run/tmp", sizeBytes: 1024 },
    }).join(" ");
    expect(args).toContain("--perms 1777 --tmpfs /tmp --perms 1777 --tmpfs /var/tmp --bind-fd");
    expect(args).toContain(
      "--tmpfs /tmp/toolrt-sbx-0/run/tmp --remount-ro /tmp --remount-ro /var/tmp --seccomp",
    );
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
    seccompFd: 3,
    mountFds: plan.mounts.map((_, i) => 10 + i),
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
    expect(joined.indexOf("--ro-bind / /")).toBeLessThan(joined.indexOf(`--bind-fd 10 ${WS}`));
    expect(joined).toContain("--dev /dev --proc /proc");
  });
  test("binds take their source by descriptor; a masked directory is a read-only tmpfs, nothing of the host's", () => {
    plan.mounts.forEach((m, i) => {
      if (m.op === "bind") expect(joined).toContain(`--bind-fd ${10 + i} ${m.path}`);
      if (m.op === "ro-bind") expect(joined).toContain(`--ro-bind-fd ${10 + i} ${m.path}`);
    });
    expect(joined).toContain("--tmpfs /home/u/.ssh --remount-ro /home/u/.ssh");
  });
  test("a masked file is an empty copy from a descriptor", () => {
    const masked = planMounts(
      profile({ denyRead: ["/etc/shadow"] }),
      disk({ [WS]: "dir", "/etc/shadow": "file" }),
      noScan,
      TMP,
    );
    const at = masked.mounts.findIndex((m) => m.path === "/etc/shadow");
    const a = bwrapArgs(masked, {
      bwrapPath: "bwrap",
      cwd: WS,
      seccompFd: 3,
      mountFds: masked.mounts.map((_, i) => i + 4),
    });
    expect(a.join(" ")).toContain(`--ro-bind-data ${at + 4} /etc/shadow`);
  });
  test("paths with spaces stay single arguments", () => {
    const at = args.indexOf(WS);
    expect(at).toBeGreaterThan(0);
    expect(args[at - 2]).toBe("--bind-fd");
  });
  test("ends with the seccomp descriptor, the working directory and --", () => {
    expect(args.slice(-5)).toEqual(["--seccomp", "3", "--chdir", WS, "--"]);
  });
});
