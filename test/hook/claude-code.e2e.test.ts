/**
 * End to end with the real Claude Code (opt-in: TOOLRT_E2E_CLAUDE=1). Claude Code 2.1.197 from the
 * npm registry, installed on first use into .cache/ (not a devDependency: everyone's `npm install`
 * stays small and CI never depends on it), runs `claude -p` against the fake Messages API on
 * 127.0.0.1 with `toolrt hook` installed as its hook. The script asks for two Bash calls that
 * Claude Code itself would allow (`--allowedTools Bash(touch:*)`); toolrt's project policy denies
 * the first: it must not run, the second must.
 */
import { expect, test } from "bun:test";
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startFakeAnthropic } from "../../fixtures/fake-anthropic/server.ts";

const ENABLED = process.env.TOOLRT_E2E_CLAUDE === "1";
const ROOT = join(import.meta.dir, "../..");
const VERSION = "2.1.197";
const CLAUDE_DIR = join(ROOT, ".cache", `claude-code-${VERSION}`);
const CLAUDE = join(CLAUDE_DIR, "node_modules/.bin/claude");

function installClaude(): void {
  if (existsSync(CLAUDE)) return;
  mkdirSync(CLAUDE_DIR, { recursive: true });
  const npm = Bun.spawnSync(
    [
      "npm",
      "install",
      "--no-save",
      "--no-audit",
      "--no-fund",
      "--prefix",
      CLAUDE_DIR,
      `@anthropic-ai/claude-code@${VERSION}`,
    ],
  );
  if (npm.exitCode !== 0) throw new Error(`npm install of Claude Code failed: ${npm.stderr}`);
}

test.skipIf(!ENABLED)(
  "Claude Code does not run a Bash call toolrt denies, and runs the allowed one",
  async () => {
    installClaude();
    const root = mkdtempSync(join(tmpdir(), "toolrt-e2e-claude-"));
    const work = join(root, "work");
    const config = join(root, "claude-config");
    for (const dir of [work, config, join(work, ".toolrt")]) mkdirSync(dir, { recursive: true });
    writeFileSync(
      join(work, ".toolrt", "policy.json"),
      JSON.stringify({
        rules: [{
          id: "no-denied-marker",
          effect: "deny",
          match: "Bash(touch denied-marker.txt)",
          reason: "e2e",
        }],
      }),
    );
    const env = {
      PATH: process.env.PATH ?? "",
      HOME: root,
      CLAUDE_CONFIG_DIR: config,
      TOOLRT_HOME: join(root, "state"),
      ANTHROPIC_API_KEY: "sk-ant-test",
      DISABLE_AUTOUPDATER: "1",
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
    };
    const hook = `${process.execPath} ${join(ROOT, "src/cli/main.ts")} hook`;
    const install = Bun.spawnSync(
      [process.execPath, join(ROOT, "src/cli/main.ts"), "hook", "install", "--project", "--command", hook],
      { cwd: work, env },
    );
    expect(install.exitCode, install.stderr.toString()).toBe(0);

    const bash = (id: string, command: string) => ({
      content: [{ type: "tool_use" as const, id, name: "Bash", input: { command, description: command } }],
      stop_reason: "tool_use" as const,
    });
    const fake = startFakeAnthropic({
      turns: [
        { label: "denied call", ...bash("toolu_e2e_1", "touch denied-marker.txt") },
        {
          label: "allowed call",
          when: { lastMessageIncludes: "toolrt denied" },
          ...bash("toolu_e2e_2", "touch allowed-marker.txt"),
        },
        { label: "done", content: [{ type: "text", text: "done" }], stop_reason: "end_turn" },
      ],
    });
    try {
      const run = Bun.spawn(
        [
          CLAUDE,
          "-p",
          "make the markers",
          "--output-format",
          "stream-json",
          "--verbose",
          "--allowedTools",
          "Bash(touch:*)",
        ],
        { cwd: work, env: { ...env, ANTHROPIC_BASE_URL: fake.url }, stdout: "pipe", stderr: "pipe" },
      );
      const [out, err] = [await new Response(run.stdout).text(), await new Response(run.stderr).text()];
      await run.exited;
      const lines = out.split("\n").filter(Boolean).map((line) => JSON.parse(line));
      const results = lines.filter((l) => l.type === "user").flatMap((l) => l.message.content);
      for (const r of results) console.log(`tool_result ${r.tool_use_id}: ${JSON.stringify(r.content)}`);
      const final = lines.find((l) => l.type === "result");
      console.log(
        `result: ${final?.subtype}, permission_denials: ${JSON.stringify(final?.permission_denials)}`,
      );
      expect(fake.failures, err).toEqual([]);
      expect(existsSync(join(work, "denied-marker.txt")), "the denied command did not run").toBe(false);
      expect(existsSync(join(work, "allowed-marker.txt")), "the allowed command ran").toBe(true);
      expect(JSON.stringify(results[0])).toContain("toolrt denied this call");
      expect(fake.unplayed()).toEqual([]);
    } finally {
      await fake.close();
    }
  },
  120_000,
);
