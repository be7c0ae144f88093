import { z } from "zod";
import type { TodoItem } from "../../tool/types.ts";

const todoItemSchema = z.strictObject({
  content: z.string().min(1).describe('What to do, in the imperative: "Run the tests"'),
  status: z.enum(["pending", "in_progress", "completed"]),
  activeForm: z.string().min(1).describe('The same, as an ongoing action: "Running the tests"'),
});

export const todoWriteInputSchema = z.strictObject({
  todos: z.array(todoItemSchema).describe("The whole updated todo list"),
});

export type TodoWriteInput = z.infer<typeof todoWriteInputSchema>;

export interface TodoWriteOutput {
  oldTodos: TodoItem[];
  newTodos: TodoItem[];
}
