/** Runs an agent end to end: the real SDK against the scripted fake Messages API on 127.0.0.1. */
import Anthropic from "@anthropic-ai/sdk";
import { join } from "node:path";
import { type Script } from "../../fixtures/fake-anthropic/script.ts";
import { type FakeAnthropic, startFakeAnthropic } from "../../fixtures/fake-anthropic/server.ts";
import { type AgentDefinition, GENERAL_PURPOSE } from "../../src/agent/definitions.ts";
import { startAgent } from "../../src/agent/start.ts";
import type { ResultLine, StreamJsonLine } from "../../src/agent/stream-json.ts";
import type { Policy } from "../../src/exec/permission.ts";
import { createSession } from "../../src/exec/session.ts";
import type { Asker } from "../../src/exec/types.ts";
import { ToolPool } from "../../src/pool/tool-pool.ts";
import type { AnyTool } from "../../src/tool/types.ts";
import { tempDir } from "../helpers/session-context.ts";
import { toolOnlyPolicy } from "../helpers/tool-only-policy.ts";

export interface ScriptedRun {
  result: ResultLine;
  lines: StreamJsonLine[];
  fake: FakeAnthropic;
  stateDir: string;
}

export interface ScriptedOptions {
  tools: AnyTool[];
  prompt?: string;
  policy?: Policy;
  ask?: Asker;
  definitions?: AgentDefinition[];
  maxTurns?: number;
  depth?: number;
  signal?: AbortSignal;
  /** Sees each line as it is emitted (to interrupt, or to open gates). */
  onLine?: (line: StreamJsonLine) => void;
}

export async function runScripted(script: Script, options: ScriptedOptions): Promise<ScriptedRun> {
  const fake = startFakeAnthropic(script);
  const root = tempDir("toolrt-agent-");
  const stateDir = join(root, "state");
  const lines: StreamJsonLine[] = [];
  try {
    const result = await startAgent({
      client: new Anthropic({ baseURL: fake.url, apiKey: "test-key", maxRetries: 0 }),
      model: "claude-test",
      prompt: options.prompt ?? "do the task",
      baseTools: options.tools,
      makePool: (tools) => new ToolPool(tools, { mode: "default", denyRules: [] }),
      openSession: (pool, agent) =>
        createSession({
          pool,
          policy: options.policy ?? toolOnlyPolicy,
          cwd: root,
          stateDir,
          mode: "default",
          invokedBy: "provider",
          audit: false,
          agent,
        }),
      definitions: options.definitions ?? [GENERAL_PURPOSE],
      stateDir,
      emit: (line) => {
        lines.push(line);
        options.onLine?.(line);
      },
      ask: options.ask,
      signal: options.signal,
      maxTurns: options.maxTurns,
      depth: options.depth,
      retryPolicy: { maxRetries: 3, baseDelayMs: 1, maxDelayMs: 5 },
    });
    return { result, lines, fake, stateDir };
  } finally {
    await fake.close();
  }
}

/** A promise with its resolver, for tools that wait on the test. */
export function gate<T = void>(): { promise: Promise<T>; open: (value: T) => void } {
  let open!: (value: T) => void;
  const promise = new Promise<T>((resolve) => (open = resolve));
  return { promise, open };
}

export function userResults(lines: StreamJsonLine[]) {
  return lines.flatMap((l) =>
    l.type === "user"
      ? (l.message.content as {
        type: string;
        tool_use_id: string;
        is_error: boolean;
        content: { text?: string }[];
      }[])
      : []
  );
}

export const text = (t: string) => ({ type: "text" as const, text: t });
export const use = (id: string, name: string, input: unknown = {}) => ({
  type: "tool_use" as const,
  id,
  name,
  input,
});
