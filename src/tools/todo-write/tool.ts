import { buildTool } from "../../tool/build-tool.ts";
import prompt from "./prompt.md" with { type: "text" };
import { todoContent, todoWriteRenderer } from "./render.ts";
import { type TodoWriteInput, todoWriteInputSchema, type TodoWriteOutput } from "./schema.ts";

export const todoWriteTool = buildTool<TodoWriteInput, TodoWriteOutput>({
  name: "TodoWrite",
  category: "orchestration",
  searchHint: "plan task list checklist progress",
  description: "Replaces the session's todo list, to plan and track multi-step work.",
  prompt: () => prompt,
  inputSchema: todoWriteInputSchema,
  // It changes session state only, nothing on the machine; calls replace one shared list, so they
  // must not interleave.
  isReadOnly: () => true,
  isConcurrencySafe: () => false,
  interruptBehavior: () => "cancel",
  checkPermissions: async (input) => ({ behavior: "allow", updatedInput: input }),
  async validateInput(input) {
    const active = input.todos.filter((t) => t.status === "in_progress").length;
    return active > 1
      ? { ok: false, message: `${active} todos are in_progress; keep at most one in_progress at a time.` }
      : { ok: true };
  },
  async call(input, ctx) {
    const oldTodos = ctx.session.todos;
    ctx.session.todos = input.todos.map((todo) => ({ ...todo }));
    return { data: { oldTodos, newTodos: ctx.session.todos } };
  },
  toContent: (output) => [{ type: "text", text: todoContent(output) }],
  render: todoWriteRenderer,
});
