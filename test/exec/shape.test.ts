import { describe, expect, test } from "bun:test";
import { existsSync, readFileSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { cleanupPersistedResults, persistResult, resultsDir } from "../../src/exec/persist.ts";
import {
  type BudgetedResult,
  enforceMessageBudget,
  GLOBAL_RESULT_CEILING_CHARS,
  shapeResult,
} from "../../src/exec/shape.ts";
import { tempDir } from "../helpers/session-context.ts";

const textOf = (blocks: { type: string; text?: string }[]) => blocks.map((b) => b.text ?? "").join("");

describe("shapeResult", () => {
  test("the global ceiling caps a tool that asks for more", () => {
    const stateDir = tempDir();
    const big = "y".repeat(GLOBAL_RESULT_CEILING_CHARS + 1);
    const shaped = shapeResult([{ type: "text", text: big }], 10_000_000, { stateDir, toolUseId: "t" });
    expect(shaped.persistedPath).toBeDefined();
    expect(readFileSync(shaped.persistedPath!, "utf8")).toBe(big);
  });
  test("images are kept beside the preview", () => {
    const stateDir = tempDir();
    const image = {
      type: "image" as const,
      source: { type: "base64" as const, media_type: "image/png", data: "AAAA" },
    };
    const shaped = shapeResult([{ type: "text", text: "z".repeat(2_000) }, image], 100, {
      stateDir,
      toolUseId: "t",
    });
    expect(shaped.content.at(-1)).toEqual(image);
  });
  test("a tool_use id cannot escape the results directory", () => {
    const stateDir = tempDir();
    const path = persistResult(stateDir, "../../etc/passwd", "x");
    expect(path.startsWith(resultsDir(stateDir))).toBe(true);
  });
});

describe("enforceMessageBudget", () => {
  test("parallel results over the total are persisted largest first until they fit", () => {
    const stateDir = tempDir();
    const results: BudgetedResult[] = [
      { toolUseId: "a", content: [{ type: "text" as const, text: "a".repeat(45_000) }] },
      { toolUseId: "b", content: [{ type: "text" as const, text: "b".repeat(49_000) }] },
      { toolUseId: "c", content: [{ type: "text" as const, text: "c".repeat(30_000) }] },
      { toolUseId: "d", content: [{ type: "text" as const, text: "d".repeat(48_000) }] },
      { toolUseId: "e", content: [{ type: "text" as const, text: "e".repeat(47_000) }] },
    ];
    enforceMessageBudget(results, stateDir, 200_000);
    expect(results.filter((r) => r.persistedPath).map((r) => r.toolUseId)).toEqual(["b"]);
    const total = results.reduce((sum, r) => sum + textOf(r.content).length, 0);
    expect(total).toBeLessThanOrEqual(200_000);
  });
  test("results within the budget are untouched", () => {
    const results = [{ toolUseId: "a", content: [{ type: "text" as const, text: "short" }] }];
    enforceMessageBudget(results, tempDir());
    expect(textOf(results[0]!.content)).toBe("short");
  });
});

describe("retention", () => {
  test("persisted results older than the retention period are removed, newer ones kept", () => {
    const stateDir = tempDir();
    const old = persistResult(stateDir, "old", "x");
    const fresh = persistResult(stateDir, "fresh", "y");
    const eightDaysAgo = (Date.now() - 8 * 24 * 3600 * 1000) / 1000;
    utimesSync(old, eightDaysAgo, eightDaysAgo);
    expect(cleanupPersistedResults(stateDir, 7)).toBe(1);
    expect(existsSync(old)).toBe(false);
    expect(existsSync(fresh)).toBe(true);
  });
  test("a state dir without results is fine", () => {
    expect(cleanupPersistedResults(join(tempDir(), "missing"))).toBe(0);
    writeFileSync(join(tempDir(), "x"), "");
  });
});
