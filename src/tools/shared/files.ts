/** Stat with the messages a model can act on: missing (with near names), directory, not a file. */
import type { Stats } from "node:fs";
import { stat } from "node:fs/promises";
import { dirname } from "node:path";
import { errnoCode, ToolError } from "./errors.ts";
import { similarNames } from "./similar-names.ts";

export async function statOrUndefined(path: string): Promise<Stats | undefined> {
  try {
    return await stat(path);
  } catch (error) {
    if (errnoCode(error) === "ENOENT" || errnoCode(error) === "ENOTDIR") return undefined;
    throw new ToolError(`Cannot access ${path} (${errnoCode(error) ?? "unknown error"}).`);
  }
}

async function missingPathMessage(path: string): Promise<string> {
  if (!(await statOrUndefined(dirname(path)))) {
    return `${path} does not exist, nor does its directory ${dirname(path)}.`;
  }
  const near = await similarNames(path);
  const hint = near.length ? ` Did you mean ${near.join(", ")}?` : "";
  return `${path} does not exist.${hint}`;
}

/** The stats of an existing regular file; a clear ToolError otherwise. */
export async function requireFile(path: string): Promise<Stats> {
  const stats = await statOrUndefined(path);
  if (!stats) throw new ToolError(await missingPathMessage(path));
  if (stats.isDirectory()) {
    throw new ToolError(`${path} is a directory, not a file. Use Glob or Bash \`ls\` to list it.`);
  }
  if (!stats.isFile()) throw new ToolError(`${path} is not a regular file.`);
  return stats;
}

/** The stats of an existing directory or file to search; a clear ToolError otherwise. */
export async function requireSearchRoot(path: string): Promise<Stats> {
  const stats = await statOrUndefined(path);
  if (!stats) throw new ToolError(await missingPathMessage(path));
  return stats;
}
