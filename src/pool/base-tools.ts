/**
 * The single list of built-in tools. Families behind `feature()` are decided at compile time:
 * a build without the flag does not contain their code at all.
 */
import { feature } from "bun:bundle";
import type { AnyTool } from "../tool/types.ts";
import type { ProcessToolOptions } from "../tools/bash/options.ts";
import { createBashTool } from "../tools/bash/tool.ts";
import { createExecCommandTool } from "../tools/exec-command/tool.ts";
import { editTool } from "../tools/edit/tool.ts";
import { globTool } from "../tools/glob/tool.ts";
import { grepTool } from "../tools/grep/tool.ts";
import { readTool } from "../tools/read/tool.ts";
import { taskOutputTool } from "../tools/task-output/tool.ts";
import { taskStopTool } from "../tools/task-stop/tool.ts";
import { todoWriteTool } from "../tools/todo-write/tool.ts";
import { writeTool } from "../tools/write/tool.ts";
import { writeStdinTool } from "../tools/write-stdin/tool.ts";

/**
 * Every built-in tool. The process tools (Bash, ExecCommand) are made with `options`: without a
 * `wrapLaunch` they run commands as they are; the runtime passes the session's sandbox wrapper.
 */
export function getAllBaseTools(options: ProcessToolOptions = {}): AnyTool[] {
  return [
    createBashTool(options),
    taskOutputTool,
    taskStopTool,
    createExecCommandTool(options),
    writeStdinTool,
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
