/**
 * Shell commands as people read them: what an exit code means, and which commands only search,
 * read or list (those collapse into one summary line). A renderer-side heuristic on the command
 * text; the Bash analyzer's own classification replaces it where one is at hand.
 */
import type { ToolRenderer } from "../tool/types.ts";
import { clip, style } from "./style.ts";

export type CommandKind = "search" | "read" | "list";

const KINDS: Record<string, CommandKind> = {
  grep: "search",
  egrep: "search",
  fgrep: "search",
  rg: "search",
  ag: "search",
  ack: "search",
  find: "search",
  fd: "search",
  locate: "search",
  cat: "read",
  head: "read",
  tail: "read",
  less: "read",
  more: "read",
  wc: "read",
  nl: "read",
  jq: "read",
  stat: "read",
  file: "read",
  ls: "list",
  tree: "list",
  du: "list",
};

/** Filters that may follow a read or search in a pipe without changing what it is. */
const PIPE_FILTERS = new Set(["head", "tail", "sort", "uniq", "wc", "cut", "grep", "rg", "tr", "less"]);

/** What a command only does, or undefined when it may do more (write, run, redirect into a file). */
export function classifyCommand(command: string): CommandKind | undefined {
  if (/[;&`]|\$\(|>(?!&)|<\(/.test(command.replace(/2>&1|2>\/dev\/null/g, ""))) return undefined;
  const stages = command.split("|").map((s) => s.trim().split(/\s+/));
  const first = stages[0]!;
  const name = first[0] ?? "";
  const kind = name === "sed" ? (first.includes("-n") ? "read" : undefined) : KINDS[name];
  if (!kind || (name === "find" && first.some((w) => /^-(exec|execdir|delete|ok)$/.test(w)))) {
    return undefined;
  }
  return stages.slice(1).every((stage) => PIPE_FILTERS.has(stage[0] ?? "")) ? kind : undefined;
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

/** What a non-zero exit code means for this command. */
export function exitCodeMeaning(command: string, code: number): string {
  const name = command.trim().split(/\s+/)[0] ?? "";
  if (code === 1 && ["grep", "egrep", "fgrep", "rg", "ag", "ack"].includes(name)) return "no matches";
  if (code === 1 && (name === "diff" || name === "cmp")) return "the files differ";
  if (code === 1 && (name === "test" || name === "[")) return "the condition is false";
  if (code === 124 && name === "timeout") return "timed out";
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
export function isBenignExit(command: string, code: number): boolean {
  return code === 1 &&
    /^(grep|egrep|fgrep|rg|ag|ack|diff|cmp|test|\[)$/.test(command.trim().split(/\s+/)[0] ?? "");
}

interface BashInput {
  command: string;
  description?: string;
}

/**
 * The exit code of a finished command: Codex records it; Claude Code puts `Exit code N` at the top
 * of a failed result's text.
 */
export function exitCodeOf(output: unknown, text: string): number | undefined {
  const code = (output as { exitCode?: unknown } | undefined)?.exitCode;
  if (typeof code === "number") return code;
  const match = /^Exit code (\d+)/.exec(text);
  return match ? Number(match[1]) : undefined;
}

/** The Bash renderer used when no local Bash tool supplies its own. */
export const bashRenderer: ToolRenderer<BashInput, unknown> = {
  toolUse: (input, opts) => clip(`${style("Bash", "bold", opts)}(${input.command ?? ""})`, opts.columns),
  result: (output, input, opts) => {
    const o = (output ?? {}) as { stdout?: string; stderr?: string; interrupted?: boolean };
    const text = [o.stdout ?? "", o.stderr ?? ""].filter(Boolean).join("\n").trimEnd();
    const code = exitCodeOf(output, text);
    const lines = text ? [text] : ["(no output)"];
    if (o.interrupted) lines.push(style("interrupted", "yellow", opts));
    if (code !== undefined && code !== 0) {
      const color = isBenignExit(input.command ?? "", code) ? "dim" : "red";
      lines.push(style(`exit code ${code}: ${exitCodeMeaning(input.command ?? "", code)}`, color, opts));
    }
    return lines.join("\n");
  },
  rejected: (input, reason, opts) =>
    `${bashRenderer.toolUse(input, opts)} ${style(`rejected: ${reason}`, "yellow", opts)}`,
  error: (message, input, opts) => {
    const code = exitCodeOf(undefined, message);
    const output = message.replace(/^Exit code \d+\n?/, "").trimEnd();
    const status = code === undefined
      ? []
      : [style(`exit code ${code}: ${exitCodeMeaning(input.command ?? "", code)}`, "red", opts)];
    return [bashRenderer.toolUse(input, opts), output || "(no output)", ...status].join("\n");
  },
};
