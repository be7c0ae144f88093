import { describe, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { projectSkillsDir } from "../../../src/plugins/locations.ts";
import { scanSkills } from "../../../src/tools/skill/catalog.ts";
import { SKILL_LISTING_BUDGET_CHARS, skillListing } from "../../../src/tools/skill/tool.ts";
import { harness, install, pluginSession, workspace } from "../../plugins/helpers.ts";

function writeSkill(cwd: string, dir: string, text: string): void {
  mkdirSync(join(projectSkillsDir(cwd), dir), { recursive: true });
  writeFileSync(join(projectSkillsDir(cwd), dir, "SKILL.md"), text);
}

const RELEASE =
  "---\nname: release\ndescription: Cut a release.\nallowed-tools:\n  - Bash\n  - Read\n---\n\nStep 1: tag.\n";

describe("skills", () => {
  test("workspace skills are scanned; broken ones are reported with file and field and left out", () => {
    const ws = workspace();
    writeSkill(ws.cwd, "release", RELEASE);
    writeSkill(ws.cwd, "vague", "---\nname: vague\n---\nno description");
    const scan = scanSkills(projectSkillsDir(ws.cwd), "project");
    expect(scan.skills.map((s) => [s.name, s.allowedTools, s.source])).toEqual([[
      "release",
      ["Bash", "Read"],
      "project",
    ]]);
    expect(scan.problems.map((p) => [p.file.endsWith("vague/SKILL.md"), p.field])).toEqual([[
      true,
      "description",
    ]]);
  });

  test("the Skill tool lists names and descriptions up front and loads the body on demand", async () => {
    const ws = workspace();
    writeSkill(ws.cwd, "release", RELEASE);
    install(ws, "review-kit");
    const ps = pluginSession(ws);
    const prompt = ps.pool.find("Skill")!.prompt();
    expect(prompt).toContain("- release: Cut a release.\n- review-kit:code-review: Review a change");
    expect(prompt).not.toContain("Step 1: tag.");

    const loaded = await ps.call("Skill", { skill: "release", args: "v2.0" });
    expect(loaded.isError).toBe(false);
    expect(loaded.text).toBe(
      '<skill name="release" source="project">\nStep 1: tag.\n</skill>\nTools this skill expects: Bash, Read.\nArguments: v2.0',
    );
    const plugin = await ps.call("Skill", { skill: "review-kit:code-review" });
    expect(plugin.text).toContain("1. Read every changed file completely.");
    await ps.session.close();
  });

  test("an unknown skill is an error listing the available ones", async () => {
    const ws = workspace();
    writeSkill(ws.cwd, "release", RELEASE);
    const ps = pluginSession(ws);
    const missing = await ps.call("Skill", { skill: "deploy" });
    expect(missing).toEqual({
      isError: true,
      text: '<tool_use_error>There is no skill named "deploy". Available: release.</tool_use_error>',
    });
    await ps.session.close();
  });

  test("the listing stays within its budget and counts what it left out", () => {
    const many = Array.from({ length: 400 }, (_, i) => ({
      name: `skill-${i}`,
      description: "does a fairly specific thing worth a sentence of description",
      allowedTools: [],
      path: "",
      source: "project",
    }));
    const listing = skillListing(many);
    expect(listing.length).toBeLessThan(SKILL_LISTING_BUDGET_CHARS + 100);
    expect(listing).toMatch(/- \.\.\. and \d+ more \(call Skill with a name to load it\)$/);
  });

  test("without any skill the tool is hidden", () => {
    const { pool, host } = harness(workspace());
    host.reload();
    expect(pool.find("Skill")).toBeUndefined();
  });
});
