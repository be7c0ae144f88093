import { describe, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { agentDirs, loadAgentDefinitions, parseAgentFile } from "../../../src/agent/definitions.ts";
import { resolveModel } from "../../../src/agent/models.ts";
import { tempDir } from "../../helpers/session-context.ts";

describe("agent definitions", () => {
  test("frontmatter fields in their usual forms", () => {
    const inline = parseAgentFile(
      "---\nname: reviewer\ndescription: Reviews\ntools: Read, Grep\nmodel: haiku\n---\nBe brief.\n",
      "f",
    );
    expect(inline).toEqual({
      name: "reviewer",
      description: "Reviews",
      tools: ["Read", "Grep"],
      model: "haiku",
      systemPrompt: "Be brief.",
      source: "f",
    });
    const list = parseAgentFile('---\nname: a\ndescription: "x: y"\ntools:\n  - Read\n  - Bash\n---\n', "f");
    expect(list).toMatchObject({ description: "x: y", tools: ["Read", "Bash"] });
    const inherit = parseAgentFile(
      "---\nname: b\ndescription: d\ntools: [Read, '*']\nmodel: inherit\n---\n",
      "f",
    );
    expect(inherit).toMatchObject({ tools: "*" });
    expect(inherit).not.toHaveProperty("model");
  });

  test("what is wrong with a bad file is said, and the file is skipped", () => {
    expect(parseAgentFile("no frontmatter", "f")).toContain("no frontmatter");
    expect(parseAgentFile("---\ndescription: d\n---\n", "f")).toBe("frontmatter lacks `name`");
    expect(parseAgentFile("---\nname: a b\ndescription: d\n---\n", "f")).toContain("letters, digits");
  });

  test("project definitions replace user ones of the same name; general-purpose is always there", () => {
    const root = tempDir();
    const [user, project] = agentDirs(join(root, "ws"), { XDG_CONFIG_HOME: join(root, "config") });
    mkdirSync(user!, { recursive: true });
    mkdirSync(project!, { recursive: true });
    writeFileSync(join(user!, "r.md"), "---\nname: reviewer\ndescription: user's\n---\n");
    writeFileSync(join(project!, "r.md"), "---\nname: reviewer\ndescription: project's\n---\n");
    writeFileSync(join(project!, "bad.md"), "oops");
    const loaded = loadAgentDefinitions([user!, project!]);
    expect(loaded.definitions.map((d) => [d.name, d.description.split(" ")[0]])).toEqual([
      ["general-purpose", "General-purpose"],
      ["reviewer", "project's"],
    ]);
    expect(loaded.problems).toEqual([
      `${
        join(project!, "bad.md")
      }: no frontmatter: the file must start with a \`---\` block holding name and description`,
    ]);
  });

  test("model: the call's, else the definition's, else the parent's; aliases resolve", () => {
    expect(resolveModel(undefined, undefined, "parent-model")).toBe("parent-model");
    expect(resolveModel(undefined, "custom-1", "p")).toBe("custom-1");
    expect(resolveModel("haiku", "custom-1", "p", {})).toBe("claude-haiku-5-5");
    expect(resolveModel("opus", undefined, "p", { ANTHROPIC_DEFAULT_OPUS_MODEL: "gw-opus" })).toBe("gw-opus");
  });
});
