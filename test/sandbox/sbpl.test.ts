/**
 * The macOS profile, judged by what it lets a command do: each case is an operation on the path
 * Seatbelt would see, decided by the model in seatbelt-model.ts (last matching rule wins). The same
 * cases run on a real Mac in scripts/macos-probe.sh.
 */
import { describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, realpathSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { entryKind } from "../../src/sandbox/paths.ts";
import { buildSandboxProfile, type SandboxSettings } from "../../src/sandbox/profile.ts";
import { anyCaseComponent, buildSbpl, seatbeltPath, type SeatbeltRun } from "../../src/sandbox/sbpl.ts";
import { checkSbpl } from "../../src/sandbox/sbpl-check.ts";
import type { EntryKind } from "../../src/sandbox/paths.ts";
import { decide, macDisk } from "./seatbelt-model.ts";

const WS = "/private/tmp/app";
const HOME = "/Users/u";
const TMP = "/private/var/folders/zz/abc/T/toolrt-sbx-1/tmp";
const noScan = { nestedGitDirs: [], linkedOutside: [], linkedOutsideDirs: [], aliasesOfDenied: [] };

/** A git workspace at /tmp/app (a link to /private/tmp/app, as on every Mac). */
const disk: Record<string, EntryKind> = {
  [WS]: "dir",
  [`${WS}/.git`]: "dir",
  [`${WS}/.git/hooks`]: "dir",
  [`${WS}/.git/config`]: "file",
  [`${WS}/.claude`]: "dir",
  [`${WS}/.env`]: "file",
  [`${WS}/src`]: "dir",
  [`${WS}/nest/.git/hooks`]: "dir",
  [`${WS}/nest/.git/config`]: "file",
  [`${WS}/node_modules/pkg/index.js`]: "file",
};

function macProfile(
  settings: SandboxSettings = {},
  run: Partial<SeatbeltRun> = {},
  entries: Record<string, EntryKind> = disk,
  workspace = "/tmp/app",
  links: Record<string, string> = {},
) {
  const mac = macDisk(entries, links);
  const profile = buildSandboxProfile(settings, workspace, { home: HOME, realPath: mac.realPath });
  return buildSbpl(profile, {
    tempDir: TMP,
    proxyPorts: [],
    sessionTty: null,
    tag: "toolrt-0123456789ab",
    fs: mac.fs,
    scan: { ...noScan, nestedGitDirs: [`${WS}/nest/.git`] },
    ...run,
  });
}

const sbpl = macProfile({ denyRead: [".env", "~/.ssh"] }, { sessionTty: "/dev/ttys004" });

describe("the macOS profile is well formed and names real paths only", () => {
  test("sandbox-exec would accept it: balanced, known operations, strings short, params defined", () => {
    expect(checkSbpl(sbpl.text, sbpl.params.map(([n]) => n))).toEqual([]);
    expect(sbpl.problems).toEqual([]);
  });

  test("symlinked /tmp and /var become /private/...: the workspace given as /tmp/app, $TMPDIR under /var", () => {
    const params = Object.fromEntries(sbpl.params);
    expect(params.WRITABLE_ROOT_0).toBe("/private/tmp/app");
    expect(params.TEMP_DIR).toBe(TMP);
    expect(Object.values(params).filter((p) => /^\/(tmp|var|etc)\//.test(p))).toEqual([]);
    const unresolvedTemp = macProfile({}, { tempDir: "/var/folders/zz/abc/T/toolrt-sbx-1/tmp" });
    expect(decide(unresolvedTemp, "file-write-create", `${TMP}/out.txt`)).toBe("allow");
  });

  test("a workspace reached through a user's own symlink is written where the writes land", () => {
    const linked = macProfile({}, { scan: noScan }, { "/Users/u/real/app": "dir" }, "/Users/u/link/app", {
      "/Users/u/link": "/Users/u/real",
    });
    expect(decide(linked, "file-write-create", "/Users/u/real/app/x")).toBe("allow");
    expect(decide(linked, "file-write-create", "/Users/u/link/app/x")).toBe("deny");
  });

  test("on this machine's disk: a workspace given through a real symlink is its target", () => {
    const base = realpathSync(mkdtempSync(join(tmpdir(), "toolrt-sbpl-")));
    mkdirSync(join(base, "real"));
    symlinkSync(join(base, "real"), join(base, "link"));
    const profile = buildSandboxProfile({}, join(base, "link"));
    const built = buildSbpl(profile, {
      tempDir: base,
      proxyPorts: [],
      sessionTty: null,
      tag: "t",
      fs: { kind: entryKind },
      scan: noScan,
    });
    expect(Object.fromEntries(built.params).WRITABLE_ROOT_0).toBe(seatbeltPath(join(base, "real")));
  });
});

/** [what a command does, operation, path Seatbelt sees, expected]. */
type Case = [string, string, string, "allow" | "deny"];

const cases: Case[] = [
  // everyday work
  ["write a source file", "file-write-create", `${WS}/src/a.ts`, "allow"],
  ["write in $TMPDIR", "file-write-data", `${TMP}/x`, "allow"],
  ["git commit: objects, refs, index", "file-write-create", `${WS}/.git/objects/ab/cdef`, "allow"],
  ["git commit: the index", "file-write-data", `${WS}/.git/index`, "allow"],
  ["git init in a subdirectory (a new repository)", "file-write-create", `${WS}/sub/.git/config`, "allow"],
  ["echo > /dev/stdout", "file-write-data", "/dev/fd/1", "allow"],
  ["echo > /dev/stderr (the link itself)", "file-write-data", "/dev/stderr", "allow"],
  ["write /dev/fd/3", "file-write-data", "/dev/fd/3", "allow"],
  ["openpty: /dev/ptmx", "file-write-data", "/dev/ptmx", "allow"],
  ["ioctl on the inherited terminal (isatty)", "file-ioctl", "/dev/ttys009", "allow"],
  ["reopen the session's own terminal", "file-write-data", "/dev/ttys004", "allow"],
  ["write /dev/null", "file-write-data", "/dev/null", "allow"],
  ["os.cpus(): machdep.cpu.brand_string", "sysctl-read", "machdep.cpu.brand_string", "allow"],
  ["os.cpus(): hw.ncpu", "sysctl-read", "hw.ncpu", "allow"],
  ["ps -p: one process's kinfo_proc", "sysctl-read", "kern.proc.pid.123", "allow"],
  ["getpwuid", "mach-lookup", "com.apple.system.opendirectoryd.libinfo", "allow"],
  ["hard-link a workspace file", "file-link", `${WS}/src/a.ts`, "allow"],
  // escapes
  ["write a git hook", "file-write-create", `${WS}/.git/hooks/pre-commit`, "deny"],
  ["rename over .git/config in another case", "file-write-create", `${WS}/.git/CONFIG`, "deny"],
  ["rename .git away (mv .git g)", "file-write-unlink", `${WS}/.git`, "deny"],
  ["rename .git away, spelled .GIT", "file-write-unlink", `${WS}/.GIT`, "deny"],
  ["rename the workspace itself away", "file-write-unlink", WS, "deny"],
  ["rename .claude away", "file-write-unlink", `${WS}/.claude`, "deny"],
  ["create .claude/settings.json", "file-write-create", `${WS}/.claude/settings.json`, "deny"],
  ["create .claude/SETTINGS.JSON", "file-write-create", `${WS}/.claude/SETTINGS.JSON`, "deny"],
  ["mkdir .toolrt", "file-write-create", `${WS}/.toolrt`, "deny"],
  ["mkdir .TOOLRT (case variant of a missing entry)", "file-write-create", `${WS}/.TOOLRT`, "deny"],
  ["rename a prepared dir to .vscode", "file-write-create", `${WS}/.vscode`, "deny"],
  ["create .BashRC", "file-write-create", `${WS}/.BashRC`, "deny"],
  ["write a nested repository's hook", "file-write-create", `${WS}/nest/.git/hooks/post-checkout`, "deny"],
  ["rename the nested repository away", "file-write-unlink", `${WS}/nest`, "deny"],
  ["hard-link .git/config to write through the link", "file-link", `${WS}/.git/config`, "deny"],
  ["read the denyRead .env", "file-read-data", `${WS}/.env`, "deny"],
  ["rename the denyRead .env to read it", "file-write-unlink", `${WS}/.env`, "deny"],
  ["hard-link the denyRead .env", "file-link", `${WS}/.env`, "deny"],
  ["clone the denyRead .env", "file-clone", `${WS}/.env`, "deny"],
  ["read ~/.ssh", "file-read-data", `${HOME}/.ssh/id_ed25519`, "deny"],
  ["hard-link a file from outside into the workspace", "file-link", `${HOME}/.zshrc`, "deny"],
  ["write outside the workspace", "file-write-data", `${HOME}/.zshrc`, "deny"],
  ["write the host's /tmp", "file-write-create", "/private/tmp/x", "deny"],
  ["open another terminal", "file-read-data", "/dev/ttys001", "deny"],
  ["write another terminal", "file-write-data", "/dev/ttys001", "deny"],
  ["ps -E: other processes' environment", "sysctl-read", "kern.procargs2", "deny"],
  ["keychain", "mach-lookup", "com.apple.SecurityServer", "deny"],
  ["keychain (xpc)", "mach-lookup", "com.apple.securityd.xpc", "deny"],
  ["clipboard", "mach-lookup", "com.apple.pasteboard.1", "deny"],
  ["window server", "mach-lookup", "com.apple.windowserver.active", "deny"],
  ["open(1) an application", "mach-lookup", "com.apple.coreservices.launchservicesd", "deny"],
  ["DNS", "mach-lookup", "com.apple.mDNSResponder", "deny"],
  ["connect to a local service", "network-outbound", "localhost:5432", "deny"],
  ["listen on localhost", "network-bind", "localhost:8080", "deny"],
  ["any IOKit client", "iokit-open", "IOHIDSystem", "deny"],
];

describe("what a command may and may not do (Seatbelt model)", () => {
  test.each(cases)("%s: %s %s -> %s", (_what, operation, path, expected) => {
    expect(decide(sbpl, operation, path)).toBe(expected);
  });

  test("a pty made inside (it carries the sandbox's pty extension) can be opened", () => {
    expect(decide(sbpl, "file-read-data", "/dev/ttys012", { extensions: ["com.apple.sandbox.pty"] })).toBe(
      "allow",
    );
  });
});

describe("git init, nested repositories and the case-insensitive disk", () => {
  const noRepo = macProfile({}, {}, { [WS]: "dir", [`${WS}/src`]: "dir" });
  test("a workspace without .git: git init at its root may create .git, its config and hooks", () => {
    for (const path of [`${WS}/.git`, `${WS}/.git/config`, `${WS}/.git/hooks/pre-commit.sample`]) {
      expect(decide(noRepo, "file-write-create", path), path).toBe("allow");
    }
  });

  test("re-initialising an existing repository writes its protected config: refused, as on Linux", () => {
    expect(decide(sbpl, "file-write-data", `${WS}/.git/config`)).toBe("deny");
  });

  test("a protected path under a file in its way: the file cannot be swapped for a directory", () => {
    const blocked = macProfile({}, {}, { ...disk, [`${WS}/.claude`]: "file" });
    expect(decide(blocked, "file-write-unlink", `${WS}/.claude`)).toBe("deny");
  });

  test("a symlink on the way to a protected path is a refusal, as on Linux", () => {
    const linked = macProfile({}, {}, { ...disk, [`${WS}/.claude`]: "symlink" });
    expect(linked.problems.join("\n")).toContain(`${WS}/.claude is a symbolic link inside the writable root`);
  });

  test("any letter case and Unicode normalization of a name", () => {
    const regex = new RegExp(`^${anyCaseComponent("Ünï.md")}$`);
    for (const name of ["Ünï.md", "ünÏ.MD", "U\u0308ni\u0308.md"]) expect(regex.test(name), name).toBe(true);
    expect(regex.test("UnixmD")).toBe(false);
  });
});

describe("denyWrite, hard links and allow-listed caches", () => {
  test("denyWrite inside the workspace: read-only, not renamable, in any case", () => {
    const guarded = macProfile({ denyWrite: ["dist"] }, {}, { ...disk, [`${WS}/dist`]: "dir" });
    expect(decide(guarded, "file-write-create", `${WS}/dist/a.js`)).toBe("deny");
    expect(decide(guarded, "file-write-unlink", `${WS}/DIST`)).toBe("deny");
    expect(decide(guarded, "file-write-create", `${WS}/distx`)).toBe("allow");
  });

  test("files hard-linked from outside are read-only and cannot be renamed to write through a new name", () => {
    const linked = `${WS}/node_modules/pkg/index.js`;
    const withLinks = macProfile({}, { scan: { ...noScan, linkedOutside: [linked] } });
    expect(decide(withLinks, "file-write-data", linked)).toBe("deny");
    expect(decide(withLinks, "file-write-unlink", linked)).toBe("deny");
    expect(decide(withLinks, "file-write-unlink", `${WS}/node_modules/pkg`)).toBe("deny");
    expect(decide(withLinks, "file-link", linked)).toBe("deny");
    expect(decide(withLinks, "file-write-data", `${WS}/node_modules/other.js`)).toBe("allow");
  });

  test("an extra writable root is written, with the same protections", () => {
    const built = macProfile({ allowWrite: ["~/Library/Caches/pip"] }, {}, {
      ...disk,
      [`${HOME}/Library/Caches/pip`]: "dir",
    });
    expect(decide(built, "file-write-create", `${HOME}/Library/Caches/pip/http/x`)).toBe("allow");
    expect(decide(built, "file-write-create", `${HOME}/Library/Caches/pip/.zshrc`)).toBe("deny");
    expect(decide(built, "file-write-create", `${HOME}/Library/Caches/com.apple.Safari/x`)).toBe("deny");
  });
});

describe("network", () => {
  test("with a proxy: its HTTP and SOCKS ports (ALL_PROXY) on localhost, nothing else", () => {
    const net = macProfile({}, { proxyPorts: [50001, 50002] });
    expect(decide(net, "network-outbound", "localhost:50001")).toBe("allow");
    expect(decide(net, "network-outbound", "localhost:50002")).toBe("allow");
    expect(decide(net, "network-outbound", "localhost:50003")).toBe("deny");
    expect(decide(net, "mach-lookup", "com.apple.trustd.agent")).toBe("allow");
    expect(decide(sbpl, "mach-lookup", "com.apple.trustd.agent")).toBe("deny");
  });

  test("allowLocalhost: listen and connect on localhost, any port", () => {
    const local = macProfile({ allowLocalhost: true });
    expect(decide(local, "network-bind", "localhost:8080")).toBe("allow");
    expect(decide(local, "network-inbound", "localhost:8080")).toBe("allow");
    expect(decide(local, "network-outbound", "localhost:8080")).toBe("allow");
  });
});

describe("every denial carries the run's tag, for the system log", () => {
  test("deny default and every deny rule say (with message TAG)", () => {
    const denies = sbpl.text.split("(deny ").slice(1);
    expect(denies.length).toBeGreaterThan(10);
    for (const rule of denies) {
      expect(rule.slice(0, rule.indexOf("\n(") + 1 || undefined)).toContain(
        '(with message "toolrt-0123456789ab")',
      );
    }
  });
});
