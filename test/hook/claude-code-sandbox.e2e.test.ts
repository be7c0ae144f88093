/**
 * `toolrt hook --sandbox` inside the real Claude Code (opt-in: TOOLRT_E2E_CLAUDE=1; see
 * claude-code-e2e.ts). No `--allowedTools`: Claude Code in `-p` refuses whatever would prompt, so a
 * Bash call that runs was allowed by toolrt. An `npm test`-like script and a compound command (a
 * loop with `$()`) run without a prompt inside the sandbox (exit status and output reach the model),
 * a write outside the workspace fails inside
 * that run, and a command the policy denies is still blocked.
 */
import { expect, test } from "bun:test";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { detectSandbox } from "../../src/sandbox/detect.ts";
import { bashTurn, claudeProject, DONE, E2E_ENABLED, runClaude } from "./claude-code-e2e.ts";

const availability = detectSandbox();
if (E2E_ENABLED && !availability.available) {
  console.warn(`skipping: no sandbox here (${availability.reason})`);
}

test.skipIf(!E2E_ENABLED || !availability.available)(
  "Claude Code runs a sandboxed test script without a prompt, the sandbox holds, a denied command stays blocked",
  async () => {
    const project = claudeProject(
      {
        rules: [{
          id: "no-publish",
          effect: "deny",
          match: "Bash(npm publish:*)",
          reason: "e2e: no publishing",
        }],
      },
      ["--sandbox"],
    );
    writeFileSync(join(project.work, ".mcp.json"), '{ "mcpServers": {} }\n');
    writeFileSync(
      join(project.work, "test.sh"),
      'echo "ran in $PWD" > test-output.txt\necho "5 tests passed"\necho "a warning" >&2\nexit 0\n',
    );
    const outside = join(project.root, "outside-marker");
    const { results, final } = await runClaude(project, [
      bashTurn("toolu_sbx_1", "sh ./test.sh"),
      bashTurn("toolu_sbx_loop", 'for f in *.sh; do echo "script: $f ($(wc -l < "$f") lines)"; done', {
        lastMessageIncludes: "5 tests passed",
      }),
      bashTurn("toolu_sbx_2", `echo escaped > ${outside}`, { lastMessageIncludes: "script: test.sh" }),
      bashTurn("toolu_sbx_3", "npm publish", { lastMessageIncludes: "Read-only file system" }),
      { ...DONE, when: { lastMessageIncludes: "toolrt denied" } },
    ]);
    const text = (i: number) => JSON.stringify(results[i]);
    expect(text(0)).toContain("5 tests passed");
    expect(readFileSync(join(project.work, "test-output.txt"), "utf8")).toBe(`ran in ${project.work}\n`);
    // A compound command (a loop, `$()`) that no allow rule could approve runs in the sandbox too.
    expect(text(1)).toContain("script: test.sh (4 lines)");
    expect(text(2)).toContain("Read-only file system");
    expect(existsSync(outside), "the write outside the workspace failed inside the sandbox").toBe(false);
    expect(text(3)).toContain("toolrt denied this call: e2e: no publishing");
    expect(final?.permission_denials.map((d: { tool_use_id: string }) => d.tool_use_id)).toEqual([
      "toolu_sbx_3",
    ]);

    // The control: the same script with the plain hook is left to Claude Code, which in -p refuses it.
    const plain = claudeProject({ rules: [] });
    writeFileSync(join(plain.work, "test.sh"), readFileSync(join(project.work, "test.sh")));
    const control = await runClaude(plain, [
      bashTurn("toolu_ctl_1", "sh ./test.sh"),
      { ...DONE, when: { lastMessageIncludes: "requires approval" } },
    ]);
    expect(control.final?.permission_denials.map((d: { tool_use_id: string }) => d.tool_use_id)).toEqual([
      "toolu_ctl_1",
    ]);
    expect(existsSync(join(plain.work, "test-output.txt"))).toBe(false);
  },
  240_000,
);
