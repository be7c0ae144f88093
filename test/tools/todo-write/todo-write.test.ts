import { describe, expect, test } from "bun:test";
import { todoWriteTool } from "../../../src/tools/todo-write/tool.ts";
import { callTool, makeContext, modelText, plainRender } from "../helpers.ts";

const item = (content: string, status: "pending" | "in_progress" | "completed") => ({
  content,
  status,
  activeForm: `${content}ing`,
});

describe("TodoWrite", () => {
  test("replaces the session list and returns the old one", async () => {
    const ctx = makeContext("/w");
    await callTool(todoWriteTool, { todos: [item("Plan", "in_progress")] }, ctx);
    const out = await callTool(todoWriteTool, {
      todos: [item("Plan", "completed"), item("Build", "in_progress")],
    }, ctx);
    if (!out.ok) throw new Error(out.message);
    expect(out.data.oldTodos).toEqual([item("Plan", "in_progress")]);
    expect(ctx.session.todos).toEqual([item("Plan", "completed"), item("Build", "in_progress")]);
    expect(out.text).toContain("2 items, 1 completed");
  });

  test("two items in progress are refused and the list stays as it was", async () => {
    const ctx = makeContext("/w");
    ctx.session.todos = [item("Keep", "pending")];
    const out = await callTool(
      todoWriteTool,
      { todos: [item("A", "in_progress"), item("B", "in_progress")] },
      ctx,
    );
    expect(out).toMatchObject({ ok: false, stage: "validation" });
    expect(modelText(out)).toContain("at most one in_progress");
    expect(ctx.session.todos).toEqual([item("Keep", "pending")]);
  });

  test("the schema wants content, activeForm and a known status", async () => {
    const ctx = makeContext("/w");
    for (
      const todos of [
        [{ content: "x", status: "pending" }],
        [{ content: "", status: "pending", activeForm: "x" }],
        [{ content: "x", status: "done", activeForm: "x" }],
      ]
    ) {
      expect(await callTool(todoWriteTool, { todos }, ctx)).toMatchObject({ ok: false, stage: "schema" });
    }
  });

  test("an empty list clears the todos", async () => {
    const ctx = makeContext("/w");
    ctx.session.todos = [item("Old", "pending")];
    expect((await callTool(todoWriteTool, { todos: [] }, ctx)).ok).toBe(true);
    expect(ctx.session.todos).toEqual([]);
  });

  test("contract: touches no file, but calls must not interleave; allowed without asking", async () => {
    const input = { todos: [] };
    expect(todoWriteTool.isReadOnly(input)).toBe(true);
    expect(todoWriteTool.isConcurrencySafe(input)).toBe(false);
    expect(todoWriteTool.isDestructive(input)).toBe(false);
    expect((await todoWriteTool.checkPermissions(input, makeContext("/w"))).behavior).toBe("allow");
  });

  test("renders a checklist, struck through and bold only with colour", () => {
    const output = {
      oldTodos: [],
      newTodos: [item("Done", "completed"), item("Now", "in_progress"), item("Later", "pending")],
    };
    expect(todoWriteTool.render.result(output, {}, plainRender)).toBe("[x] Done\n[~] Now\n[ ] Later");
    const coloured = todoWriteTool.render.result(output, {}, { ...plainRender, color: true });
    expect(coloured).toContain("\x1b[9m[x] Done");
    expect(coloured).toContain("\x1b[1m[~] Now");
  });
});
