/** Markdown with a YAML frontmatter block (`---` lines around it), as skills and agent files are written. */

export interface FrontmatterDocument {
  data: Record<string, unknown>;
  body: string;
}

/** Splits and parses; a file without frontmatter has empty data. Throws on broken YAML. */
export function parseFrontmatter(text: string): FrontmatterDocument {
  const match = /^---\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)/.exec(text.replace(/^\uFEFF/, ""));
  if (!match) return { data: {}, body: text.trim() };
  const parsed = match[1]!.trim() === "" ? {} : Bun.YAML.parse(match[1]!);
  if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) {
    throw new Error("the frontmatter is not a set of `key: value` lines");
  }
  return { data: parsed as Record<string, unknown>, body: text.slice(match[0].length).trim() };
}

/** A frontmatter list written either as YAML list or as one comma-separated string. */
export function listField(value: unknown): string[] {
  if (Array.isArray(value)) return value.map(String).map((s) => s.trim()).filter(Boolean);
  if (typeof value === "string") return value.split(",").map((s) => s.trim()).filter(Boolean);
  return [];
}
