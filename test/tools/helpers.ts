/** What the file-tool tests share: temp workspaces, a context, and a call the way the pipeline makes it. */
import { afterEach } from "bun:test";
import { mkdtempSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { AnyTool, ToolContext } from "../../src/tool/types.ts";
import { testContext } from "../helpers/session-context.ts";

const made: string[] = [];
afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A fresh directory (real path), removed after the test. */
export function tempDir(prefix = "toolrt-"): string {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), prefix)));
  made.push(dir);
  return dir;
}

export function makeContext(cwd: string, overrides: Partial<ToolContext> = {}): ToolContext {
  return testContext({ cwd, stateDir: join(cwd, ".state"), ...overrides });
}

export type CallOutcome =
  | { ok: true; data: any; text: string }
  | { ok: false; stage: "schema" | "validation" | "call"; message: string };

/** Schema parse, validateInput, then call, as the pipeline does; a failure says where it happened. */
export async function callTool(tool: AnyTool, input: unknown, ctx: ToolContext): Promise<CallOutcome> {
  const parsed = tool.inputSchema.safeParse(input);
  if (!parsed.success) return { ok: false, stage: "schema", message: parsed.error.message };
  const validation = await tool.validateInput(parsed.data, ctx);
  if (!validation.ok) return { ok: false, stage: "validation", message: validation.message };
  try {
    const result = await tool.call(parsed.data, ctx, () => {});
    const text = tool.toContent(result.data, parsed.data).map((b: any) => b.text ?? "").join("\n");
    return { ok: true, data: result.data, text };
  } catch (error) {
    return { ok: false, stage: "call", message: (error as Error).message };
  }
}

/** The outcome's text for success, its message for failure: what the model would read. */
export function modelText(outcome: CallOutcome): string {
  return outcome.ok ? outcome.text : outcome.message;
}

export const plainRender = { color: false, verbose: false, columns: 100 };
