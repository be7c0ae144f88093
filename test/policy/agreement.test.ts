/**
 * One evaluation path: `toolrt check` and real execution (Tool facts → buildRequest → decide) give
 * the same decision and the same deciding rules for a corpus of calls.
 */
import { beforeAll, describe, expect, test } from "bun:test";
import { z } from "zod";
import { analyzeBash, analyzeBashSync } from "../../src/bash/analyze.ts";
import { loadBashParser } from "../../src/bash/parser.ts";
import { analyzerDeps, checkCall } from "../../src/cli/check-call.ts";
import type { GlobalOptions } from "../../src/cli/options.ts";
import { decide } from "../../src/policy/decide.ts";
import { buildRequest, factsFromTool } from "../../src/policy/request.ts";
import { executeToolCall } from "../../src/exec/pipeline.ts";
import { rulesPolicy } from "../../src/exec/rules-policy.ts";
import { ToolPool } from "../../src/pool/tool-pool.ts";
import { buildTool } from "../../src/tool/build-tool.ts";
import { createToolContext } from "../../src/tool/context.ts";
import type { AnyTool } from "../../src/tool/types.ts";
import { rules, runToolrt, sandbox } from "./helpers.ts";

const box = sandbox();
box.write(
  "managed/managed-policy.json",
  rules(
    { id: "no-force", effect: "deny", match: "Bash(git push --force:*)" },
    { id: "ask-push", effect: "ask", match: "Bash(git push:*)" },
    { id: "tests", effect: "allow", match: ["Bash(npm test)", "Bash(npm run:*)"] },
    { id: "secrets", effect: "deny", match: "Read(//etc/shadow)" },
    { id: "srv", effect: "allow", match: "Edit(//srv/app/**)" },
    { id: "jira", effect: "allow", match: "mcp__jira__get_*" },
  ),
);

const corpus: [string, unknown][] = [
  ["Bash", { command: "git push --force origin main" }],
  ["Bash", { command: "git push origin main" }],
  ["Bash", { command: "npm test" }],
  ["Bash", { command: "npm run build" }],
  ["Bash", { command: "ls && npm test" }],
  ["Bash", { command: "rm -rf /" }],
  ["Bash", { command: "make" }],
  ["Read", { file_path: "src/a.ts" }],
  ["Read", { file_path: "/etc/shadow" }],
  ["Read", { file_path: "/etc/hostname" }],
  ["Read", { file_path: ".env" }],
  ["Edit", { file_path: "src/a.ts", old_string: "a", new_string: "b" }],
  ["Write", { file_path: "/srv/app/x.txt", content: "" }],
  ["Write", { file_path: ".git/config", content: "" }],
  ["mcp__jira__get_issue", { id: 1 }],
  ["mcp__jira__delete_issue", { id: 1 }],
];

/** Stand-ins for the real tools, with the Tool contract's fail-closed defaults and file paths. */
function toolFor(name: string): AnyTool {
  const isRead = name === "Read";
  return buildTool({
    name,
    inputSchema: z.record(z.string(), z.unknown()),
    description: name,
    prompt: () => name,
    call: async () => ({ data: "" }),
    isReadOnly: () => isRead,
    getPath: (input: Record<string, unknown>) =>
      typeof input.file_path === "string" ? input.file_path : undefined,
  });
}

const globals: GlobalOptions = {
  cwd: box.cwd,
  stateDir: box.stateDir,
  policy: [],
  allow: [],
  ask: [],
  deny: [],
  mode: "default",
  color: false,
  mcpConfig: [],
  claudeSettings: false,
  debug: false,
};

describe("check and execution agree", () => {
  const loaded = box.load();
  const ctx = createToolContext({
    cwd: box.cwd,
    stateDir: box.stateDir,
    mode: "default",
    invokedBy: "provider",
  });
  const pool = new ToolPool(
    corpus.map(([tool]) => tool).filter((t, i, all) => all.indexOf(t) === i).map(toolFor),
    {
      mode: "default",
      denyRules: [],
    },
  );
  const analyze = async (tool: AnyTool, input: unknown) =>
    tool.name === "Bash" ? analyzeBash((input as { command: string }).command) : undefined;
  const deps = { pool, policy: rulesPolicy(loaded.policy), hooks: {}, sessionId: "agreement", analyze };
  beforeAll(() => loadBashParser());
  const bashOf = (tool: string, input: unknown) =>
    tool === "Bash" ? { bash: analyzeBashSync((input as { command: string }).command) } : {};
  for (const [tool, input] of corpus) {
    test(`${tool} ${JSON.stringify(input)}`, async () => {
      const viaCheck = await checkCall(tool, input, loaded.policy, globals, analyzerDeps);
      const facts = await factsFromTool(toolFor(tool), input, ctx);
      const viaExecution = decide(
        buildRequest(
          { tool, input, cwd: ctx.cwd, mode: ctx.mode, agent: ctx.agent, ...bashOf(tool, input) },
          facts,
        ),
        loaded.policy,
      );
      expect(viaExecution.decision).toBe(viaCheck.decision);
      expect(viaExecution.matched).toEqual(viaCheck.matched);

      // And through the real pipeline: an ask reaches the asker, a deny never runs the tool.
      let asked = false;
      const outcome = await executeToolCall({ id: "t", name: tool, input }, ctx, deps, {
        ask: async () => ((asked = true), { behavior: "deny" }),
      });
      expect(asked ? "ask" : outcome.decision).toBe(viaCheck.decision);
    });
  }

  test("the CLI batch agrees with the in-process decisions", () => {
    const commands = corpus.filter(([t]) => t === "Bash").map(([, i]) => (i as { command: string }).command);
    const file = box.write("corpus.txt", `${commands.join("\n")}\n`);
    const run = runToolrt(box, ["check", "--batch", file, "Bash"]);
    const lines = run.out.trimEnd().split("\n").map((l) => JSON.parse(l));
    const expected = commands.map((command) =>
      decide(
        buildRequest({ tool: "Bash", input: { command }, cwd: box.cwd, ...bashOf("Bash", { command }) }),
        loaded.policy,
      )
    );
    expect(lines.map((l) => [l.decision, l.matched])).toEqual(expected.map((d) => [d.decision, d.matched]));
  });
});
