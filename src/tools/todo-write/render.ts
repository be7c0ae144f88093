import { paint } from "../../render/colour.ts";
import { toolLineRenderers } from "../../render/tool-line.ts";
import { plural } from "../../render/units.ts";
import type { RenderOptions, TodoItem, ToolRenderer } from "../../tool/types.ts";
import type { TodoWriteInput, TodoWriteOutput } from "./schema.ts";

const BOXES: Record<TodoItem["status"], string> = { pending: "[ ]", in_progress: "[~]", completed: "[x]" };

/** `[x] done`, `[~] in progress`, `[ ] pending`, one per line. */
function renderChecklist(todos: TodoItem[], opts: RenderOptions): string {
  if (todos.length === 0) return paint("(no todos)", "dim", opts);
  return todos.map((todo) => {
    const line = `${BOXES[todo.status]} ${todo.content}`;
    if (todo.status === "completed") return paint(paint(line, "strike", opts), "dim", opts);
    if (todo.status === "in_progress") return paint(line, "bold", opts);
    return line;
  }).join("\n");
}

export function todoContent(output: TodoWriteOutput): string {
  const done = output.newTodos.filter((t) => t.status === "completed").length;
  return `Todo list updated: ${plural(output.newTodos.length, "item")}, ${done} completed. ` +
    "Keep it current as you work, and carry on with the task in progress.";
}

export const todoWriteRenderer: Partial<ToolRenderer<TodoWriteInput, TodoWriteOutput>> = {
  ...toolLineRenderers<TodoWriteInput>("TodoWrite", (input) => plural(input.todos?.length ?? 0, "item")),
  result: (output, _input, opts) => renderChecklist(output.newTodos, opts),
};
