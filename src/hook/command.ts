/** The command lines toolrt writes for hosts to run, and how toolrt recognises its own entries. */
import { basename, resolve } from "node:path";
import type { HostName } from "./types.ts";

const SAFE = /^[A-Za-z0-9_./:@%+,=-]+$/;

/** This toolrt as argv: the compiled binary itself, or `bun …/src/cli/main.ts` from source. */
export function selfCommand(execPath = process.execPath): string[] {
  return basename(execPath).startsWith("bun")
    ? [execPath, resolve(import.meta.dir, "../cli/main.ts")]
    : [execPath];
}

/**
 * The hook entry's command. Claude Code is the default host, so its entry has no `--host`;
 * `sandbox` adds `--sandbox` (toolrt hook --sandbox).
 */
export function hookCommand(host: HostName, execPath = process.execPath, sandbox = false): string {
  return shellLine([
    ...selfCommand(execPath),
    "hook",
    ...(host === "claude-code" ? [] : ["--host", host]),
    ...(sandbox ? ["--sandbox"] : []),
  ]);
}

/** An entry toolrt wrote: this command with or without `--sandbox`, or any toolrt's `hook` invocation. */
export function isHookCommand(command: string, ours: string): boolean {
  const plain = (line: string) => line.replace(/ --sandbox$/, "");
  return plain(command) === plain(ours) || /toolrt[^\s]*['"]?\s+hook(?:\s|$)/.test(command);
}

/**
 * Words as one line for a POSIX shell: plain words as they are, every other word in single quotes
 * (inside which nothing is special but the quote itself, written `'\''`). Any text without NUL
 * comes out of the shell's parsing byte for byte: quotes, `$`, backslashes, newlines, `!`.
 */
export function shellLine(argv: readonly string[]): string {
  return argv.map((word) => SAFE.test(word) ? word : `'${word.replaceAll("'", `'\\''`)}'`).join(" ");
}
