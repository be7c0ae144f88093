/**
 * End to end with the real Claude Code (opt-in: TOOLRT_E2E_CLAUDE=1; see claude-code-e2e.ts). The
 * script asks for two Bash calls that Claude Code itself would allow (`--allowedTools
 * Bash(touch:*)`); toolrt's project policy denies the first: it must not run, the second must.
 */
import { expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { bashTurn, claudeProject, DONE, E2E_ENABLED, runClaude } from "./claude-code-e2e.ts";

test.skipIf(!E2E_ENABLED)(
  "Claude Code does not run a Bash call toolrt denies, and runs the allowed one",
  async () => {
    const project = claudeProject({
      rules: [{
        id: "no-denied-marker",
        effect: "deny",
        match: "Bash(touch denied-marker.txt)",
        reason: "e2e",
      }],
    });
    const { results } = await runClaude(project, [
      bashTurn("toolu_e2e_1", "touch denied-marker.txt"),
      bashTurn("toolu_e2e_2", "touch allowed-marker.txt", { lastMessageIncludes: "toolrt denied" }),
      DONE,
    ], ["--allowedTools", "Bash(touch:*)"]);
    expect(existsSync(join(project.work, "denied-marker.txt")), "the denied command did not run").toBe(false);
    expect(existsSync(join(project.work, "allowed-marker.txt")), "the allowed command ran").toBe(true);
    expect(JSON.stringify(results[0])).toContain("toolrt denied this call");
  },
  120_000,
);
