/**
 * The real Claude Code for opt-in end-to-end tests (TOOLRT_E2E_CLAUDE=1): version 2.1.197 from the
 * npm registry, installed on first use into .cache/ (not a devDependency: everyone's `npm install`
 * stays small and CI never depends on it), run as `claude -p` against the fake Messages API on
 * 127.0.0.1 with toolrt's hook installed in a temporary project. Nothing reaches the network.
 */
import { expect } from "bun:test";
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ScriptTurn } from "../../fixtures/fake-anthropic/script.ts";
import { startFakeAnthropic } from "../../fixtures/fake-anthropic/server.ts";

export const E2E_ENABLED = process.env.TOOLRT_E2E_CLAUDE === "1";
const ROOT = join(import.meta.dir, "../..");
const VERSION = "2.1.197";
const CLAUDE_DIR = join(ROOT, ".cache", `claude-code-${VERSION}`);
const CLAUDE = join(CLAUDE_DIR, "node_modules/.bin/claude");
const TOOLRT = [process.execPath, join(ROOT, "src/cli/main.ts")];

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

export interface ClaudeProject {
  /** The temporary root: HOME, Claude Code's config and toolrt's state live under it. */
  root: string;
  /** The project Claude Code works in. */
  work: string;
  env: Record<string, string>;
}

/** A project with this toolrt policy and `toolrt hook <hookArgs>` installed as its Claude Code hook. */
export function claudeProject(policy: object, hookArgs: string[] = []): ClaudeProject {
  installClaude();
  const root = mkdtempSync(join(tmpdir(), "toolrt-e2e-claude-"));
  const work = join(root, "work");
  const config = join(root, "claude-config");
  for (const dir of [work, config, join(work, ".toolrt")]) mkdirSync(dir, { recursive: true });
  writeFileSync(join(work, ".toolrt", "policy.json"), JSON.stringify(policy));
  const env = {
    PATH: process.env.PATH ?? "",
    HOME: root,
    CLAUDE_CONFIG_DIR: config,
    TOOLRT_HOME: join(root, "state"),
    ANTHROPIC_API_KEY: "sk-ant-test",
    DISABLE_AUTOUPDATER: "1",
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
  };
  const hook = [...TOOLRT, "hook", ...hookArgs].join(" ");
  const install = Bun.spawnSync([...TOOLRT, "hook", "install", "--project", "--command", hook], {
    cwd: work,
    env,
  });
  expect(install.exitCode, install.stderr.toString()).toBe(0);
  return { root, work, env };
}

/** A model turn that calls Bash once. */
export function bashTurn(id: string, command: string, when?: ScriptTurn["when"]): ScriptTurn {
  return {
    label: command,
    ...(when ? { when } : {}),
    content: [{ type: "tool_use", id, name: "Bash", input: { command, description: command } }],
    stop_reason: "tool_use",
  };
}

export const DONE: ScriptTurn = {
  label: "done",
  content: [{ type: "text", text: "done" }],
  stop_reason: "end_turn",
};

/** Runs `claude -p` through the scripted turns; prints and returns each tool result and the final result. */
export async function runClaude(project: ClaudeProject, turns: ScriptTurn[], args: string[] = []) {
  const fake = startFakeAnthropic({ turns });
  try {
    const run = Bun.spawn(
      [
        join(CLAUDE_DIR, "node_modules/.bin/claude"),
        "-p",
        "do the task",
        "--output-format",
        "stream-json",
        "--verbose",
        ...args,
      ],
      {
        cwd: project.work,
        env: { ...project.env, ANTHROPIC_BASE_URL: fake.url },
        stdout: "pipe",
        stderr: "pipe",
      },
    );
    const [out, err] = [await new Response(run.stdout).text(), await new Response(run.stderr).text()];
    await run.exited;
    const lines = out.split("\n").filter(Boolean).map((line) => JSON.parse(line));
    const results = lines.filter((l) => l.type === "user").flatMap((l) => l.message.content);
    const inputs = lines.filter((l) => l.type === "assistant").flatMap((l) => l.message.content)
      .filter((c: { type: string }) => c.type === "tool_use");
    for (const r of results) console.log(`tool_result ${r.tool_use_id}: ${JSON.stringify(r.content)}`);
    const final = lines.find((l) => l.type === "result");
    console.log(
      `result: ${final?.subtype}, permission_denials: ${JSON.stringify(final?.permission_denials)}`,
    );
    expect(fake.failures, err).toEqual([]);
    expect(fake.unplayed(), "every scripted turn was played").toEqual([]);
    return { results, inputs, final, requests: fake.requests };
  } finally {
    await fake.close();
  }
}
