import { describe, expect, test } from "bun:test";
import { ToolPool } from "../../src/pool/tool-pool.ts";
import type { AssembledPool } from "../../src/pool/assemble.ts";
import { fakeTool, mcpTool } from "../helpers/fake-tools.ts";

const builtins = [fakeTool("Read", { category: "read" }), fakeTool("Bash", { category: "execute" })];
const names = (pool: AssembledPool) => pool.tools.map((t) => t.name);

describe("refreshPool: the one path", () => {
  test("a source connecting, changing and disconnecting rebuilds the pool each time", () => {
    const pool = new ToolPool(builtins, { mode: "default", denyRules: [] });
    const seen: string[][] = [];
    pool.onChange((p) => seen.push(names(p)));
    pool.setSource("mcp:github", [mcpTool("github", "a")]);
    pool.setSource("mcp:github", [mcpTool("github", "a"), mcpTool("github", "b")]);
    pool.removeSource("mcp:github");
    expect(seen).toEqual([
      ["Bash", "Read", "mcp__github__a"],
      ["Bash", "Read", "mcp__github__a", "mcp__github__b"],
      ["Bash", "Read"],
    ]);
  });
  test("a mode switch goes through the same path", () => {
    const pool = new ToolPool([...builtins, fakeTool("Edit", { category: "edit" })], {
      mode: "default",
      denyRules: [],
    });
    let rebuilds = 0;
    pool.onChange(() => rebuilds++);
    expect(names(pool.setOptions({ mode: "plan" }))).toEqual(["Bash", "Read"]);
    expect(names(pool.setOptions({ mode: "default" }))).toEqual(["Bash", "Edit", "Read"]);
    expect(rebuilds).toBe(2);
  });
  test("a new deny rule removes a tool that was visible", () => {
    const pool = new ToolPool(builtins, { mode: "default", denyRules: [] });
    pool.setSource("mcp:s", [mcpTool("s", "x")]);
    pool.setOptions({ denyRules: [{ rule: "mcp__s", source: "session" }] });
    expect(pool.find("mcp__s__x")).toBeUndefined();
  });
  test("sources are independent: replacing one keeps the other", () => {
    const pool = new ToolPool(builtins, { mode: "default", denyRules: [] });
    pool.setSource("mcp:a", [mcpTool("a", "x")]);
    pool.setSource("plugin:p", [fakeTool("Lint", { origin: { kind: "plugin", server: "p" } })]);
    pool.setSource("mcp:a", []);
    expect(names(pool.current)).toEqual(["Bash", "Read", "Lint"]);
  });
  test("an unsubscribed listener hears nothing more", () => {
    const pool = new ToolPool(builtins, { mode: "default", denyRules: [] });
    let calls = 0;
    const off = pool.onChange(() => calls++);
    pool.refreshPool();
    off();
    pool.refreshPool();
    expect(calls).toBe(1);
  });
});
