/** A ToolContext for tests, rooted in a fresh temp workspace with its own state dir. */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createToolContext } from "../../src/tool/context.ts";
import type { ToolContext } from "../../src/tool/types.ts";

export function tempDir(prefix = "toolrt-test-"): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

export function testContext(overrides: Partial<ToolContext> = {}): ToolContext {
  // A temp root only when the caller has not named both places.
  const root = overrides.cwd && overrides.stateDir ? "" : tempDir();
  return {
    ...createToolContext({
      cwd: join(root, "ws"),
      stateDir: join(root, "state"),
      mode: "default",
      invokedBy: "cli",
    }),
    ...overrides,
  };
}
