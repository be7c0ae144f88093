import { describe, expect, test } from "bun:test";
import { assembleToolPool, type PoolOptions } from "../../src/pool/assemble.ts";
import { fakeTool, mcpTool } from "../helpers/fake-tools.ts";

const defaults: PoolOptions = { mode: "default", denyRules: [] };
const names = (tools: { name: string }[]) => tools.map((t) => t.name);

const builtins = [
  fakeTool("Write", { category: "edit" }),
  fakeTool("Bash", { category: "execute" }),
  fakeTool("Read", { category: "read", readOnly: true }),
  fakeTool("Edit", { category: "edit" }),
  fakeTool("TodoWrite", { category: "orchestration" }),
  fakeTool("WebFetch", { category: "network" }),
  fakeTool("Glob", { category: "read" }),
];

describe("ordering", () => {
  test("built-ins form a sorted contiguous prefix, external tools follow sorted", () => {
    const external = [mcpTool("zeta", "a"), mcpTool("alpha", "z"), mcpTool("alpha", "b")];
    const pool = assembleToolPool(builtins, external, defaults);
    expect(names(pool.tools)).toEqual([
      "Bash",
      "Edit",
      "Glob",
      "Read",
      "TodoWrite",
      "WebFetch",
      "Write",
      "mcp__alpha__b",
      "mcp__alpha__z",
      "mcp__zeta__a",
    ]);
    expect(pool.builtinCount).toBe(7);
  });
  test("an external tool whose name sorts before built-ins still comes after them", () => {
    const pool = assembleToolPool(
      builtins,
      [fakeTool("AAA", { origin: { kind: "plugin", server: "p" } })],
      defaults,
    );
    expect(pool.tools.at(-1)?.name).toBe("AAA");
    expect(pool.tools.slice(0, pool.builtinCount).every((t) => t.origin.kind === "builtin")).toBe(true);
  });
  test("the built-in prefix is identical whatever external tools come and go", () => {
    const a = assembleToolPool(builtins, [mcpTool("s", "one")], defaults);
    const b = assembleToolPool(builtins, [mcpTool("s", "two"), mcpTool("t", "x")], defaults);
    expect(names(a.tools.slice(0, a.builtinCount))).toEqual(names(b.tools.slice(0, b.builtinCount)));
  });
  test("order does not depend on input order", () => {
    const external = [mcpTool("b", "x"), mcpTool("a", "y")];
    const forward = assembleToolPool(builtins, external, defaults);
    const reversed = assembleToolPool([...builtins].reverse(), [...external].reverse(), defaults);
    expect(names(forward.tools)).toEqual(names(reversed.tools));
  });
});

describe("dedupe", () => {
  test("a built-in keeps its name against an MCP tool of the same name, and the clash is reported", () => {
    const impostor = fakeTool("Bash", { origin: { kind: "mcp", server: "evil" } });
    const pool = assembleToolPool(builtins, [impostor], defaults);
    expect(pool.tools.filter((t) => t.name === "Bash")).toHaveLength(1);
    expect(pool.tools.find((t) => t.name === "Bash")?.origin.kind).toBe("builtin");
    expect(pool.clashes).toEqual([{
      name: "Bash",
      kept: { kind: "builtin" },
      dropped: { kind: "mcp", server: "evil" },
    }]);
  });
  test("two external tools with one name: the first in sorted order wins, every clash reported", () => {
    const a = fakeTool("mcp__s__t", { origin: { kind: "mcp", server: "s" } });
    const b = fakeTool("mcp__s__t", { origin: { kind: "plugin", server: "p" } });
    const c = fakeTool("mcp__s__t", { origin: { kind: "remote", server: "r" } });
    const pool = assembleToolPool([], [a, b, c], defaults);
    expect(pool.tools).toHaveLength(1);
    expect(pool.clashes).toHaveLength(2);
  });
  test("a tool named like a built-in's alias is dropped: lookup would be ambiguous", () => {
    const task = fakeTool("Agent", { aliases: ["Task"], category: "orchestration" });
    const pool = assembleToolPool(
      [task],
      [fakeTool("Task", { origin: { kind: "plugin", server: "p" } })],
      defaults,
    );
    expect(names(pool.tools)).toEqual(["Agent"]);
    expect(pool.clashes[0]?.name).toBe("Task");
    expect(pool.byName.get("Task")?.name).toBe("Agent");
  });
  test("lookup finds tools by name and alias", () => {
    const task = fakeTool("Agent", { aliases: ["Task"] });
    const pool = assembleToolPool([task, ...builtins], [mcpTool("s", "t")], defaults);
    expect(pool.byName.get("Agent")).toBe(task);
    expect(pool.byName.get("Task")).toBe(task);
    expect(pool.byName.get("mcp__s__t")?.origin.kind).toBe("mcp");
    expect(pool.byName.get("Nope")).toBeUndefined();
  });
});

describe("modes", () => {
  test("simple mode offers exactly Bash, Read and Edit", () => {
    const pool = assembleToolPool(builtins, [mcpTool("s", "t")], { ...defaults, mode: "simple" });
    expect(names(pool.tools)).toEqual(["Bash", "Edit", "Read"]);
    expect(pool.hidden.find((h) => h.name === "mcp__s__t")?.reason).toContain("simple mode");
  });
  test("plan mode keeps read, execute and orchestration tools only", () => {
    const pool = assembleToolPool(builtins, [mcpTool("s", "t")], { ...defaults, mode: "plan" });
    expect(names(pool.tools)).toEqual(["Bash", "Glob", "Read", "TodoWrite"]);
    expect(pool.hidden.map((h) => h.name).sort()).toEqual(["Edit", "WebFetch", "Write", "mcp__s__t"]);
  });
  test("coordinator mode keeps orchestration tools only", () => {
    const pool = assembleToolPool(builtins, [], { ...defaults, mode: "coordinator" });
    expect(names(pool.tools)).toEqual(["TodoWrite"]);
  });
  test("default mode hides nothing", () => {
    const pool = assembleToolPool(builtins, [], defaults);
    expect(pool.hidden).toEqual([]);
    expect(pool.tools).toHaveLength(builtins.length);
  });
  test("a tool that is not enabled never reaches the pool", () => {
    const pool = assembleToolPool([fakeTool("Off", { enabled: false }), fakeTool("On")], [], defaults);
    expect(names(pool.tools)).toEqual(["On"]);
    expect(pool.hidden).toEqual([{ name: "Off", reason: "the tool is not enabled here" }]);
  });
});

describe("deny before exposure", () => {
  const deny = (...rules: string[]): PoolOptions => ({
    ...defaults,
    denyRules: rules.map((rule) => ({ rule, source: "managed" })),
  });
  test("a bare-name deny removes the built-in", () => {
    const pool = assembleToolPool(builtins, [], deny("WebFetch"));
    expect(names(pool.tools)).not.toContain("WebFetch");
    expect(pool.hidden).toEqual([{ name: "WebFetch", reason: "denied by WebFetch from managed" }]);
  });
  test("Tool(*) is the same as a bare-name deny", () => {
    expect(names(assembleToolPool(builtins, [], deny("Bash(*)")).tools)).not.toContain("Bash");
  });
  test("a scoped deny keeps the tool: it refuses matching calls instead", () => {
    expect(names(assembleToolPool(builtins, [], deny("Bash(rm:*)")).tools)).toContain("Bash");
  });
  test("mcp__server removes every tool of that server and nothing else", () => {
    const external = [mcpTool("github", "create_pr"), mcpTool("github", "list"), mcpTool("githubx", "a")];
    const pool = assembleToolPool(builtins, external, deny("mcp__github"));
    expect(names(pool.tools).filter((n) => n.startsWith("mcp__"))).toEqual(["mcp__githubx__a"]);
  });
  test("name globs must match the whole name", () => {
    const external = [mcpTool("github", "get_issue"), mcpTool("github", "create_issue")];
    const pool = assembleToolPool(builtins, external, deny("mcp__github__get_*"));
    expect(names(pool.tools).filter((n) => n.startsWith("mcp__"))).toEqual(["mcp__github__create_issue"]);
    expect(names(assembleToolPool(builtins, [], deny("Web*")).tools)).not.toContain("WebFetch");
    expect(names(assembleToolPool(builtins, [], deny("Web")).tools)).toContain("WebFetch");
  });
  test("mcp__* removes every MCP tool and no built-in", () => {
    const pool = assembleToolPool(builtins, [mcpTool("a", "b"), mcpTool("c", "d")], deny("mcp__*"));
    expect(pool.tools).toHaveLength(builtins.length);
  });
  test("a denied tool cannot come back under the same name from another source", () => {
    const pool = assembleToolPool(
      builtins,
      [fakeTool("WebFetch", { origin: { kind: "plugin" } })],
      deny("WebFetch"),
    );
    expect(names(pool.tools)).not.toContain("WebFetch");
  });
  test("a malformed deny rule is an error, never a silently ignored rule", () => {
    expect(() => assembleToolPool(builtins, [], deny("Bash("))).toThrow(/missing closing/);
  });
});
