/** How a person sees Bash calls: `Bash(npm test) · Run the tests`, then the output and how it ended. */
import type { RenderOptions, ToolRenderer } from "../../tool/types.ts";
import { statusLine } from "./content.ts";
import type { BashInput, BashOutput } from "./schema.ts";

/** Lines of each stream shown when not verbose. */
const PREVIEW_LINES = 8;

export const bashRenderer: Partial<ToolRenderer<BashInput, BashOutput>> = {
  toolUse: (input, opts) => {
    const call = `Bash(${firstLine(input.command ?? "")})`;
    const line = input.description ? `${call} · ${input.description}` : call;
    return clip(line, opts.columns);
  },
  result: (output, _input, opts) => {
    const lines = [...previewLines(output.stdout, opts), ...previewLines(output.stderr, opts)];
    if (output.outputPath && !output.backgroundTaskId) {
      lines.push(paint(`Output cut; the whole output is in ${output.outputPath}`, "dim", opts));
    }
    const status = statusLine(output);
    if (status) {
      lines.push(paint(status, output.exitCode === 0 || output.backgroundTaskId ? "dim" : "red", opts));
    }
    if (output.sandboxExplanation) lines.push(paint(output.sandboxExplanation, "red", opts));
    for (const notice of output.notices ?? []) lines.push(paint(notice, "dim", opts));
    if (lines.length === 0) lines.push(paint("(no output)", "dim", opts));
    return lines.join("\n");
  },
};

/** The output's lines, the last few unless verbose, with a note of how many were left out. */
export function previewLines(text: string, opts: RenderOptions): string[] {
  const trimmed = text.trimEnd();
  if (!trimmed) return [];
  const lines = trimmed.split("\n");
  if (opts.verbose || lines.length <= PREVIEW_LINES) return lines.map((line) => clip(line, opts.columns));
  const hidden = lines.length - PREVIEW_LINES;
  return [
    paint(`… ${hidden} more line${hidden === 1 ? "" : "s"} above`, "dim", opts),
    ...lines.slice(-PREVIEW_LINES).map((line) => clip(line, opts.columns)),
  ];
}

function firstLine(command: string): string {
  const [first = "", ...rest] = command.split("\n");
  return rest.length ? `${first} …` : first;
}

function clip(line: string, columns: number): string {
  return columns > 1 && line.length > columns ? `${line.slice(0, columns - 1)}…` : line;
}

const ANSI = { dim: "\x1b[2m", red: "\x1b[31m" } as const;

function paint(text: string, style: keyof typeof ANSI, opts: RenderOptions): string {
  return opts.color ? `${ANSI[style]}${text}\x1b[0m` : text;
}
