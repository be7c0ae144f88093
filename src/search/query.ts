/**
 * The ToolSearch query language:
 * - `select:Name1,Name2` loads tools by exact name, no search;
 * - `+term more words` keeps tools whose name contains `term` (any number of `+` terms), ranked
 *   by all the words;
 * - anything else is keywords or plain language.
 */

export type ParsedQuery =
  | { kind: "select"; names: string[] }
  | { kind: "search"; required: string[]; text: string };

const SELECT = /^\s*select\s*:/i;

export function parseQuery(query: string): ParsedQuery {
  const normalized = query.normalize("NFKC");
  if (SELECT.test(normalized)) {
    const names = normalized.replace(SELECT, "").split(",").map((name) => name.trim()).filter(Boolean);
    return { kind: "select", names: [...new Set(names)] };
  }
  const required: string[] = [];
  const words: string[] = [];
  for (const word of normalized.trim().split(/\s+/)) {
    if (word.startsWith("+") && word.length > 1) {
      const term = word.slice(1).toLowerCase();
      required.push(term);
      words.push(term);
    } else if (word !== "+") {
      words.push(word);
    }
  }
  return { kind: "search", required, text: words.join(" ") };
}
