/** The macOS run around the profile: command line, process cap, terminal, trial run, system log. */
import { describe, expect, test } from "bun:test";
import { darwinAvailability, trialRun } from "../../src/sandbox/detect.ts";
import {
  denialsLogArgv,
  parseDenials,
  processCapLauncher,
  runTag,
  sandboxExecArgv,
  sessionTty,
} from "../../src/sandbox/seatbelt.ts";

describe("the sandbox-exec command line", () => {
  test("profile, then every parameter, then -- before the command (which may start with -)", () => {
    const argv = sandboxExecArgv(
      "/usr/bin/sandbox-exec",
      { text: "(version 1)\n", params: [["WRITABLE_ROOT_0", "/Users/u/a b"], ["TEMP_DIR", "/private/t=1"]] },
      ["-weird-command", "--flag"],
    );
    expect(argv).toEqual([
      "/usr/bin/sandbox-exec",
      "-p",
      "(version 1)\n",
      "-DWRITABLE_ROOT_0=/Users/u/a b",
      "-DTEMP_DIR=/private/t=1",
      "--",
      "-weird-command",
      "--flag",
    ]);
  });

  test("a run's tag is fresh and safe inside a string and a log predicate", () => {
    const [a, b] = [runTag(), runTag()];
    expect(a).toMatch(/^toolrt-[0-9a-f]{12}$/);
    expect(a).not.toBe(b);
  });
});

const bash = Bun.which("bash");
const ps = Bun.which("ps");
describe.skipIf(!bash || !ps)("the process-cap launcher (its script run by bash here; zsh on a Mac)", () => {
  if (!bash || !ps) console.log("skipped: needs bash and ps");
  const run = (maxProcesses: number, inner: string) => {
    const [, , , script, ...rest] = processCapLauncher(maxProcesses);
    const proc = Bun.spawnSync([bash!, "-c", script!, ...rest, bash!, "-c", inner]);
    return { code: proc.exitCode, out: proc.stdout.toString().trim() };
  };

  test("zsh without start-up files, the limit as its first argument, then the command", () => {
    expect(processCapLauncher(64).slice(0, 3)).toEqual(["/bin/zsh", "-f", "-c"]);
    expect(processCapLauncher(64).slice(4)).toEqual(["toolrt-sandbox-nproc", "64"]);
  });

  test("soft and hard RLIMIT_NPROC both, below what the user could start before", () => {
    const before = Bun.spawnSync([bash!, "-c", "ulimit -H -u"]).stdout.toString().trim();
    const { code, out } = run(50, "echo $(ulimit -S -u) $(ulimit -H -u)");
    expect(code).toBe(0);
    const [soft, hard] = out.split(" ");
    expect(soft).toBe(hard!);
    expect(soft).toMatch(/^\d+$/);
    if (before !== "unlimited") expect(Number(soft)).toBeLessThan(Number(before));
  });

  test("near the hard limit, the command gets at most half of the room left", () => {
    const outer =
      "n=$(ps -x -o pid= | wc -l); h=$((n + 40)); ulimit -S -u $h && ulimit -H -u $h || exit 3; " +
      'echo $h $(bash -c "$1" toolrt-sandbox-nproc 50 bash -c "ulimit -H -u")';
    const proc = Bun.spawnSync([bash!, "-c", outer, "outer", processCapLauncher(50)[3]!]);
    const [hard, inner] = proc.stdout.toString().trim().split(" ").map(Number);
    expect(proc.exitCode).toBe(0);
    expect(inner).toBeLessThan(hard!);
  });

  test("the command cannot raise the limit again", () => {
    const { out } = run(50, "ulimit -S -u unlimited 2>/dev/null && echo raised || echo kept");
    expect(out).toBe("kept");
  });

  test("the command's exit status comes through", () => {
    expect(run(50, "exit 7").code).toBe(7);
  });
});

describe("the session's terminal", () => {
  const tty = (rdev: number) => ({ rdev, isCharacterDevice: () => true });
  test("found by device number and checked against the device file", () => {
    const stat = {
      fd: (fd: number) => (fd === 1 ? tty((16 << 24) | 4) : { rdev: 0, isCharacterDevice: () => false }),
      path: (path: string) => (path === "/dev/ttys004" ? { rdev: (16 << 24) | 4 } : { rdev: -1 }),
    };
    expect(sessionTty([0, 1, 2], stat)).toBe("/dev/ttys004");
  });
  test("a character device that is not that terminal (/dev/null) is none", () => {
    const stat = { fd: () => tty((3 << 24) | 2), path: () => ({ rdev: (16 << 24) | 2 }) };
    expect(sessionTty([0, 1, 2], stat)).toBeNull();
  });
  test("closed descriptors are none", () => {
    const stat = {
      fd: () => {
        throw new Error("EBADF");
      },
      path: () => ({ rdev: 0 }),
    };
    expect(sessionTty([0, 1, 2], stat)).toBeNull();
  });
});

describe("can sandbox-exec apply a profile here (trial run)", () => {
  test("inside another sandbox: exit 71, said in words a user can act on", () => {
    const reason = trialRun("/usr/bin/sandbox-exec", () => ({
      exitCode: 71,
      stderr: "sandbox-exec: sandbox_apply: Operation not permitted\n",
    }));
    expect(reason).toBe(
      "sandbox-exec cannot apply a profile here (exit 71: sandbox-exec: sandbox_apply: Operation not permitted); " +
        "toolrt is running inside another sandbox (Seatbelt profiles do not nest): run it outside that sandbox",
    );
  });
  test("the trial runs a trivial profile with -- before the command", () => {
    let seen: string[] = [];
    expect(trialRun("/usr/bin/sandbox-exec", (argv) => (seen = argv, { exitCode: 0, stderr: "" })))
      .toBeNull();
    expect(seen.slice(-2)).toEqual(["--", "/usr/bin/true"]);
  });
  test("availability: missing binary, failed trial, usable", () => {
    expect(darwinAvailability("/usr/bin/sandbox-exec", () => false)).toEqual({
      available: false,
      reason: "sandbox-exec is missing from /usr/bin/sandbox-exec",
    });
    expect(darwinAvailability("/usr/bin/sandbox-exec", () => true, () => "nested")).toEqual({
      available: false,
      reason: "nested",
    });
    expect(darwinAvailability("/usr/bin/sandbox-exec", () => true, () => null)).toEqual({
      available: true,
      kind: "sandbox-exec",
      sandboxExecPath: "/usr/bin/sandbox-exec",
    });
  });
});

describe("a run's denials in the system log", () => {
  const tag = "toolrt-0123456789ab";
  const event = (eventMessage: string) => JSON.stringify({ timestamp: "2025-01-01 10:00:00", eventMessage });
  test("only the events carrying the run's tag, parsed into process, operation and target", () => {
    const ndjson = [
      event(`Sandbox: touch(5120) deny(1) file-write-create /Users/u/app/.toolrt\n${tag}`),
      event(`Sandbox: curl(5121) deny(1) network-outbound 1.2.3.4:443 ${tag}`),
      event("Sandbox: other(1) deny(1) file-read-data /etc/x\ntoolrt-ffffffffffff"),
      event(`not a denial ${tag}`),
      "not json",
      "",
    ].join("\n");
    expect(parseDenials(ndjson, tag)).toEqual([
      { process: "touch", pid: 5120, operation: "file-write-create", target: "/Users/u/app/.toolrt" },
      { process: "curl", pid: 5121, operation: "network-outbound", target: "1.2.3.4:443" },
    ]);
  });
  test("log show asks for the tag over the run's time and a little more", () => {
    expect(denialsLogArgv(tag, 2.2)).toEqual([
      "/usr/bin/log",
      "show",
      "--style",
      "ndjson",
      "--last",
      "8s",
      "--predicate",
      `eventMessage CONTAINS "${tag}"`,
    ]);
  });
});
