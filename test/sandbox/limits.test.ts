import { describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  cgroupLauncher,
  cgroupName,
  parseCgroupMounts,
  parseProcCgroup,
  planCgroup,
  prlimitPrefix,
  sweepStaleCgroups,
} from "../../src/sandbox/limits.ts";
import { DEFAULT_LIMITS } from "../../src/sandbox/profile.ts";

const limits = { ...DEFAULT_LIMITS, maxProcesses: 100, maxMemoryBytes: 1024 };

describe("cgroup planning", () => {
  const v1 = [
    "36 25 0:31 / /sys/fs/cgroup/pids rw,relatime shared:9 - cgroup cgroup rw,pids",
    "37 25 0:32 / /sys/fs/cgroup/memory rw,relatime shared:10 - cgroup cgroup rw,memory",
    "38 25 0:33 / /sys/fs/cgroup/unified rw,relatime shared:11 - cgroup2 cgroup2 rw",
  ].join("\n");
  test("v1: pids and memory controllers, below the caller's own groups", () => {
    const plan = planCgroup(
      parseCgroupMounts(v1),
      parseProcCgroup("8:pids:/\n4:memory:/job/42\n0::/"),
      limits,
      "sbx",
    );
    expect(plan.writes).toEqual([
      { dir: "/sys/fs/cgroup/pids/sbx", file: "pids.max", value: "100" },
      { dir: "/sys/fs/cgroup/memory/job/42/sbx", file: "memory.limit_in_bytes", value: "1024" },
    ]);
    // v1 is joined through `tasks`: one thread moved, no global lock (see cgroupLauncher).
    expect(plan.joins).toEqual(["/sys/fs/cgroup/pids/sbx/tasks", "/sys/fs/cgroup/memory/job/42/sbx/tasks"]);
  });
  test("v2 alone: one directory with pids.max and memory.max", () => {
    const v2 = "30 25 0:27 / /sys/fs/cgroup rw - cgroup2 cgroup2 rw";
    const plan = planCgroup(parseCgroupMounts(v2), parseProcCgroup("0::/user.slice/app"), limits, "sbx");
    expect(plan.dirs).toEqual(["/sys/fs/cgroup/user.slice/app/sbx"]);
    expect(plan.writes.map((w) => w.file)).toEqual(["pids.max", "memory.max"]);
    expect(plan.joins).toEqual(["/sys/fs/cgroup/user.slice/app/sbx/cgroup.procs"]);
  });
  test("a mount whose root is not / is entered relative to it", () => {
    const nested = "30 25 0:27 /job /sys/fs/cgroup rw - cgroup2 cgroup2 rw";
    const plan = planCgroup(parseCgroupMounts(nested), parseProcCgroup("0::/job/inner"), limits, "sbx");
    expect(plan.dirs).toEqual(["/sys/fs/cgroup/inner/sbx"]);
  });
  test("no cgroup mount: nothing capped", () => {
    expect(planCgroup([], new Map(), limits, "sbx").capsProcesses).toBe(false);
  });
  test("the launcher joins every group before exec, and fails with 125 otherwise", () => {
    const argv = cgroupLauncher(["/a/tasks", "/b/cgroup.procs"]);
    expect(argv.slice(3)).toEqual(["toolrt-sandbox-cgroup", "2", "/a/tasks", "/b/cgroup.procs"]);
    expect(argv[2]).toContain('echo 0 > "$1"');
    expect(argv[2]).toContain("exit 125");
    const run = Bun.spawnSync([...cgroupLauncher(["/nonexistent/cgroup.procs"]), "/bin/echo", "ran"], {
      stderr: "ignore",
    });
    expect(run.exitCode).toBe(125);
    expect(run.stdout.toString()).toBe("");
  });
  test("prlimit inside the sandbox sets what no cgroup covers, and CPU time when asked", () => {
    const none = { processes: false, memory: false };
    expect(prlimitPrefix("/usr/bin/prlimit", limits, none)).toEqual([
      "/usr/bin/prlimit",
      "--nproc=100",
      "--data=1024",
      "--",
    ]);
    expect(prlimitPrefix("/usr/bin/prlimit", limits, { processes: true, memory: false })).toEqual([
      "/usr/bin/prlimit",
      "--data=1024",
      "--",
    ]);
    expect(prlimitPrefix("/usr/bin/prlimit", limits, { processes: true, memory: true })).toEqual([]);
    expect(prlimitPrefix("/p", { ...limits, maxCpuSeconds: 3 }, { processes: true, memory: true })).toEqual([
      "/p",
      "--cpu=3",
      "--",
    ]);
  });
});

describe("stale cgroups", () => {
  test("a start removes the empty groups of dead toolrt processes, and only those", () => {
    const parent = mkdtempSync(join(tmpdir(), "toolrt-cg-"));
    const namespace = cgroupName().split("-")[2];
    const dead = join(parent, `toolrt-sandbox-${namespace}-2147483646-0a1b2c3d`);
    const busy = join(parent, `toolrt-sandbox-${namespace}-2147483645-0a1b2c3d`);
    const elsewhere = join(parent, "toolrt-sandbox-1-2147483646-0a1b2c3d"); // another pid namespace's
    const mine = join(parent, cgroupName());
    const other = join(parent, "toolrt-sandbox-x");
    for (const dir of [dead, busy, elsewhere, mine, other]) mkdirSync(dir);
    mkdirSync(join(busy, "child")); // rmdir fails, as on a cgroup with processes
    sweepStaleCgroups([parent]);
    expect([dead, busy, elsewhere, mine, other].map(existsSync)).toEqual([false, true, true, true, true]);
  });
});
