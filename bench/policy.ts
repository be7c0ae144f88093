/**
 * Policy benchmarks, one JSON object per figure:
 * decision latency (median, p99) of a non-Bash call against a 1,000-rule policy, load+compile time
 * of that policy, and `toolrt check --batch` throughput. Run: bun bench/policy.ts
 */
import "./support/isolated-home.ts";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { decide } from "../src/policy/decide.ts";
import { loadPolicy } from "../src/policy/load.ts";
import { buildRequest } from "../src/policy/request.ts";
import { report, round, summarize } from "./support/lib.ts";

const RULES = 1000;
const root = mkdtempSync(join(tmpdir(), "toolrt-bench-"));
const cwd = join(root, "work");
mkdirSync(cwd, { recursive: true });
const env = { HOME: join(root, "home"), TOOLRT_MANAGED_POLICY: join(root, "none") };

/**
 * A mix: 200 Bash prefixes, 200 Read+Edit pairs (400 path rules), 200 MCP tool rules,
 * 200 WebFetch domains, 200 conditions (20 of them on Read).
 */
function thousandRules(): Record<string, unknown>[] {
  return Array.from({ length: RULES }, (_, i) => {
    const effect = ["allow", "ask", "deny"][i % 3];
    const id = `r${i}`;
    switch (i % 5) {
      case 0:
        return { id, effect, match: `Bash(tool${i} sub${i}:*)` };
      case 1:
        return { id, effect, match: [`Read(./dir${i}/**)`, `Edit(//srv/p${i}/**)`] };
      case 2:
        return {
          id,
          effect,
          match: `mcp__server${i}__tool_*`.replace("tool_*", i % 2 ? "tool_*" : `tool${i}`),
        };
      case 3:
        return { id, effect, match: `WebFetch(domain:*.host${i}.example.com)` };
      default:
        // Conditions on many tools; one in ten on Read, the tool this benchmark calls.
        return {
          id,
          effect,
          tool: i % 50 === 4 ? "Read" : `mcp__cond${i}__run`,
          when: { glob: [`**/generated${i}/**`, { var: "path" }] },
        };
    }
  });
}

const policyFile = join(root, "policy.json");
writeFileSync(policyFile, JSON.stringify({ rules: thousandRules() }, null, 2));
const options = { cwd, stateDir: join(root, "state"), flagFiles: [policyFile], env };

const loadTimes: number[] = [];
let loaded = loadPolicy(options);
for (let i = 0; i < 10; i++) {
  const start = Bun.nanoseconds();
  loaded = loadPolicy(options);
  loadTimes.push((Bun.nanoseconds() - start) / 1e6);
}
if (loaded.errors.length > 0) throw new Error(loaded.errors.map((e) => e.message).join("\n"));
report("policy.load_compile", {
  median_ms: round(summarize(loadTimes).median),
  rules_in_file: RULES,
  rules_compiled: loaded.policy.rules.length,
});

const request = buildRequest({
  tool: "Read",
  input: { file_path: "src/deep/module.ts" },
  cwd,
  home: env.HOME,
});
for (let i = 0; i < 20_000; i++) decide(request, loaded.policy);
const samples: number[] = [];
for (let i = 0; i < 50_000; i++) {
  const start = Bun.nanoseconds();
  decide(request, loaded.policy);
  samples.push((Bun.nanoseconds() - start) / 1e3);
}
const latency = summarize(samples);
const decision = decide(request, loaded.policy).decision;
report("policy.decide.read.1000_rules", {
  median_us: round(latency.median),
  p99_us: round(latency.p99),
  n: latency.n,
  decision,
});

const LINES = 5000;
const batch = join(root, "batch.txt");
const commands = Array.from(
  { length: LINES },
  (_, i) =>
    [`git status`, `npm run test unit${i}`, `tool${i % RULES} sub${i % RULES} x`, `rm -rf build${i}`][i % 4],
);
writeFileSync(batch, `${commands.join("\n")}\n`);
const main = join(import.meta.dir, "../src/cli/main.ts");
const start = Bun.nanoseconds();
const run = Bun.spawnSync(
  [
    process.execPath,
    main,
    "--cwd",
    cwd,
    "--state-dir",
    options.stateDir,
    "--policy",
    policyFile,
    "check",
    "--batch",
    batch,
    "Bash",
  ],
  { env: { ...process.env, ...env } },
);
const seconds = (Bun.nanoseconds() - start) / 1e9;
const outLines = run.stdout.toString().trimEnd().split("\n").length;
if (run.exitCode !== 0 || outLines !== LINES) {
  throw new Error(`check --batch failed: ${run.stderr.toString()}`);
}
report("policy.check_batch", {
  commands_per_s: round(LINES / seconds, 0),
  lines: LINES,
  wall_s: round(seconds),
});
