import { describe, expect, test } from "bun:test";
import { cpSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { loadPlugin } from "../../src/plugins/load.ts";
import { tempDir } from "../tools/helpers.ts";
import { FIXTURE_PLUGINS } from "./helpers.ts";

function pluginDir(manifest: unknown, files: Record<string, string> = {}, at = "plugin.json"): string {
  const root = tempDir("toolrt-manifest-");
  const all = { [at]: typeof manifest === "string" ? manifest : JSON.stringify(manifest), ...files };
  for (const [file, text] of Object.entries(all)) {
    mkdirSync(join(root, file, ".."), { recursive: true });
    writeFileSync(join(root, file), text);
  }
  return root;
}

function problems(root: string) {
  const load = loadPlugin(root, "user");
  if (load.ok) throw new Error("expected the plugin to be broken");
  return load.problems.map((p) => ({ ...p, file: p.file.slice(root.length + 1) }));
}

const LSP = { command: "tsc", args: ["--lsp", "--stdio"], extensionToLanguage: { ".ts": "typescript" } };

describe("plugin manifests", () => {
  test("the review-kit fixture loads every component, with plugin-root variables expanded", () => {
    const root = tempDir("toolrt-manifest-");
    cpSync(join(FIXTURE_PLUGINS, "review-kit"), root, { recursive: true });
    const load = loadPlugin(root, "project");
    if (!load.ok) throw new Error(JSON.stringify(load.problems));
    const plugin = load.plugin;
    expect(plugin).toMatchObject({ name: "review-kit", version: "0.3.0", scope: "project" });
    expect(plugin.mcpServers.tracker).toEqual({
      command: `${root}/bin/tracker-server`,
      args: ["--stdio"],
      env: { TRACKER_DATA: `${root}/data` },
    });
    expect(plugin.hooks.PostToolUse?.[0]?.hooks[0]?.command).toBe(`${root}/hooks/lint.sh`);
    expect(plugin.agents.map((a) => [a.name, a.frontmatter.model])).toEqual([["code-reviewer", "sonnet"]]);
    expect(plugin.skills.map((s) => [s.name, s.allowedTools])).toEqual([["review-kit:code-review", [
      "Read",
      "Grep",
    ]]]);
    expect(plugin.warnings.join("\n")).toContain("hook event SessionStart is not run by toolrt");
  });

  test("Claude Code's layout (.claude-plugin/plugin.json) is read too", () => {
    const root = pluginDir(
      { name: "cc", version: "1", lspServers: { ts: LSP } },
      {},
      ".claude-plugin/plugin.json",
    );
    const load = loadPlugin(root, "user");
    expect(load.ok && Object.keys(load.plugin.lspServers)).toEqual(["ts"]);
  });

  // Each case: manifest (and files), then the problems expected as "file field".
  const BROKEN: [string, unknown, Record<string, string>, string[]][] = [
    [
      "missing version and a server without extensions",
      {
        name: "x",
        lspServers: { py: { command: "pyright" } },
      },
      {},
      ["plugin.json version", "plugin.json lspServers.py.extensionToLanguage"],
    ],
    ["a name that cannot be a namespace", { name: "Bad Name", version: "1" }, {}, ["plugin.json name"]],
    [
      "an extension without its dot",
      {
        name: "x",
        version: "1",
        lspServers: { ts: { ...LSP, extensionToLanguage: { ts: "typescript" } } },
      },
      {},
      ["plugin.json lspServers.ts.extensionToLanguage.ts"],
    ],
    [
      "a component path leaving the plugin",
      { name: "x", version: "1", lspServers: "../elsewhere.json" },
      {},
      [
        "plugin.json lspServers",
      ],
    ],
    ["a component file that does not exist", { name: "x", version: "1", mcpServers: "./.mcp.json" }, {}, [
      "plugin.json mcpServers",
    ]],
    [
      "a problem inside a component file is reported in that file",
      {
        name: "x",
        version: "1",
        lspServers: "./.lsp.json",
      },
      { ".lsp.json": JSON.stringify({ ts: { ...LSP, command: "" } }) },
      [".lsp.json ts.command"],
    ],
    ["a broken MCP entry in a wrapped .mcp.json", { name: "x", version: "1", mcpServers: "./.mcp.json" }, {
      ".mcp.json": JSON.stringify({ mcpServers: { db: { args: ["x"] } } }),
    }, [".mcp.json mcpServers.db"]],
    [
      "a hook handler without a command",
      {
        name: "x",
        version: "1",
        hooks: { PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command" }] }] },
      },
      {},
      ["plugin.json hooks.PreToolUse.0.hooks.0.command"],
    ],
    ["an agent without a name", { name: "x", version: "1" }, {
      "agents/a.md": "---\ndescription: helps\n---\nbody",
    }, ["agents/a.md name"]],
    ["a skill with broken frontmatter", { name: "x", version: "1" }, {
      "skills/s/SKILL.md": "---\nname: [unclosed\n---\nbody",
    }, ["skills/s/SKILL.md frontmatter"]],
    ["not JSON at all", "{ name: ", {}, ["plugin.json (root)"]],
  ];

  test.each(BROKEN)("broken: %s", (_label, manifest, files, expected) => {
    const found = problems(pluginDir(manifest, files)).map((p) => `${p.file} ${p.field}`);
    expect(found, JSON.stringify(found)).toEqual(expected);
  });

  test("a directory without a manifest says so", () => {
    expect(problems(tempDir("toolrt-manifest-"))[0]?.message).toBe("no plugin.json in the plugin directory");
  });

  test("unknown fields are warnings, Claude Code metadata is accepted quietly", () => {
    const root = pluginDir({ name: "x", version: "1", license: "MIT", keywords: ["a"], lspServer: {} });
    const load = loadPlugin(root, "user");
    expect(load.ok && load.plugin.warnings).toEqual([
      `${root}/plugin.json: unknown field lspServer (ignored)`,
    ]);
  });
});
