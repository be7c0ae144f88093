/**
 * The per-run cost of what a sandboxed command may not take or keep, in process, no spawning: the
 * snapshot of the files that run later (taken before and after every run) on a workspace that has
 * many of them, the environment scrub of a 100-variable environment, building a profile (the
 * credential list expanded and resolved), and the stale-run sweep (once per process). Median of 200
 * each, with the 1-minute load average (2 shared cores: compare figures taken together).
 */
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { snapshotAutorun } from "../src/sandbox/autorun.ts";
import { DEFAULT_SECRET_ENV_PATTERNS, scrubEnv } from "../src/sandbox/env.ts";
import { buildSandboxProfile } from "../src/sandbox/profile.ts";
import { runsDir, sweepStaleRunDirs } from "../src/sandbox/run-dir.ts";
import { report, round, summarize, timeRuns } from "./support/lib.ts";

const RUNS = 200;
const load = () => Number(readFileSync("/proc/loadavg", "utf8").split(" ")[0]);
const figures = (values: number[]) => {
  const s = summarize(values);
  return { median_ms: round(s.median), p99_ms: round(s.p99), n: s.n, load_1m: load() };
};
const put = (path: string, text = "x") => {
  mkdirSync(join(path, ".."), { recursive: true });
  writeFileSync(path, text);
};

const ws = realpathSync(mkdtempSync(join(tmpdir(), "toolrt-bench-env-")));
for (let i = 0; i < 10; i++) put(join(ws, ".husky", `hook-${i}`));
for (let i = 0; i < 5; i++) put(join(ws, ".github", "workflows", `ci-${i}.yml`));
const sitePackages = join(ws, ".venv", "lib", "python3.12", "site-packages");
for (let i = 0; i < 300; i++) mkdirSync(join(sitePackages, `pkg${i}`), { recursive: true });
put(join(sitePackages, "distutils-precedence.pth"));
put(join(ws, "package.json"), JSON.stringify({ scripts: { test: "bun test" }, dependencies: { a: "1" } }));
for (const name of ["Makefile", "CLAUDE.md", "AGENTS.md", ".envrc", ".gitlab-ci.yml"]) put(join(ws, name));
const files = snapshotAutorun(ws).size;
report("sandbox.autorun.snapshot", {
  what: `snapshotAutorun: ${files} files present, a 301-entry site-packages`,
  ...figures(await timeRuns(RUNS, () => snapshotAutorun(ws), 5)),
});

const env = Object.fromEntries(Array.from({ length: 100 }, (_, i) => [`VAR_${i}`, `https://u:p@host${i}/x`]));
report("sandbox.env.scrub", {
  what: "scrubEnv: 100 variables, each with a URL to cut",
  ...figures(await timeRuns(RUNS, () => scrubEnv(env, DEFAULT_SECRET_ENV_PATTERNS), 5)),
});

report("sandbox.profile.build", {
  what: "buildSandboxProfile({}) with the credential list",
  ...figures(await timeRuns(RUNS, () => buildSandboxProfile({}, ws), 5)),
});

const runs = runsDir();
report("sandbox.rundir.sweep", {
  what: "sweepStaleRunDirs of this uid's run directory (once per process)",
  ...figures(await timeRuns(RUNS, () => sweepStaleRunDirs(runs), 5)),
});
rmSync(ws, { recursive: true, force: true });
