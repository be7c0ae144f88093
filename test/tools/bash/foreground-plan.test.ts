import { describe, expect, test } from "bun:test";
import { foregroundPlan } from "../../../src/tools/bash/foreground-plan.ts";

const DEFAULT = 120_000;

describe("foregroundPlan", () => {
  const cases: [string, number | undefined, number | null, ReturnType<typeof foregroundPlan>][] = [
    ["defaults: the budget moves it to the background, nothing kills it", undefined, DEFAULT, {
      backgroundAfterMs: DEFAULT,
    }],
    ["a short budget (assistant mode) backgrounds early", undefined, 15_000, { backgroundAfterMs: 15_000 }],
    ["backgrounding off: the default timeout kills", undefined, null, { killAfterMs: DEFAULT }],
    ["a budget past the default timeout: the default timeout kills", undefined, 300_000, {
      killAfterMs: DEFAULT,
    }],
    ["an explicit timeout within the budget kills", 5_000, DEFAULT, { killAfterMs: 5_000 }],
    ["an explicit timeout equal to the budget kills", DEFAULT, DEFAULT, { killAfterMs: DEFAULT }],
    ["an explicit timeout past the budget: background first, killed at the timeout", 600_000, DEFAULT, {
      killAfterMs: 600_000,
      backgroundAfterMs: DEFAULT,
    }],
    ["an explicit timeout with backgrounding off kills", 600_000, null, { killAfterMs: 600_000 }],
  ];
  for (const [name, timeout, budget, expected] of cases) {
    test(name, () => {
      expect(foregroundPlan(timeout, DEFAULT, budget), `timeout ${timeout}, budget ${budget}`).toEqual(
        expected,
      );
    });
  }
});
