/**
 * Where a host's shell call really runs: the directory its tool input names (resolved against the
 * event's cwd), else the event's cwd. The workspace root stays as it is, so a directory outside it
 * makes the command's relative words reach outside.
 */
import { statSync } from "node:fs";
import { resolve } from "node:path";
import type { GlobalOptions } from "../cli/options.ts";
import { errorMessage } from "../tool/errors.ts";
import type { MappedCall } from "./types.ts";

/** The options to judge `call` with, or why the directory it runs in cannot be known. */
export function startOf(call: MappedCall, globals: GlobalOptions): GlobalOptions | { unreadable: string } {
  const { shellDir, ...workspace } = globals;
  if (call.tool !== "Bash") return globals;
  const named = call.runsIn;
  if (named && "unreadable" in named) {
    return { unreadable: `toolrt cannot tell where this command runs: ${named.unreadable}` };
  }
  const dir = resolve(shellDir ?? workspace.cwd, named?.dir ?? ".");
  if (dir === workspace.cwd) return workspace;
  try {
    if (!statSync(dir).isDirectory()) {
      return { unreadable: `this command would run in ${dir}, which is not a directory` };
    }
  } catch (error) {
    return {
      unreadable: `this command would run in ${dir}, which toolrt cannot read (${errorMessage(error)})`,
    };
  }
  return { ...workspace, shellDir: dir };
}
