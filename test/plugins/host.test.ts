import { describe, expect, test } from "bun:test";
import { fakeTool } from "../helpers/fake-tools.ts";
import { harness, install, visibleNames, workspace } from "./helpers.ts";

describe("the plugin host as a tool source", () => {
  test("enable, disable and reload rebuild the pool through refreshPool", () => {
    const ws = workspace();
    install(ws, "typescript-lsp", { enable: false });
    const { pool, host, refreshes } = harness(ws);

    host.reload();
    expect(visibleNames(pool)).not.toContain("LSP");
    const before = refreshes();

    host.enable("typescript-lsp");
    expect(refreshes()).toBeGreaterThan(before);
    const lsp = pool.find("LSP");
    expect(lsp?.origin).toEqual({ kind: "plugin", server: "typescript-lsp" });
    // Plugin tools follow the built-ins, which stay a contiguous prefix.
    expect(pool.current.tools.indexOf(lsp!)).toBeGreaterThanOrEqual(pool.current.builtinCount);
    expect(lsp?.alwaysLoad).toBe(true);

    const afterEnable = refreshes();
    host.disable("typescript-lsp");
    expect(refreshes()).toBeGreaterThan(afterEnable);
    expect(visibleNames(pool)).not.toContain("LSP");
    expect(host.statuses[0]).toMatchObject({ name: "typescript-lsp", state: "disabled" });
  });

  test("a reload picks up a plugin installed meanwhile, and its skills reach the Skill tool", () => {
    const ws = workspace();
    const { pool, host, skills } = harness(ws);
    host.reload();
    expect(visibleNames(pool)).not.toContain("Skill");
    expect(pool.current.hidden.find((h) => h.name === "Skill")?.reason).toBe("the tool is not enabled here");

    install(ws, "review-kit", { scope: "project" });
    host.reload();
    expect(skills.list().map((s) => s.name)).toEqual(["review-kit:code-review"]);
    expect(visibleNames(pool)).toContain("Skill");
    expect(pool.find("Skill")?.prompt()).toContain("- review-kit:code-review: Review a change");
  });

  test("a plugin outside the managed allow-list never reaches the pool, whatever the workspace enabled", () => {
    const ws = workspace();
    install(ws, "typescript-lsp");
    install(ws, "review-kit");
    const { pool, host } = harness(ws, { allowedPlugins: ["review-kit"] });
    host.reload();
    expect(host.statuses.find((s) => s.name === "typescript-lsp")).toMatchObject({
      state: "blocked",
      reason: "not in the managed allow-list of plugins",
    });
    expect(visibleNames(pool)).not.toContain("LSP");
    expect(host.lsp.active).toBe(false);
    expect(host.active.map((p) => p.name)).toEqual(["review-kit"]);

    // Enabling again does not get around the list.
    host.enable("typescript-lsp");
    expect(visibleNames(pool)).not.toContain("LSP");
  });

  test("an empty allow-list blocks every plugin, its hooks, MCP servers, agents and skills included", () => {
    const ws = workspace();
    install(ws, "review-kit");
    const { host, skills } = harness(ws, { allowedPlugins: [] });
    host.reload();
    expect(host.mcpServers()).toEqual({ mcpServers: {} });
    expect(host.hooks()).toEqual({});
    expect(host.agents()).toEqual([]);
    expect(skills.list()).toEqual([]);
  });

  test("a plugin tool named like a built-in loses, and the clash is reported with the plugin's name", () => {
    const ws = workspace();
    install(ws, "typescript-lsp");
    const builtinLsp = fakeTool("LSP", { category: "read" });
    const { pool, host } = harness(ws, { builtins: [fakeTool("Read", { category: "read" }), builtinLsp] });
    host.reload();
    expect(pool.find("LSP")).toBe(builtinLsp);
    expect(pool.current.clashes).toEqual([{
      name: "LSP",
      kept: { kind: "builtin" },
      dropped: { kind: "plugin", server: "typescript-lsp" },
    }]);
  });

  test("a broken plugin is skipped with its problems; the others load", () => {
    const ws = workspace();
    install(ws, "broken-manifest");
    install(ws, "typescript-lsp");
    const { pool, host } = harness(ws);
    host.reload();
    const broken = host.statuses.find((s) => s.name === "broken-manifest");
    expect(broken?.state).toBe("broken");
    expect(broken?.problems.map((p) => p.field)).toEqual([
      "version",
      "lspServers.python.extensionToLanguage",
    ]);
    expect(visibleNames(pool)).toContain("LSP");
  });

  test("a project plugin shadows a user plugin of the same name", () => {
    const ws = workspace();
    install(ws, "review-kit", { scope: "user" });
    install(ws, "review-kit", { scope: "project" });
    const { host } = harness(ws);
    host.reload();
    expect(host.statuses.map((s) => [s.scope, s.state])).toEqual([["project", "enabled"], [
      "user",
      "shadowed",
    ]]);
  });

  test("enabling a plugin that is not installed is an error naming it", () => {
    const { host } = harness(workspace());
    expect(() => host.enable("nope")).toThrow("no plugin named nope is installed");
  });

  test("contributions are handed over in the shapes their owners read", () => {
    const ws = workspace();
    const root = install(ws, "review-kit");
    const { host } = harness(ws);
    host.reload();
    expect(Object.keys(host.mcpServers().mcpServers)).toEqual(["plugin_review-kit_tracker"]);
    expect(host.hooks().PostToolUse?.[0]).toEqual({
      matcher: "Edit|Write",
      hooks: [{ type: "command", command: `${root}/hooks/lint.sh`, timeout: 30 }],
    });
    expect(host.agents().map((a) => ({ name: a.name, plugin: a.plugin }))).toEqual([
      { name: "code-reviewer", plugin: "review-kit" },
    ]);
  });

  test("settings may declare language servers without any plugin", () => {
    const ws = workspace();
    const { pool, host } = harness(ws, {
      settingsLspServers: {
        ts: {
          command: "tsc",
          args: [],
          extensionToLanguage: { ".ts": "typescript" },
          restartOnCrash: true,
          maxRestarts: 3,
        },
      },
    });
    host.reload();
    expect(pool.find("LSP")?.origin).toEqual({ kind: "plugin", server: "settings" });
    expect(pool.current.tools.filter((t) => t.name === "LSP")).toHaveLength(1);
  });
});
