/** Pool assembly with 10,000 external tools (deny rules and dedupe included). */
import "./support/isolated-home.ts";
import { assembleToolPool } from "../src/pool/assemble.ts";
import { getAllBaseTools } from "../src/pool/base-tools.ts";
import { fakeTool, mcpTool } from "../test/helpers/fake-tools.ts";
import { report, round, summarize, timeRuns } from "./support/lib.ts";

const external = Array.from({ length: 10_000 }, (_, i) => mcpTool(`server${i % 50}`, `tool_${i}`));
// A few clashes and deny rules, as a real session has.
external.push(fakeTool("Read", { origin: { kind: "mcp", server: "shadow" } }));
const denyRules = [
  { rule: "mcp__server7", source: "managed" },
  { rule: "mcp__server8__tool_*", source: "user" },
  { rule: "Bash(rm:*)", source: "project" },
];
const builtins = getAllBaseTools();

let visible = 0;
const samples = await timeRuns(50, () => {
  visible = assembleToolPool(builtins, external, { mode: "default", denyRules }).tools.length;
}, 5);
const s = summarize(samples);
report("pool.assemble.10000", {
  external_tools: external.length,
  visible_tools: visible,
  median_ms: round(s.median),
  p99_ms: round(s.p99),
  n: s.n,
});
