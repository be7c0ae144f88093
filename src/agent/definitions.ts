/**
 * Agent definitions: markdown files with a frontmatter (name, description, tools, model) whose
 * body is the subagent's system prompt. Read from the user dir (`$XDG_CONFIG_HOME/toolrt/agents`)
 * and then the project (`.toolrt/agents/`), so a project definition replaces a user one of the
 * same name. A file that cannot be read or parsed is reported and skipped, never fatal.
 */
import { readdirSync, readFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";

export interface AgentDefinition {
  name: string;
  description: string;
  /** Tool names the subagent gets; `"*"` for every tool of the parent. */
  tools: string[] | "*";
  /** A model id, an alias (sonnet, opus, haiku), or undefined / "inherit" for the parent's. */
  model?: string;
  systemPrompt: string;
  /** The file it came from; undefined for the built-in one. */
  source?: string;
}

export const GENERAL_PURPOSE: AgentDefinition = {
  name: "general-purpose",
  description:
    "General-purpose agent for researching questions, searching code and carrying out multi-step tasks.",
  tools: "*",
  systemPrompt:
    "You are a subagent. Do the task you are given with the tools you have, then report what you " +
    "found or did, briefly and concretely. Your report goes to the agent that started you.",
};

export interface LoadedDefinitions {
  definitions: AgentDefinition[];
  /** One line per skipped file: which file and what is wrong. */
  problems: string[];
}

export function agentDirs(cwd: string, env: NodeJS.ProcessEnv = process.env): string[] {
  const config = env.XDG_CONFIG_HOME || join(homedir(), ".config");
  return [join(config, "toolrt", "agents"), join(cwd, ".toolrt", "agents")];
}

/** The built-in definition, then the user's, then the project's; later ones replace by name. */
export function loadAgentDefinitions(dirs: readonly string[]): LoadedDefinitions {
  const byName = new Map<string, AgentDefinition>([[GENERAL_PURPOSE.name, GENERAL_PURPOSE]]);
  const problems: string[] = [];
  for (const dir of dirs) {
    for (const file of markdownFiles(dir)) {
      const parsed = parseAgentFile(readFileSync(file, "utf8"), file);
      if (typeof parsed === "string") problems.push(`${file}: ${parsed}`);
      else byName.set(parsed.name, parsed);
    }
  }
  return { definitions: [...byName.values()], problems };
}

function markdownFiles(dir: string): string[] {
  try {
    return readdirSync(dir).filter((f) => f.endsWith(".md")).sort().map((f) => join(dir, f));
  } catch {
    return [];
  }
}

/** The definition, or what is wrong with the file. */
export function parseAgentFile(text: string, source: string): AgentDefinition | string {
  const match = /^---\r?\n([\s\S]*?)\r?\n---\r?\n?([\s\S]*)$/.exec(text);
  if (!match) return "no frontmatter: the file must start with a `---` block holding name and description";
  const fields = parseFrontmatter(match[1]!);
  const name = scalar(fields.get("name"));
  const description = scalar(fields.get("description"));
  if (!name) return "frontmatter lacks `name`";
  if (!/^[A-Za-z0-9_-]+$/.test(name)) {
    return `name ${JSON.stringify(name)} may use only letters, digits, - and _`;
  }
  if (!description) return "frontmatter lacks `description`";
  const tools = fields.get("tools");
  const list = tools === undefined ? undefined : Array.isArray(tools) ? tools : tools.split(",");
  const names = list?.map((t) => t.trim()).filter(Boolean);
  const model = scalar(fields.get("model"));
  return {
    name,
    description,
    tools: !names || names.includes("*") ? "*" : names,
    ...(model && model !== "inherit" ? { model } : {}),
    systemPrompt: match[2]!.trim(),
    source,
  };
}

/** `key: value`, `key: [a, b]` and `key:` followed by `- item` lines. Enough for agent files. */
function parseFrontmatter(block: string): Map<string, string | string[]> {
  const fields = new Map<string, string | string[]>();
  let listKey: string | undefined;
  for (const line of block.split(/\r?\n/)) {
    const item = /^\s+-\s*(.+)$/.exec(line);
    if (item && listKey) {
      (fields.get(listKey) as string[]).push(unquote(item[1]!));
      continue;
    }
    const pair = /^([A-Za-z_][\w-]*)\s*:\s*(.*)$/.exec(line);
    if (!pair) continue;
    const [, key, value] = pair as unknown as [string, string, string];
    listKey = undefined;
    if (value === "") {
      fields.set(key, []);
      listKey = key;
    } else if (value.startsWith("[") && value.endsWith("]")) {
      fields.set(key, value.slice(1, -1).split(",").map(unquote).filter(Boolean));
    } else {
      fields.set(key, unquote(value));
    }
  }
  return fields;
}

function unquote(value: string): string {
  const v = value.trim();
  return /^(["']).*\1$/.test(v) ? v.slice(1, -1) : v;
}

function scalar(value: string | string[] | undefined): string | undefined {
  return typeof value === "string" && value !== "" ? value : undefined;
}
