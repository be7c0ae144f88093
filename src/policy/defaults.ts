/**
 * The shipped default rules by id, for `"disable"` lists: which ids exist, and which ids name the
 * catastrophe table's entries, which no policy file can turn off.
 */
import defaultPolicy from "../../policy/default.json" with { type: "json" };
import { CATASTROPHES } from "../bash/catastrophes.ts";

/** Ids of the rules in policy/default.json, in file order. */
const DEFAULT_RULE_IDS: readonly string[] = defaultPolicy.rules.map((rule) => rule.id);

/** Why `id` cannot be disabled, or undefined when it names a default rule that can. */
export function disableProblem(id: string): string | undefined {
  const catastrophe = CATASTROPHES.find((entry) => entry.id === id);
  if (catastrophe) {
    return `"${id}" is a catastrophic command (${catastrophe.name}): catastrophic commands are denied in ` +
      "every mode and cannot be disabled";
  }
  if (DEFAULT_RULE_IDS.includes(id)) return undefined;
  return `unknown default rule id "${id}"; the default rules are: ${DEFAULT_RULE_IDS.join(", ")}`;
}
