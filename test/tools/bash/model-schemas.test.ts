import { describe, expect, test } from "bun:test";
import { createBashTool } from "../../../src/tools/bash/tool.ts";
import { createExecCommandTool } from "../../../src/tools/exec-command/tool.ts";
import { taskOutputTool } from "../../../src/tools/task-output/tool.ts";
import { taskStopTool } from "../../../src/tools/task-stop/tool.ts";
import { writeStdinTool } from "../../../src/tools/write-stdin/tool.ts";

const bashTool = createBashTool();
const execCommandTool = createExecCommandTool();

// A change to what the model sees is a reviewed diff of the snapshot.
describe("model-visible declarations of the process tools", () => {
  for (const tool of [bashTool, taskOutputTool, taskStopTool, execCommandTool, writeStdinTool]) {
    test(tool.name, () => {
      // As sent on the wire: JSON, not the in-memory object.
      const declaration = {
        name: tool.name,
        description: tool.description,
        input_schema: tool.inputJSONSchema(),
      };
      expect(JSON.parse(JSON.stringify(declaration))).toMatchSnapshot();
      expect(tool.prompt()).not.toContain("{{");
    });
  }
});
