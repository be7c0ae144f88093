/**
 * Read/search/list classification of a whole command, for collapsed rendering ("Searched ...").
 * Every command must be in one of the groups and read-only (so `sed -n` reads, `sed -i` does not);
 * neutral commands (echo, printf) do not count.
 */
import type { Judged } from "./command.ts";
import type { BashAnalysis } from "./types.ts";

type Group = BashAnalysis["classification"];

const GROUPS: Record<string, Group> = {};
for (const name of "find grep egrep fgrep rg ag ack locate which whereis fd".split(" ")) {
  GROUPS[name] = "search";
}
for (const name of "cat head tail less more wc stat file jq awk cut sort uniq tr nl sed".split(" ")) {
  GROUPS[name] = "read";
}
for (const name of "ls tree du".split(" ")) GROUPS[name] = "list";
const NEUTRAL = new Set(["echo", "printf", "true", "false", ":"]);
const ORDER: Group[] = ["search", "read", "list"];

export function classify(judged: Judged[]): Group {
  const groups = new Set<Group>();
  for (const j of judged) {
    if (NEUTRAL.has(j.name)) continue;
    const group = GROUPS[j.name];
    if (group === undefined || !j.command.readOnly) return "other";
    groups.add(group);
  }
  return ORDER.find((g) => groups.has(g)) ?? "other";
}
