/** Real runs under bwrap. Skipped, with the reason, where no sandbox is usable (CI installs bubblewrap). */
import { afterAll, describe, expect, test } from "bun:test";
import {
  existsSync,
  linkSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { detectSandbox } from "../../src/sandbox/detect.ts";
import { buildSandboxProfile, type SandboxSettings } from "../../src/sandbox/profile.ts";
import { runWrapped } from "../../src/sandbox/run.ts";
import { SandboxRefusedError, wrapCommand } from "../../src/sandbox/wrap.ts";
import { SECRET_NAMES_ONCE_MISSED } from "./fixtures.ts";

const availability = detectSandbox();
const usable = availability.available && availability.kind === "bwrap";
if (!usable) {
  console.warn(`skipping real bwrap runs: ${availability.available ? "not Linux" : availability.reason}`);
}

const dir = realpathSync(mkdtempSync(join(tmpdir(), "toolrt-bwrap-")));
// These runs' sandbox bookkeeping (placeholder leases, in the temp dir) is their own: a sandbox some
// other process runs meanwhile would keep placeholders alive past these runs.
const sharedTmp = process.env.TMPDIR;
mkdirSync(join(dir, "tmp"));
process.env.TMPDIR = join(dir, "tmp");
afterAll(() => {
  if (sharedTmp === undefined) delete process.env.TMPDIR;
  else process.env.TMPDIR = sharedTmp;
  rmSync(dir, { recursive: true, force: true });
});
const ws = join(dir, "work space");
const outside = join(dir, "outside");
mkdirSync(join(ws, ".git", "hooks"), { recursive: true });
mkdirSync(outside);
writeFileSync(join(ws, ".git", "config"), "[core]\n");
writeFileSync(join(outside, "victim"), "v\n");
linkSync(join(outside, "victim"), join(ws, "prelinked"));

async function run(script: string, settings: SandboxSettings = {}, env: Record<string, string> = {}) {
  const profile = buildSandboxProfile(settings, ws);
  const wrapped = await wrapCommand(profile, ["/bin/sh", "-c", script], {
    cwd: ws,
    env: { PATH: process.env.PATH ?? "/usr/bin:/bin", ...env },
  });
  return runWrapped(wrapped, ["ignore", "pipe", "pipe"]);
}

describe.skipIf(!usable)("bwrap runs", () => {
  test("the exit status is the command's", async () => {
    expect((await run("exit 7")).exitCode).toBe(7);
  });
  test("writes land in the workspace and in $TMPDIR, not outside", async () => {
    const r = await run(
      `echo in > ws-file && echo t > "$TMPDIR/t" && cat "$TMPDIR/t" && echo out > ${outside}/x; ` +
        "echo out > /etc/toolrt-sbx-probe",
    );
    expect(readFileSync(join(ws, "ws-file"), "utf8")).toBe("in\n");
    expect(r.stdout).toBe("t\n");
    expect(r.stderr).toContain("Read-only file system");
    expect(existsSync(join(outside, "x"))).toBe(false);
    expect(existsSync("/etc/toolrt-sbx-probe")).toBe(false);
  });
  test("existing protected paths stay read-only; what the command made at a missing one is quarantined", async () => {
    const r = await run("echo x >> .bashrc; echo x > .git/hooks/pre-commit; mv .git .git2; echo done");
    expect(r.stdout).toBe("done\n");
    expect(r.stderr?.match(/Read-only file system/g)?.length).toBe(1);
    expect(r.stderr).toContain("Device or resource busy");
    expect(existsSync(join(ws, ".bashrc"))).toBe(false);
    expect(r.quarantined.map((q) => q.path)).toEqual([join(ws, ".bashrc")]);
    const movedTo = r.quarantined[0]!.movedTo!;
    const at = movedTo.lastIndexOf(":./");
    const archived = Bun.spawnSync(["tar", "-xzOf", movedTo.slice(0, at), movedTo.slice(at + 1)], {
      stdout: "pipe",
    });
    expect(archived.stdout.toString()).toBe("x\n");
    expect(existsSync(join(ws, ".git", "hooks", "pre-commit"))).toBe(false);
  });
  test("the command sees the workspace as it is: no stand-ins, nothing for git status", async () => {
    const repo = join(dir, "clean-repo");
    mkdirSync(repo);
    const git = (...args: string[]) => Bun.spawnSync(["git", "-C", repo, ...args], { stdout: "pipe" });
    git("init", "-q");
    const before = Bun.spawnSync(["ls", "-A", repo], { stdout: "pipe" }).stdout.toString();
    const profile = buildSandboxProfile({}, repo);
    const wrapped = await wrapCommand(profile, ["/bin/sh", "-c", "ls -A; git status --porcelain"], {
      cwd: repo,
      env: { PATH: process.env.PATH ?? "/usr/bin:/bin" },
    });
    const r = await runWrapped(wrapped, ["ignore", "pipe", "pipe"]);
    expect(r.stdout).toBe(".git\n");
    expect(Bun.spawnSync(["ls", "-A", repo], { stdout: "pipe" }).stdout.toString()).toBe(before);
    expect(git("status", "--porcelain").stdout.toString()).toBe("");
  });
  test("by default the host's /tmp is visible read-only: a script left there runs, nothing is written there", async () => {
    // What an agent does: write a script to /tmp with its Write tool, run it with the sandboxed shell.
    const scratch = mkdtempSync("/tmp/toolrt-bwrap-host-");
    try {
      writeFileSync(join(scratch, "probe.sh"), "echo value-of-the-host-script\n");
      const r = await run(
        `sh ${scratch}/probe.sh; echo x > ${scratch}/written; echo y > /tmp/toolrt-bwrap-top-${process.pid}`,
      );
      expect(r.stdout).toBe("value-of-the-host-script\n");
      expect(r.stderr).toContain(`${scratch}/written: Read-only file system`);
      expect(r.stderr).toContain(`/tmp/toolrt-bwrap-top-${process.pid}: Read-only file system`);
      expect(existsSync(join(scratch, "written"))).toBe(false);
      expect(existsSync(`/tmp/toolrt-bwrap-top-${process.pid}`)).toBe(false);
    } finally {
      rmSync(scratch, { recursive: true, force: true });
    }
  });
  test("privateTmp: the host's /tmp and /var/tmp are not visible: empty read-only ones of the sandbox's own, the workspace bound back", async () => {
    // What other sessions and tools leave in /tmp (a shell snapshot with an API key here).
    const shared = mkdtempSync("/tmp/toolrt-bwrap-shared-");
    const sharedVar = existsSync("/var/tmp") ? mkdtempSync("/var/tmp/toolrt-bwrap-shared-") : null;
    try {
      writeFileSync(join(shared, "snapshot.sh"), "export OPENAI_API_KEY=value-of-the-snapshot-key\n");
      if (sharedVar) writeFileSync(join(sharedVar, "left"), "value-of-the-var-tmp-file\n");
      const r = await run(
        `cat ${shared}/snapshot.sh; ls -a /tmp /var/tmp; cat ${sharedVar ?? "/nonexistent"}/left; ` +
          `echo scratch > /tmp/own-scratch; echo kept > in-ws && cat in-ws; echo t > "$TMPDIR/t" && cat "$TMPDIR/t"`,
        { privateTmp: true },
      );
      expect(r.stdout).not.toContain("value-of-the-snapshot-key");
      expect(r.stdout).not.toContain("value-of-the-var-tmp-file");
      expect(r.stdout).not.toContain(shared.slice("/tmp/".length));
      // Read-only, as the host's was: the write is refused, not kept in a tmpfs that vanishes.
      expect(r.stderr).toContain("/tmp/own-scratch: Read-only file system");
      expect(r.stdout).toContain("kept\nt\n");
      expect(existsSync("/tmp/own-scratch")).toBe(false);
      expect(readFileSync(join(ws, "in-ws"), "utf8")).toBe("kept\n");
    } finally {
      rmSync(shared, { recursive: true, force: true });
      if (sharedVar) rmSync(sharedVar, { recursive: true, force: true });
    }
  });
  test("privateTmp: a working directory and PATH directory in /tmp outside the workspace stay visible, read-only", async () => {
    const bin = join(dir, "tools-bin");
    mkdirSync(bin, { recursive: true });
    writeFileSync(join(bin, "own-tool"), "#!/bin/sh\necho tool-ran\n", { mode: 0o755 });
    const profile = buildSandboxProfile({ privateTmp: true }, ws);
    const wrapped = await wrapCommand(profile, ["/bin/sh", "-c", "own-tool; pwd; touch here"], {
      cwd: bin,
      env: { PATH: `${bin}:${process.env.PATH ?? "/usr/bin:/bin"}` },
    });
    const r = await runWrapped(wrapped, ["ignore", "pipe", "pipe"]);
    expect(r.stdout).toBe(`tool-ran\n${bin}\n`);
    expect(r.stderr).toContain("Read-only file system");
    expect(existsSync(join(bin, "here"))).toBe(false);
  });
  test("a hard link made before the run does not write through", async () => {
    await run("echo evil >> prelinked");
    expect(readFileSync(join(outside, "victim"), "utf8")).toBe("v\n");
  });
  test("secret-looking variables are gone, even from /proc/1/environ", async () => {
    const r = await run("env; cat /proc/1/environ | tr '\\0' '\\n'", { unsetEnv: ["EXTRA_*"] }, {
      MY_API_KEY: "value-of-the-api-key",
      EXTRA_THING: "value-of-the-extra-thing",
      KEEP_ME: "yes",
    });
    // Values long enough that no random path (the run's $TMPDIR) contains them by chance.
    expect(r.stdout).toContain("KEEP_ME=yes");
    expect(r.stdout).not.toContain("value-of-the-api-key");
    expect(r.stdout).not.toContain("value-of-the-extra-thing");
  });
  test("passwords and logins under other spellings are gone too; PWD stays", async () => {
    const names = SECRET_NAMES_ONCE_MISSED;
    const env = Object.fromEntries(names.map((n) => [n, `value-of-${n.toLowerCase()}-x`]));
    const r = await run(`env; printf 'pwd=%s\\n' "$PWD"`, {}, {
      ...env,
      HTTPS_PROXY: "u:s3cr3t-pw@proxy:3128",
    });
    for (const name of names) expect(r.stdout).not.toContain(`value-of-${name.toLowerCase()}-x`);
    expect(r.stdout).toContain("HTTPS_PROXY=proxy:3128");
    expect(r.stdout).not.toContain("s3cr3t-pw");
    expect(r.stdout).toContain(`pwd=${ws}\n`);
  });
  test("denyRead hides a directory", async () => {
    mkdirSync(join(dir, "secret"));
    writeFileSync(join(dir, "secret", "key"), "s3cr3t");
    const r = await run(`cat ${join(dir, "secret", "key")}`, { denyRead: [join(dir, "secret")] });
    expect(r.exitCode).not.toBe(0);
    expect(r.stdout).not.toContain("s3cr3t");
  });
  test("no network, and no unix sockets", async () => {
    const r = await run(
      "cat /proc/net/dev | tail -n +3 | cut -d: -f1 | tr -d ' '; python3 -c 'import socket; socket.socket(socket.AF_UNIX)' 2>&1 | tail -1",
    );
    expect(r.stdout).toStartWith("lo\n");
    if (Bun.which("python3")) expect(r.stdout).toContain("Operation not permitted");
  });
  test("a symlinked protected path is refused before anything runs", async () => {
    const linked = join(dir, "linked-ws");
    mkdirSync(join(linked), { recursive: true });
    Bun.spawnSync(["ln", "-s", outside, join(linked, ".claude")]);
    const profile = buildSandboxProfile({}, linked);
    await expect(wrapCommand(profile, ["true"], { cwd: linked })).rejects.toBeInstanceOf(SandboxRefusedError);
  });
  test("allowNet: the proxy lets the listed host through the bridge and reports the others", async () => {
    const server = createServer((s) => s.once("data", () => s.end("HTTP/1.0 200 OK\r\n\r\nhello-from-host")));
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    const port = (server.address() as { port: number }).port;
    try {
      const fetchBoth = `${process.execPath} -e '
        for (const host of ["127.0.0.1", "localhost"]) {
          const r = await fetch("http://" + host + ":${port}/").then((r) => r.text(), (e) => "error " + e.message);
          console.log(host, r.trim());
        }'`;
      const r = await run(fetchBoth, { allowNet: ["127.0.0.1"] });
      expect(r.stdout).toContain("127.0.0.1 hello-from-host");
      expect(r.stdout).toContain("localhost toolrt sandbox: network access to localhost");
      expect(r.denials).toContainEqual({ host: "localhost", port, via: "http" });
    } finally {
      server.close();
    }
  });
});
