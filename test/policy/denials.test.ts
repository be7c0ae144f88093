import { describe, expect, test } from "bun:test";
import { DenialTracker } from "../../src/policy/denials.ts";
import type { Decision } from "../../src/policy/types.ts";

const denial = (rule: string): Decision => ({
  tool: "Bash",
  decision: "deny",
  reason: "r",
  matched: [{ source: "managed", file: "/m.json", rule, effect: "deny", id: "x" }],
  checks: [],
  warnings: [],
  suggestions: [],
  overridden: [],
  untrusted: [],
});

describe("denial tracking", () => {
  test("counts repeated denials per tool and rule, and guides from the second one", () => {
    const tracker = new DenialTracker();
    const push = denial("Bash(git push:*)");
    expect(tracker.record(push)).toBe(1);
    expect(tracker.guidance(push)).toBeUndefined();
    expect(tracker.record(push)).toBe(2);
    expect(tracker.guidance(push)).toBe(
      "Bash(git push:*) has now been denied 2 times in this session. Retrying will be denied again: do not " +
        "repeat this call or a variant of it. Reach the goal another way, or stop and ask the user how to proceed.",
    );
    expect(tracker.count(denial("Bash(rm:*)"))).toBe(0);
  });

  test("allows and asks are not counted", () => {
    const tracker = new DenialTracker();
    expect(tracker.record({ ...denial("Bash"), decision: "ask" })).toBe(0);
    expect(tracker.guidance({ ...denial("Bash"), decision: "allow" })).toBeUndefined();
  });
});
