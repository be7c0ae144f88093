/** The command line a host runs for toolrt's hook, and how toolrt recognises its own entries. */
import { basename, resolve } from "node:path";
import type { HostName } from "./types.ts";

const SAFE = /^[A-Za-z0-9_./:@%+,=-]+$/;

/**
 * This toolrt as a command: the compiled binary itself, or `bun …/src/cli/main.ts` from source.
 * Claude Code is the default host, so its entry has no `--host`.
 */
export function hookCommand(host: HostName, execPath = process.execPath): string {
  const self = basename(execPath).startsWith("bun")
    ? `${quote(execPath)} ${quote(resolve(import.meta.dir, "../cli/main.ts"))}`
    : quote(execPath);
  return host === "claude-code" ? `${self} hook` : `${self} hook --host ${host}`;
}

/** An entry toolrt wrote: this exact command, or any toolrt's `hook` invocation. */
export function isHookCommand(command: string, ours: string): boolean {
  return command === ours || /toolrt[^\s]*['"]?\s+hook(?:\s|$)/.test(command);
}

function quote(word: string): string {
  return SAFE.test(word) ? word : `'${word.replaceAll("'", `'\\''`)}'`;
}
