import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import type { SearchScope } from "../../src/policy/policy.ts";
import { scopeNote, searchableTools, UNRESTRICTED } from "../../src/search/scope.ts";
import { fakeTool, mcpTool } from "../helpers/fake-tools.ts";
import { sandbox } from "../policy/helpers.ts";

const tools = [
  fakeTool("WebFetch", { shouldDefer: true }),
  mcpTool("github", "create_issue"),
  mcpTool("slack", "post_message"),
  fakeTool("plugin_tool", { origin: { kind: "plugin", server: "lint" } }),
];
const names = (scope: SearchScope) => searchableTools(tools, scope).map((t) => t.name);
const scope = (s: Partial<SearchScope>): SearchScope => ({ ...UNRESTRICTED, setBy: ["p.json"], ...s });

describe("searchableTools", () => {
  test("each scope keeps its kind of tools; plugin tools only when everything is searchable", () => {
    expect(names(UNRESTRICTED)).toEqual(tools.map((t) => t.name));
    expect(names(scope({ builtins: false }))).toEqual([
      "mcp__github__create_issue",
      "mcp__slack__post_message",
    ]);
    expect(names(scope({ mcp: false }))).toEqual(["WebFetch"]);
    expect(names(scope({ builtins: false, mcp: false }))).toEqual([]);
  });

  test("a server list keeps only those servers' (and plugins') tools; built-ins stay", () => {
    expect(names(scope({ servers: ["slack"] }))).toEqual(["WebFetch", "mcp__slack__post_message"]);
    expect(names(scope({ servers: [] }))).toEqual(["WebFetch"]);
    expect(names(scope({ servers: ["lint"] }))).toEqual(["WebFetch", "plugin_tool"]);
  });

  test("a note says why nothing can be found, only when the policy emptied the list", () => {
    expect(scopeNote(scope({ mcp: false, builtins: false }), 0, 4)).toContain(
      "restricted by policy (p.json)",
    );
    expect(scopeNote(scope({ mcp: false }), 1, 4)).toBeUndefined();
    expect(scopeNote(UNRESTRICTED, 0, 4)).toBeUndefined();
    expect(scopeNote(scope({ mcp: false }), 0, 0)).toBeUndefined();
  });
});

describe("Policy.searchScope", () => {
  test("no file sets it: everything", () => {
    expect(sandbox().load().policy.searchScope()).toEqual({ builtins: true, mcp: true, setBy: [] });
  });

  test("files only narrow: a user file cannot widen what the managed policy allows", () => {
    const box = sandbox();
    const managed = box.write(join(box.managedDir, "managed-policy.json"), { tools: { search: "mcp-only" } });
    const user = box.write("home/.config/toolrt/policy.json", { tools: { search: "all" } });
    expect(box.load().policy.searchScope()).toEqual({ builtins: false, mcp: true, setBy: [managed, user] });
  });

  test("mcp-only and builtins-only together leave nothing; server lists intersect", () => {
    const box = sandbox();
    box.write(join(box.managedDir, "managed-policy.json"), {
      tools: { search: "mcp-only", searchServers: ["github", "slack"] },
    });
    const flag = box.write("flag.json", {
      tools: { search: "builtins-only", searchServers: ["slack", "jira"] },
    });
    const result = box.load({ flagFiles: [flag] }).policy.searchScope();
    expect(result).toMatchObject({ builtins: false, mcp: false, servers: ["slack"] });
  });

  test("an untrusted project file may narrow the scope (narrowing needs no trust)", () => {
    const box = sandbox();
    box.write("work/.toolrt/policy.json", { tools: { search: "none" } });
    expect(box.load().policy.searchScope()).toMatchObject({ builtins: false, mcp: false });
  });

  test("a broken policy file lets nothing be found (fail closed)", () => {
    const box = sandbox();
    box.write(join(box.managedDir, "managed-policy.json"), "{ not json");
    const result = box.load().policy.searchScope();
    expect(result).toMatchObject({ builtins: false, mcp: false });
    expect(result.setBy[0]).toContain("managed policy is broken");
  });

  test("an unknown scope is a positioned error naming the choices", () => {
    const box = sandbox();
    const flag = box.write("flag.json", { tools: { search: "some" } });
    const { errors } = box.load({ flagFiles: [flag] });
    expect(errors[0]?.message).toContain("flag.json:3:15");
    expect(errors[0]?.message).toContain('"all"');
  });
});
