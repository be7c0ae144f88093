import { describe, expect, test } from "bun:test";
import type { BashOutput } from "../../../src/tools/bash/schema.ts";
import { createBashTool } from "../../../src/tools/bash/tool.ts";

const bashTool = createBashTool();

const plain = { color: false, verbose: false, columns: 60 };
const output = (fields: Partial<BashOutput>): BashOutput => ({
  stdout: "",
  stderr: "",
  exitCode: 0,
  interrupted: false,
  durationMs: 5,
  isImage: false,
  noOutputExpected: false,
  ...fields,
});

describe("Bash renderer", () => {
  test("the tool-use line names the command and the description", () => {
    expect(bashTool.render.toolUse({ command: "npm test", description: "Run the tests" }, plain))
      .toBe("Bash(npm test) · Run the tests");
    expect(bashTool.render.toolUse({ command: "make\nmake install" }, plain)).toBe("Bash(make …)");
    expect(bashTool.render.toolUse({ command: "x".repeat(100) }, plain)).toHaveLength(60);
  });

  test("a failed result shows the output, the exit code and its meaning", () => {
    const rendered = bashTool.render.result(
      output({ stdout: "a\n", stderr: "b\n", exitCode: 2, exitMeaning: "bad usage" }),
      {},
      plain,
    );
    expect(rendered).toBe("a\nb\nExit code 2 (bad usage)");
  });

  test("long output shows its last lines and says how many are hidden", () => {
    const lines = Array.from({ length: 20 }, (_, i) => `line ${i + 1}`).join("\n");
    const rendered = bashTool.render.result(output({ stdout: lines }), {}, plain).split("\n");
    expect(rendered[0]).toBe("… 12 more lines above");
    expect(rendered.at(-1)).toBe("line 20");
    expect(bashTool.render.result(output({ stdout: lines }), {}, { ...plain, verbose: true }).split("\n"))
      .toHaveLength(20);
  });

  test("cut output points at the file with the whole output", () => {
    const rendered = bashTool.render.result(
      output({ stdout: "x", outputPath: "/state/tasks/bash-1.log" }),
      {},
      plain,
    );
    expect(rendered).toContain("Output cut; the whole output is in /state/tasks/bash-1.log");
  });

  test("colour marks a failure in red only when asked for", () => {
    const failed = output({ exitCode: 1 });
    expect(bashTool.render.result(failed, {}, { ...plain, color: true })).toContain("\x1b[31mExit code 1");
    expect(bashTool.render.result(failed, {}, plain)).not.toContain("\x1b[");
  });
});
