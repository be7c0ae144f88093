/** One line for a run of calls of the same tool: `Read 5 files: a.ts, b.ts, …`. */
import { clip, paint } from "./colour.ts";
import type { RenderOptions } from "../tool/types.ts";

export function groupedLine(
  verb: string,
  noun: { one: string; many: string },
  items: string[],
  opts: RenderOptions,
): string {
  const count = items.length === 1 ? `1 ${noun.one}` : `${items.length} ${noun.many}`;
  const head = `${paint(verb, "bold", opts)} ${count}`;
  if (items.length === 0) return head;
  return clip(`${head}: ${items.join(", ")}`, opts.columns);
}
