import { describe, expect, test } from "bun:test";
import { linkSync, mkdirSync, mkdtempSync, realpathSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { newProgram } from "../../src/cli/program.ts";
import { register } from "../../src/cli/sandbox.ts";
import { fastSandboxArgs } from "../../src/cli/sandbox-command.ts";
import { checkSbpl } from "../../src/sandbox/sbpl-check.ts";
import { seatbeltPath } from "../../src/sandbox/sbpl.ts";
import { runCli } from "../helpers/cli.ts";
import { sandboxFor } from "../helpers/requirements.ts";

const ws = realpathSync(mkdtempSync(join(tmpdir(), "toolrt-cli-sbx-")));
/** A PATH without bwrap: the no-sandbox case on any machine. */
const noBwrap = { PATH: "/nonexistent" };

describe("toolrt sandbox without a usable sandbox", () => {
  test("refuses with exit 2 and says why", () => {
    const run = runCli(["sandbox", "--workspace", ws, "--", "/bin/echo", "ran"], { env: noBwrap });
    expect(run.code).toBe(2);
    expect(run.stdout).toBe("");
    expect(run.stderr).toContain("no usable sandbox: bubblewrap (bwrap) is not installed");
    expect(run.stderr).toContain("--allow-unsandboxed");
  });
  test("--allow-unsandboxed runs it with a warning and keeps its exit status", () => {
    const run = runCli(["sandbox", "--allow-unsandboxed", "--", "/bin/sh", "-c", "echo ran; exit 5"], {
      env: noBwrap,
    });
    expect(run.code).toBe(5);
    expect(run.stdout).toBe("ran\n");
    expect(run.stderr).toContain("WITHOUT a sandbox");
  });
  test("no command is a usage error", () => {
    expect(runCli(["sandbox"]).code).toBe(2);
  });
});

const usable = sandboxFor("toolrt sandbox with a real sandbox");

describe.skipIf(!usable)("toolrt sandbox with bwrap", () => {
  test("exit status is the command's and the workspace is writable", () => {
    const run = runCli([
      "sandbox",
      "--workspace",
      ws,
      "--",
      "/bin/sh",
      "-c",
      "echo hi > f && cat f && exit 3",
    ], { cwd: ws });
    expect(run.code).toBe(3);
    expect(run.stdout).toBe("hi\n");
  });
  test("--unset-env drops a variable the defaults keep", () => {
    const run = runCli([
      "sandbox",
      "--unset-env",
      "KIT_*",
      "--",
      "/bin/sh",
      "-c",
      'echo "[$KIT_VALUE][$PLAIN]"',
    ], {
      cwd: ws,
      env: { KIT_VALUE: "x", PLAIN: "y" },
    });
    expect(run.stdout).toBe("[][y]\n");
  });
  test("toolrt's state dir is hidden at run time: the default, TOOLRT_HOME, --state-dir, and one in the workspace", () => {
    // The home lies in the host's /tmp, visible read-only (or shown back under privateTmp): the state dirs below it would be seen.
    const home = `${ws}-state-home`;
    const stateOf = {
      default: join(home, ".local", "state", "toolrt"),
      toolrtHome: join(home, "custom-state"),
      flag: join(home, "flag-state"),
      inWorkspace: join(ws, ".run-state"),
    };
    const seed = (dir: string) => {
      mkdirSync(join(dir, "sandbox", "quarantine", "run-1"), { recursive: true });
      writeFileSync(join(dir, "audit.jsonl"), '{"input":"earlier-session-command-x"}\n');
    };
    Object.values(stateOf).forEach(seed);
    writeFileSync(join(home, "beside.txt"), "beside-the-state-dir\n");
    const peek = (dir: string) => `cat '${dir}/audit.jsonl'; ls -AR '${dir}'; cat '${home}/beside.txt'`;
    const runs = [
      runCli(["sandbox", "--", "/bin/sh", "-c", peek(stateOf.default)], {
        cwd: ws,
        env: { HOME: home, TOOLRT_HOME: "" },
      }),
      runCli(["sandbox", "--", "/bin/sh", "-c", peek(stateOf.toolrtHome)], {
        cwd: ws,
        env: { HOME: home, TOOLRT_HOME: stateOf.toolrtHome },
      }),
      runCli(["--state-dir", stateOf.flag, "sandbox", "--", "/bin/sh", "-c", peek(stateOf.flag)], {
        cwd: ws,
        env: { HOME: home, TOOLRT_HOME: "" },
      }),
      runCli(["sandbox", "--", "/bin/sh", "-c", peek(stateOf.inWorkspace)], {
        cwd: ws,
        env: { HOME: home, TOOLRT_HOME: stateOf.inWorkspace },
      }),
    ];
    for (const run of runs) {
      expect(run.stdout + run.stderr).not.toContain("earlier-session-command-x");
      expect(run.stdout).not.toContain("quarantine");
      // The control: the same home's other file is read, so the check above could fail.
      expect(run.stdout).toContain("beside-the-state-dir");
    }
  });
  test("a sandbox inside the sandbox is refused with exit 2, saying that sandboxes do not nest", () => {
    const nested = mkdtempSync(join(ws, "nested-"));
    const main = join(import.meta.dir, "../../src/cli/main.ts");
    const inner = [process.execPath, main, "sandbox", "--workspace", nested, "--", "/bin/true"];
    const run = runCli(["sandbox", "--workspace", nested, "--", ...inner], { cwd: nested });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("sandboxes do not nest");
  });
});

describe("toolrt sandbox's limit and credential flags", () => {
  test("a malformed limit or an --allow-read that is no credential location is a usage error naming it", () => {
    const memory = runCli(["sandbox", "--max-memory", "lots", "--", "true"], { cwd: ws });
    expect(memory.code).toBe(2);
    expect(memory.stderr).toContain("--max-memory lots: expected bytes or a size such as 512M or 2G");
    const count = runCli(["sandbox", "--max-processes", "0", "--", "true"], { cwd: ws });
    expect(count.code).toBe(2);
    expect(count.stderr).toContain("--max-processes 0: expected a whole number above 0");
    const read = runCli(["sandbox", "--allow-read", "~/src", "--", "true"], { cwd: ws });
    expect(read.code).toBe(2);
    expect(read.stderr).toContain("--allow-read ~/src: not a credential location hidden by default");
  });
  test.skipIf(!usable)(
    "--allow-read takes the path as a shell expands it; a wall-time kill says which limits could be why",
    () => {
      // Beside the workspace: a workspace that holds the home is refused.
      const home = `${ws}-home`;
      mkdirSync(home, { recursive: true });
      writeFileSync(join(home, ".npmrc"), "registry=x\n");
      const env = { HOME: home };
      const hidden = runCli(["sandbox", "--", "/bin/cat", join(home, ".npmrc")], { cwd: ws, env });
      expect(hidden.stdout).toBe("");
      const shown = runCli([
        "sandbox",
        "--allow-read",
        join(home, ".npmrc"),
        "--",
        "/bin/cat",
        join(home, ".npmrc"),
      ], {
        cwd: ws,
        env,
      });
      expect(shown.stdout).toBe("registry=x\n");
      const killed = runCli(["sandbox", "--max-wall-seconds", "1", "--", "sleep", "20"], { cwd: ws });
      expect(killed.code).toBe(137);
      expect(killed.stderr).toContain("wall-time limit of 1 s");
    },
  );
});

describe("the compiled binary's sandbox entry reads plain lines without commander", () => {
  /** What commander makes of `argv` (the action replaced, so nothing runs). */
  function viaCommander(argv: string[]) {
    const program = newProgram([register]);
    let seen: { options: Record<string, unknown>; command: string[] } | undefined;
    program.commands.find((c) => c.name() === "sandbox")!.action((command: string[], options) => {
      seen = { options: { ...options }, command };
    });
    program.parse(argv, { from: "user" });
    return seen;
  }
  const lines = [
    ["sandbox", "--", "true"],
    [
      "sandbox",
      "--workspace",
      "/w",
      "--deny-read",
      "/a",
      "--deny-read=/b",
      "--unset-env",
      "K_*",
      "--",
      "sh",
      "-c",
      "x",
    ],
    [
      "sandbox",
      "--allow-write",
      "/x",
      "--allow-net",
      "h:1",
      "--deny-write",
      "/w/y",
      "--allow-unsandboxed",
      "--",
      "a",
    ],
    ["sandbox", "--workspace", "/one", "--workspace", "/two", "--", "a", "--workspace", "--"],
    ["sandbox", "--allow-localhost", "--print-profile", "macos", "--", "a"],
    ["sandbox", "--max-memory=512M", "--mask-program", "curl=why", "--mask-program=wget", "--", "a", "-b"],
    ["sandbox", "--allow-write=-odd path", "--deny-read=--x", "--", "a"],
  ];
  test.each(lines)("%j: the same options and command as commander", (...argv) => {
    expect(fastSandboxArgs(argv)).toEqual(viaCommander(argv));
  });
  test("other shapes are left to commander", () => {
    for (
      const argv of [
        ["sandbox", "true"],
        ["sandbox", "--help"],
        ["sandbox", "--cwd", "/x", "--", "true"],
        ["sandbox", "--workspace", "--", "true"],
        ["sandbox", "--"],
        ["sandbox", "--typo", "--", "true"],
        ["sandbox", "-w", "/x", "--", "true"],
        ["sandbox", "--allow-localhost=yes", "--", "true"],
        ["sandbox", "--workspace", "--deny-read", "/x", "--", "true"],
        ["sandbox", "stray", "--", "true"],
        ["tools"],
      ]
    ) {
      expect(fastSandboxArgs(argv)).toBeUndefined();
    }
  });
});

describe("toolrt sandbox --print-profile (on any platform, nothing run)", () => {
  const base = realpathSync(mkdtempSync(join(tmpdir(), "toolrt-print-")));
  mkdirSync(join(base, "real"));
  symlinkSync(join(base, "real"), join(base, "link"));
  /** The `-D NAME="value"` comment lines of a printed profile. */
  const paramsOf = (text: string) =>
    Object.fromEntries(
      [...text.matchAll(/^; -D ([A-Z_0-9]+)=(".*")$/gm)].map((m) => [m[1]!, JSON.parse(m[2]!) as string]),
    );

  test("macos: a well-formed profile for the workspace's real path, through the symlink it was given by", () => {
    const run = runCli(["sandbox", "--print-profile", "macos", "--workspace", join(base, "link")]);
    expect(run.code).toBe(0);
    const params = paramsOf(run.stdout);
    expect(params.WRITABLE_ROOT_0).toBe(seatbeltPath(join(base, "real")));
    expect(checkSbpl(run.stdout, Object.keys(params))).toEqual([]);
  });

  test("macos with network and localhost: the proxy's ports (stand-ins) and localhost rules", () => {
    const run = runCli([
      "sandbox",
      "--print-profile",
      "macos",
      "--workspace",
      base,
      "--allow-net",
      "registry.npmjs.org",
      "--allow-localhost",
    ]);
    expect(run.stdout).toContain('(allow network-outbound (remote ip "localhost:3128"))');
    expect(run.stdout).toContain('(allow network-outbound (remote ip "localhost:1080"))');
    expect(run.stdout).toContain('(allow network-bind (local ip "localhost:*"))');
  });

  test("linux: the bwrap command line, the workspace bound writable", () => {
    const run = runCli(["sandbox", "--print-profile", "linux", "--workspace", base, "--", "npm", "test"]);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(`--bind-fd \\\n  4 \\\n  ${base} \\\n`);
    expect(run.stdout).toContain(`#   4: ${JSON.stringify(base)}`);
    expect(run.stdout.trimEnd()).toEndWith("-- \\\n  npm \\\n  test");
  });

  test("a profile the sandbox would refuse is exit 2 with the reason", () => {
    const ws = join(base, "refused");
    mkdirSync(join(ws, "elsewhere"), { recursive: true });
    symlinkSync(join(ws, "elsewhere"), join(ws, ".claude"));
    for (const platform of ["macos", "linux"]) {
      const run = runCli(["sandbox", "--print-profile", platform, "--workspace", ws]);
      expect(run.code, platform).toBe(2);
      expect(run.stderr).toContain(`${join(ws, ".claude")} is a symbolic link inside the writable root`);
    }
  });

  test("another platform is a usage error", () => {
    const run = runCli(["sandbox", "--print-profile", "windows"]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('--print-profile takes macos or linux, not "windows"');
  });
});

describe("toolrt sandbox --explain (nothing run)", () => {
  test("lists what is protected and every protection not given as asked, with what to do", () => {
    const repo = join(ws, "explained");
    const outside = join(ws, "explained-outside");
    mkdirSync(join(repo, ".git", "hooks"), { recursive: true });
    mkdirSync(outside);
    writeFileSync(join(repo, ".git", "HEAD"), "ref: refs/heads/main\n");
    writeFileSync(join(repo, ".git", "config"), "[core]\n");
    for (let i = 0; i < 100; i++) {
      const dir = join(repo, ".git", "objects", (i % 10).toString().padStart(2, "0"));
      mkdirSync(dir, { recursive: true });
      writeFileSync(join(outside, `o${i}`), "o");
      linkSync(join(outside, `o${i}`), join(dir, `o${i}`));
    }
    const run = runCli(["sandbox", "--explain", "--workspace", repo]);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(`  ${join(repo, ".git")}\n`);
    expect(run.stdout).toContain(`${join(repo, ".git", "config")} (protected path (git))`);
    expect(run.stdout).toContain("not as asked [link-mounts-collapsed]");
    expect(run.stdout).toContain("git repack -a -d");
  });
  test("says whether the host's /tmp and /var/tmp are seen read-only (default) or replaced (--private-tmp)", () => {
    const shared = runCli(["sandbox", "--explain", "--workspace", ws]);
    expect(shared.stdout).toContain("shared temp dirs: /tmp, /var/tmp are the host's, visible read-only");
    const own = runCli(["sandbox", "--explain", "--private-tmp", "--workspace", ws]);
    expect(own.code).toBe(0);
    expect(own.stdout).toMatch(/shared temp dirs: \/tmp(, \/var\/tmp)? replaced by empty, read-only ones/);
  });
});
