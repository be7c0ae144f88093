/**
 * Denial tracking: repeated denials of the same tool and pattern in one session are counted, and
 * from the second one the pipeline appends guidance so the model changes approach.
 */
import type { Decision } from "./types.ts";

const GUIDANCE_THRESHOLD = 2;

export class DenialTracker {
  private readonly counts = new Map<string, number>();

  /** Counts a decision if it denied; returns how often this tool/pattern was denied so far. */
  record(decision: Decision): number {
    if (decision.decision !== "deny") return 0;
    const key = denialKey(decision);
    const count = (this.counts.get(key) ?? 0) + 1;
    this.counts.set(key, count);
    return count;
  }

  count(decision: Decision): number {
    return this.counts.get(denialKey(decision)) ?? 0;
  }

  /** Text to add to the tool result after a repeated denial, or undefined. */
  guidance(decision: Decision): string | undefined {
    const count = this.count(decision);
    if (decision.decision !== "deny" || count < GUIDANCE_THRESHOLD) return undefined;
    return denialGuidance(decision, count);
  }
}

/** The tool and the rule that denied (or the reason, when no rule did). */
function denialKey(decision: Decision): string {
  const rule = decision.matched[0];
  return `${decision.tool}\u0000${rule ? `${rule.source}:${rule.id}:${rule.rule}` : decision.reason}`;
}

export function denialGuidance(decision: Decision, count: number): string {
  const what = decision.matched[0]?.rule ?? decision.tool;
  return `${what} has now been denied ${count} times in this session. Retrying will be denied again: ` +
    "do not repeat this call or a variant of it. Reach the goal another way, or stop and ask the user " +
    "how to proceed.";
}
