/**
 * The single list of built-in tools. Families behind `feature()` are decided at compile time:
 * a build without the flag does not contain their code at all.
 */
import { feature } from "bun:bundle";
import type { AnyTool } from "../tool/types.ts";
import { editTool } from "../tools/edit/tool.ts";
import { globTool } from "../tools/glob/tool.ts";
import { grepTool } from "../tools/grep/tool.ts";
import { readTool } from "../tools/read/tool.ts";
import { todoWriteTool } from "../tools/todo-write/tool.ts";
import { writeTool } from "../tools/write/tool.ts";

export function getAllBaseTools(): AnyTool[] {
  return [
    readTool,
    writeTool,
    editTool,
    globTool,
    grepTool,
    todoWriteTool,
    // Air-gapped builds ship without network tools: not hidden, absent from the binary. The
    // require() sits inside the gate so the bundler drops the module with the branch.
    ...(feature("AIRGAPPED") ? [] : [require("../tools/web-fetch/tool.ts").webFetchTool as AnyTool]),
  ];
}
