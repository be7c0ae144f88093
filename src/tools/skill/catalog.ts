/**
 * Skills: markdown instruction bundles, one directory each with a `SKILL.md` whose frontmatter names
 * and describes it (`name`, `description`, `allowed-tools`). Only names and descriptions are read
 * up front; the body is read when the Skill tool loads it.
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { listField, parseFrontmatter } from "../shared/frontmatter.ts";

export interface SkillEntry {
  /** As the model calls it: `name` for workspace skills, `<plugin>:<name>` for plugin skills. */
  name: string;
  description: string;
  /** Tools the skill expects to use. Informational: loading a skill never widens permissions. */
  allowedTools: string[];
  /** The SKILL.md file. */
  path: string;
  /** `project` or the plugin's name. */
  source: string;
}

export interface SkillProblem {
  file: string;
  field: string;
  message: string;
}

export interface SkillScan {
  skills: SkillEntry[];
  problems: SkillProblem[];
}

const SKILL_FILE = "SKILL.md";
const SKILL_NAME = /^[a-z0-9][a-z0-9_-]*$/;

/**
 * The skills under `dir`: `dir/SKILL.md` itself, or every `dir/<skill>/SKILL.md`. A skill with a
 * broken frontmatter is reported and left out.
 */
export function scanSkills(dir: string, source: string, prefix = ""): SkillScan {
  const scan: SkillScan = { skills: [], problems: [] };
  if (!existsSync(dir) || !statSync(dir).isDirectory()) return scan;
  const files = existsSync(join(dir, SKILL_FILE))
    ? [join(dir, SKILL_FILE)]
    : readdirSync(dir).sort().map((entry) => join(dir, entry, SKILL_FILE)).filter((file) => existsSync(file));
  for (const file of files) {
    const read = readSkill(file, source, prefix);
    if ("skill" in read) scan.skills.push(read.skill);
    else scan.problems.push(...read.problems);
  }
  return scan;
}

function readSkill(
  file: string,
  source: string,
  prefix: string,
): { skill: SkillEntry } | { problems: SkillProblem[] } {
  let data: Record<string, unknown>;
  try {
    data = parseFrontmatter(readFileSync(file, "utf8")).data;
  } catch (error) {
    return { problems: [{ file, field: "frontmatter", message: (error as Error).message }] };
  }
  const name = data.name ?? basename(dirname(file));
  const problems: SkillProblem[] = [];
  if (typeof name !== "string" || !SKILL_NAME.test(name)) {
    problems.push({ file, field: "name", message: "lower-case letters, digits, `-` and `_`" });
  }
  if (typeof data.description !== "string" || data.description.trim() === "") {
    problems.push({
      file,
      field: "description",
      message: "say in a sentence what the skill is for and when to use it",
    });
  }
  if (problems.length) return { problems };
  return {
    skill: {
      name: `${prefix}${name as string}`,
      description: (data.description as string).trim(),
      allowedTools: listField(data["allowed-tools"]),
      path: file,
      source,
    },
  };
}

/** The skill's instructions, read now so edits made during a session are seen. */
export function readSkillBody(skill: SkillEntry): string {
  return parseFrontmatter(readFileSync(skill.path, "utf8")).body;
}
