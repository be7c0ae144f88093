import { z } from "zod";

export const SKILL_TOOL_NAME = "Skill";

// Field names as Claude Code's Skill tool takes them.
export const skillInputSchema = z.strictObject({
  skill: z.string().min(1).describe("The skill's name, as listed (plugin skills as `plugin:name`)"),
  args: z.string().optional().describe(
    "Optional arguments for the skill, passed along with its instructions",
  ),
});

export type SkillInput = z.infer<typeof skillInputSchema>;

export interface SkillOutput {
  name: string;
  source: string;
  path: string;
  allowedTools: string[];
  instructions: string;
  args?: string;
}
