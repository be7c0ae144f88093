/** Terminal styling through `node:util` styleText, and nothing at all when colour is off. */
import { styleText } from "node:util";

export type TextStyle = "bold" | "dim" | "red" | "green" | "yellow" | "cyan";

export function style(text: string, format: TextStyle, opts: { color: boolean }): string {
  return opts.color && text ? styleText(format, text, { validateStream: false }) : text;
}

/** Cuts a line to the terminal width with an ellipsis. */
export function clip(text: string, columns: number): string {
  const width = Math.max(columns, 20);
  return text.length <= width ? text : `${text.slice(0, width - 1)}…`;
}
