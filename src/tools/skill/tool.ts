/**
 * The Skill tool: the names and descriptions of the available skills ride in its prompt (so they
 * cost little on turn one); a call loads one skill's instructions. Offered only when skills exist.
 */
import { buildTool } from "../../tool/build-tool.ts";
import type { Tool } from "../../tool/types.ts";
import { ToolError } from "../shared/errors.ts";
import { readSkillBody, type SkillEntry } from "./catalog.ts";
import prompt from "./prompt.md" with { type: "text" };
import { SKILL_TOOL_NAME, type SkillInput, skillInputSchema, type SkillOutput } from "./schema.ts";

/** The prompt lists skills up to this many characters; the rest are named as a count. */
export const SKILL_LISTING_BUDGET_CHARS = 8000;

/** The current skills; the plugin host replaces them on every reload. */
export class SkillCatalog {
  #skills: SkillEntry[] = [];

  set(skills: readonly SkillEntry[]): void {
    this.#skills = [...skills].sort((a, b) => a.name.localeCompare(b.name));
  }

  list(): readonly SkillEntry[] {
    return this.#skills;
  }

  find(name: string): SkillEntry | undefined {
    return this.#skills.find((skill) => skill.name === name);
  }
}

export function skillListing(skills: readonly SkillEntry[]): string {
  const lines: string[] = [];
  let used = 0;
  for (const skill of skills) {
    const line = `- ${skill.name}: ${skill.description}`;
    if (used + line.length > SKILL_LISTING_BUDGET_CHARS) {
      lines.push(`- ... and ${skills.length - lines.length} more (call Skill with a name to load it)`);
      break;
    }
    lines.push(line);
    used += line.length + 1;
  }
  return lines.join("\n");
}

export function createSkillTool(catalog: SkillCatalog): Tool<SkillInput, SkillOutput> {
  return buildTool<SkillInput, SkillOutput>({
    name: SKILL_TOOL_NAME,
    category: "read",
    alwaysLoad: true,
    searchHint: "skill instructions playbook load",
    description: "Loads the instructions of a skill (a project's or plugin's task playbook) by name.",
    prompt: () => `${prompt}\nAvailable skills:\n${skillListing(catalog.list())}\n`,
    inputSchema: skillInputSchema,
    isEnabled: () => catalog.list().length > 0,
    isReadOnly: () => true,
    isConcurrencySafe: () => true,
    interruptBehavior: () => "cancel",
    async call(input) {
      const skill = catalog.find(input.skill) ?? catalog.find(input.skill.replace(/^\//, ""));
      if (!skill) {
        const names = catalog.list().map((s) => s.name).join(", ") || "none";
        throw new ToolError(`There is no skill named ${JSON.stringify(input.skill)}. Available: ${names}.`);
      }
      return {
        data: {
          name: skill.name,
          source: skill.source,
          path: skill.path,
          allowedTools: skill.allowedTools,
          instructions: readSkillBody(skill),
          ...(input.args ? { args: input.args } : {}),
        },
      };
    },
    toContent: (output) => [{ type: "text", text: skillContent(output) }],
    render: {
      toolUse: (input) => `Skill(${input.skill ?? ""})`,
      result: (output) => `Loaded skill ${output.name} (${output.instructions.length} chars)`,
    },
  });
}

function skillContent(output: SkillOutput): string {
  const notes = [
    output.allowedTools.length ? `Tools this skill expects: ${output.allowedTools.join(", ")}.` : "",
    output.args ? `Arguments: ${output.args}` : "",
  ].filter(Boolean);
  return [
    `<skill name="${output.name}" source="${output.source}">`,
    output.instructions,
    "</skill>",
    ...notes,
  ]
    .join("\n");
}
