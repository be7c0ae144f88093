/**
 * Subagent definitions a plugin ships: markdown files with frontmatter (`name`, `description`,
 * `tools`, `model`, ...) and the agent's instructions as body. toolrt only finds and checks them;
 * the agent runtime decides what to do with them.
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { parseFrontmatter } from "../tools/shared/frontmatter.ts";
import type { PluginProblem } from "./manifest.ts";

export interface AgentDefinition {
  /** The subagent type, as `Agent(<name>)` rules name it. */
  name: string;
  description: string;
  /** The plugin that ships it. */
  plugin: string;
  path: string;
  /** Every frontmatter field as written (tools, model, color, ...). */
  frontmatter: Record<string, unknown>;
}

/** The `.md` files at `path` (a file, or a directory's direct children). */
function markdownFiles(path: string): string[] {
  if (!existsSync(path)) return [];
  if (!statSync(path).isDirectory()) return path.endsWith(".md") ? [path] : [];
  return readdirSync(path).filter((f) => f.endsWith(".md")).sort().map((f) => join(path, f));
}

export function readAgents(
  paths: readonly string[],
  plugin: string,
): { agents: AgentDefinition[]; problems: PluginProblem[] } {
  const agents: AgentDefinition[] = [];
  const problems: PluginProblem[] = [];
  for (const file of paths.flatMap(markdownFiles)) {
    let frontmatter: Record<string, unknown>;
    try {
      frontmatter = parseFrontmatter(readFileSync(file, "utf8")).data;
    } catch (error) {
      problems.push({ file, field: "frontmatter", message: (error as Error).message });
      continue;
    }
    const { name, description } = frontmatter;
    if (typeof name !== "string" || name.trim() === "") {
      problems.push({ file, field: "name", message: "an agent needs a name (its subagent type)" });
    } else if (typeof description !== "string" || description.trim() === "") {
      problems.push({ file, field: "description", message: "say when the agent should be used" });
    } else {
      agents.push({ name: name.trim(), description: description.trim(), plugin, path: file, frontmatter });
    }
  }
  return { agents, problems };
}
