/**
 * Shell commands as people read them: what an exit code means, and which commands only search,
 * read or list (those collapse into one summary line) — both from the Bash analyzer.
 */
import { analyzeBashSync } from "../bash/analyze.ts";
import { interpretExitCode } from "../bash/semantics.ts";
import type { ToolRenderer } from "../tool/types.ts";
import { clip, paint } from "./colour.ts";

export type CommandKind = "search" | "read" | "list";

/**
 * What a command only does (the analyzer's classification), or undefined when it may do more.
 * Synchronous: once the parser is loaded every command is classified; before, only plain words.
 */
export function classifyCommand(command: string): CommandKind | undefined {
  const kind = analyzeBashSync(command).classification;
  return kind === "other" ? undefined : kind;
}

/** One line for a run of search/read/list commands: `Searched for 2 patterns, read 1 file`. */
export function collapsedSummary(kinds: readonly CommandKind[]): string {
  const count = (kind: CommandKind) => kinds.filter((k) => k === kind).length;
  const parts: string[] = [];
  const n = (k: number, one: string, many: string) => `${k} ${k === 1 ? one : many}`;
  if (count("search")) parts.push(`searched for ${n(count("search"), "pattern", "patterns")}`);
  if (count("read")) parts.push(`read ${n(count("read"), "file", "files")}`);
  if (count("list")) parts.push(`listed ${n(count("list"), "directory", "directories")}`);
  const text = parts.join(", ");
  return text.charAt(0).toUpperCase() + text.slice(1);
}

const SIGNALS: Record<number, string> = {
  1: "SIGHUP",
  2: "SIGINT",
  9: "SIGKILL",
  13: "SIGPIPE",
  15: "SIGTERM",
};

/** What a non-zero exit code means: the analyzer's meaning for this command, else the shell's. */
export function exitCodeMeaning(command: string, code: number): string {
  const specific = interpretExitCode(analyzeBashSync(command), code).meaning;
  if (specific) return specific;
  if (code === 124 && command.trim().startsWith("timeout ")) return "timed out";
  if (code === 126) return "not executable, or permission denied";
  if (code === 127) return "command not found";
  if (code > 128 && code < 160) {
    const signal = code - 128;
    return code === 130
      ? "interrupted (Ctrl-C)"
      : `killed by signal ${signal}${SIGNALS[signal] ? ` (${SIGNALS[signal]})` : ""}`;
  }
  if (code === 2) return "misuse, or a serious error";
  return "failed";
}

/** A quiet exit status is a result too: for grep, "no matches" is an answer, not a failure. */
function isBenignExit(command: string, code: number): boolean {
  return code !== 0 && !interpretExitCode(analyzeBashSync(command), code).isError;
}

interface BashInput {
  command: string;
  description?: string;
}

/**
 * The exit code of a finished command: Codex records it; Claude Code puts `Exit code N` at the top
 * of a failed result's text.
 */
function exitCodeOf(output: unknown, text: string): number | undefined {
  const code = (output as { exitCode?: unknown } | undefined)?.exitCode;
  if (typeof code === "number") return code;
  const match = /^Exit code (\d+)/.exec(text);
  return match ? Number(match[1]) : undefined;
}

/** The Bash renderer used when no local Bash tool supplies its own. */
export const bashRenderer: ToolRenderer<BashInput, unknown> = {
  toolUse: (input, opts) => clip(`${paint("Bash", "bold", opts)}(${input.command ?? ""})`, opts.columns),
  result: (output, input, opts) => {
    const o = (output ?? {}) as { stdout?: string; stderr?: string; interrupted?: boolean };
    const text = [o.stdout ?? "", o.stderr ?? ""].filter(Boolean).join("\n").trimEnd();
    const code = exitCodeOf(output, text);
    const lines = text ? [text] : ["(no output)"];
    if (o.interrupted) lines.push(paint("interrupted", "yellow", opts));
    if (code !== undefined && code !== 0) {
      const color = isBenignExit(input.command ?? "", code) ? "dim" : "red";
      lines.push(paint(`exit code ${code}: ${exitCodeMeaning(input.command ?? "", code)}`, color, opts));
    }
    return lines.join("\n");
  },
  rejected: (input, reason, opts) =>
    `${bashRenderer.toolUse(input, opts)} ${paint(`rejected: ${reason}`, "yellow", opts)}`,
  error: (message, input, opts) => {
    const code = exitCodeOf(undefined, message);
    const output = message.replace(/^Exit code \d+\n?/, "").trimEnd();
    const status = code === undefined
      ? []
      : [paint(`exit code ${code}: ${exitCodeMeaning(input.command ?? "", code)}`, "red", opts)];
    return [bashRenderer.toolUse(input, opts), output || "(no output)", ...status].join("\n");
  },
};
