import { describe, expect, test } from "bun:test";
import { z } from "zod";
import { buildTool, DEFAULT_MAX_RESULT_SIZE_CHARS, TOOL_DEFAULTS } from "../../src/tool/build-tool.ts";
import type { ToolContext } from "../../src/tool/types.ts";

const minimal = buildTool({
  name: "Probe",
  description: "probe",
  prompt: () => "probe prompt",
  inputSchema: z.object({ path: z.string(), count: z.number().int().optional() }),
  call: async () => ({ data: "ran" }),
});

const ctx = {} as ToolContext;

describe("buildTool fail-closed defaults", () => {
  test("a tool that says nothing is not read-only", () => {
    expect(minimal.isReadOnly({ path: "x" })).toBe(false);
  });
  test("a tool that says nothing is not concurrency-safe", () => {
    expect(minimal.isConcurrencySafe({ path: "x" })).toBe(false);
  });
  test("a tool that says nothing is not destructive-flagged but also not auto-approved", async () => {
    expect(minimal.isDestructive({ path: "x" })).toBe(false);
    expect(await minimal.checkPermissions({ path: "x" }, ctx)).toEqual({ behavior: "passthrough" });
  });
  test("validation passes by default and the tool is enabled", async () => {
    expect(await minimal.validateInput({ path: "x" }, ctx)).toEqual({ ok: true });
    expect(minimal.isEnabled()).toBe(true);
  });
  test("interrupts block by default: a half-done write is never cut off unasked", () => {
    expect(minimal.interruptBehavior()).toBe("block");
  });
  test("origin is builtin, category other, no aliases, not deferred, not always-load", () => {
    expect(minimal.origin).toEqual({ kind: "builtin" });
    expect(minimal.category).toBe("other");
    expect(minimal.aliases).toEqual([]);
    expect(minimal.shouldDefer).toBe(false);
    expect(minimal.alwaysLoad).toBe(false);
    expect(minimal.isTransparentWrapper).toBe(false);
  });
  test("the result budget defaults to the global ceiling", () => {
    expect(minimal.maxResultSizeChars).toBe(DEFAULT_MAX_RESULT_SIZE_CHARS);
    expect(TOOL_DEFAULTS.maxResultSizeChars).toBe(50_000);
  });
  test("explicit answers override the defaults", () => {
    const readOnly = buildTool({
      name: "Look",
      description: "look",
      prompt: () => "",
      inputSchema: z.object({ deep: z.boolean() }),
      call: async () => ({ data: null }),
      isReadOnly: (input) => !input.deep,
      isConcurrencySafe: () => true,
    });
    expect(readOnly.isReadOnly({ deep: false })).toBe(true);
    expect(readOnly.isReadOnly({ deep: true })).toBe(false);
    expect(readOnly.isConcurrencySafe({ deep: true })).toBe(true);
  });
});

describe("schemas", () => {
  test("the JSON Schema comes from the zod schema, without $schema", () => {
    const schema = minimal.inputJSONSchema();
    expect(schema.$schema).toBeUndefined();
    expect(schema.type).toBe("object");
    expect(schema.required).toEqual(["path"]);
    expect(Object.keys(schema.properties as object)).toEqual(["path", "count"]);
  });
  test("a supplied JSON Schema (as MCP tools have) is passed through unchanged", () => {
    const raw = { type: "object", properties: { q: { type: "string" } }, additionalProperties: false };
    const tool = buildTool({
      name: "mcp__s__t",
      description: "",
      prompt: () => "",
      inputSchema: z.any(),
      inputJSONSchema: () => raw,
      call: async () => ({ data: null }),
    });
    expect(tool.inputJSONSchema()).toBe(raw);
  });
});

describe("results and rendering", () => {
  test("output becomes text content: strings as is, objects as JSON", () => {
    expect(minimal.toContent("hello" as never, { path: "x" })).toEqual([{ type: "text", text: "hello" }]);
    expect(minimal.toContent({ a: 1 } as never, { path: "x" })[0]).toEqual({
      type: "text",
      text: '{\n  "a": 1\n}',
    });
  });
  test("default renderers name the tool and summarise the first string input", () => {
    const opts = { color: false, verbose: false, columns: 80 };
    expect(minimal.render.toolUse({ path: "src/a.ts" }, opts)).toBe("Probe(src/a.ts)");
    expect(minimal.render.rejected({ path: "a" }, "denied by rule", opts)).toBe(
      "Probe(a) rejected: denied by rule",
    );
    expect(minimal.render.error("boom", {}, opts)).toBe("Error: boom");
    expect(minimal.render.toolUse({ path: "x".repeat(200) }, opts).length).toBeLessThan(100);
  });
  test("a tool's own renderer replaces only what it defines", () => {
    const tool = buildTool({
      name: "Custom",
      description: "",
      prompt: () => "",
      inputSchema: z.object({}),
      call: async () => ({ data: null }),
      render: { toolUse: () => "custom!" },
    });
    const opts = { color: false, verbose: false, columns: 80 };
    expect(tool.render.toolUse({}, opts)).toBe("custom!");
    expect(tool.render.error("x", {}, opts)).toBe("Error: x");
  });
  test("ToolResult may carry extra messages and a context modifier", async () => {
    const tool = buildTool({
      name: "Mod",
      description: "",
      prompt: () => "",
      inputSchema: z.object({}),
      call: async () => ({
        data: "ok",
        newMessages: [{ role: "user" as const, content: [{ type: "text" as const, text: "note" }] }],
        contextModifier: (c: ToolContext) => ({ ...c, cwd: "/changed" }),
      }),
    });
    const result = await tool.call({}, ctx, () => {});
    expect(result.newMessages?.[0]?.content).toEqual([{ type: "text", text: "note" }]);
    expect(result.contextModifier?.({ cwd: "/a" } as ToolContext).cwd).toBe("/changed");
  });
});
