/** The permission answer every file tool gives: no opinion inside the workspace, ask outside it. */
import { dirname } from "node:path";
import type { PermissionResult, ToolContext } from "../../tool/types.ts";
import { isInsideWorkspace } from "./paths.ts";

export type PathAccess = "read" | "write";

/**
 * Inside the working directories the tool passes the decision to policy and the mode; outside them
 * (symlinks followed) it asks, suggesting the rule that would allow the directory.
 */
export function checkWorkspaceAccess<Input>(
  path: string,
  ctx: ToolContext,
  access: PathAccess,
): PermissionResult<Input> {
  if (isInsideWorkspace(path, ctx)) return { behavior: "passthrough" };
  const dirs = [ctx.cwd, ...ctx.additionalDirs].join(", ");
  const verb = access === "read" ? "read from" : "write to";
  const ruleTool = access === "read" ? "Read" : "Edit";
  return {
    behavior: "ask",
    message: `Permission needed to ${verb} ${path}: it is outside the working directories (${dirs}).`,
    suggestions: [`${ruleTool}(/${dirname(path)}/**)`],
  };
}
