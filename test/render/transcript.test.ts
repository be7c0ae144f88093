import { beforeAll, describe, expect, test } from "bun:test";
import { z } from "zod";
import { loadBashParser } from "../../src/bash/parser.ts";
import type { Transcript } from "../../src/remote/transcript.ts";
import { classifyCommand, exitCodeMeaning } from "../../src/render/bash.ts";
import { renderTranscript } from "../../src/render/transcript.ts";
import { buildTool } from "../../src/tool/build-tool.ts";
import type { AnyTool } from "../../src/tool/types.ts";

const opts = { color: false, verbose: false, columns: 100 };

// Shell commands are classified by the analyzer; `toolrt render` loads its parser first too.
beforeAll(() => loadBashParser());

const readTool: AnyTool = buildTool({
  name: "Read",
  description: "reads",
  prompt: () => "reads",
  inputSchema: z.object({ file_path: z.string() }),
  outputSchema: z.object({ lines: z.number() }),
  call: async () => ({ data: { lines: 1 } }),
  render: {
    toolUse: (input) => `Read(${input.file_path})`,
    result: (output: { lines: number }) => `Read ${output.lines} lines`,
    grouped: (inputs) => `Read ${inputs.length} files: ${inputs.map((i) => i.file_path).join(", ")}`,
  },
});

function calls(...entries: [string, string, unknown, string, boolean?, unknown?][]): Transcript {
  return {
    source: "claude-code",
    messages: entries.flatMap(([id, name, input, out, isError, output]) => [
      { role: "assistant" as const, content: [{ type: "tool_use" as const, id, name, input }] },
      {
        role: "user" as const,
        content: [{
          type: "tool_result" as const,
          tool_use_id: id,
          content: [{ type: "text" as const, text: out }],
          is_error: isError ?? false,
        }],
        ...(output !== undefined ? { toolOutputs: { [id]: output } } : {}),
      },
    ]),
  };
}

describe("renderTranscript", () => {
  test("consecutive calls of a tool with a grouped renderer collapse into one line", () => {
    const text = renderTranscript(
      calls(["1", "Read", { file_path: "a.ts" }, "x"], ["2", "Read", { file_path: "b.ts" }, "y"]),
      { ...opts, tools: [readTool] },
    );
    expect(text).toBe("● Read 2 files: a.ts, b.ts");
  });

  test("a failed call breaks the group and is shown on its own", () => {
    const text = renderTranscript(
      calls(["1", "Read", { file_path: "a.ts" }, "x"], ["2", "Read", { file_path: "b.ts" }, "missing", true]),
      { ...opts, tools: [readTool] },
    );
    expect(text.split("\n")).toEqual(["● Read(a.ts)", "  ⎿  x", "● Error: missing"]);
  });

  test("a remote output the local schema rejects is shown as its text", () => {
    const text = renderTranscript(
      calls(["1", "Read", { file_path: "a.ts" }, "remote text", false, { type: "text", file: {} }]),
      { ...opts, tools: [readTool] },
    );
    expect(text).toBe("● Read(a.ts)\n  ⎿  remote text");
  });

  test("an unknown tool renders as a stub with its name and input", () => {
    const text = renderTranscript(calls(["1", "mcp__x__go", { a: 1 }, "went"]), { ...opts, tools: [] });
    expect(text).toBe('● mcp__x__go {"a":1}\n  ⎿  went');
  });

  test("search and read commands collapse; other commands show output and exit code meaning", () => {
    const text = renderTranscript(
      calls(
        ["1", "Bash", { command: "rg foo src" }, "src/a:1:foo", false, { stdout: "src/a:1:foo" }],
        ["2", "Bash", { command: "cat README.md | head -5" }, "hi", false, { stdout: "hi" }],
        ["3", "Bash", { command: "npm test" }, "Exit code 1\nFAIL", true, "Error: Exit code 1\nFAIL"],
      ),
      { ...opts, tools: [] },
    );
    expect(text.split("\n")).toEqual([
      "● Searched for 1 pattern, read 1 file (rg foo src · cat README.md | head -5)",
      "● Bash(npm test)",
      "  ⎿  FAIL",
      "     exit code 1: failed",
    ]);
  });

  test("a renderer that throws falls back instead of failing the transcript", () => {
    const broken = buildTool({
      name: "Broken",
      description: "b",
      prompt: () => "b",
      inputSchema: z.object({}),
      call: async () => ({ data: "" }),
      render: {
        toolUse: () => {
          throw new Error("boom");
        },
      },
    });
    expect(renderTranscript(calls(["1", "Broken", {}, "fine"]), { ...opts, tools: [broken] })).toBe(
      "● Broken(…)\n  ⎿  fine",
    );
  });

  test("long results are cut to a preview unless verbose", () => {
    const long = "1\n2\n3\n4\n5\n6";
    expect(renderTranscript(calls(["1", "X", {}, long]), { ...opts, tools: [] })).toContain("… +2 lines");
    expect(renderTranscript(calls(["1", "X", {}, long]), { ...opts, verbose: true, tools: [] })).toContain(
      "     6",
    );
  });
});

describe("shell commands", () => {
  const cases: [string, string | undefined][] = [
    ["grep -rn x src", "search"],
    ["find . -name '*.ts'", "search"],
    ["find . -name x -delete", undefined],
    ["cat a | wc -l", "read"],
    ["sed -n 1,5p f", "read"],
    ["sed -i s/a/b/ f", undefined],
    ["ls -la", "list"],
    ["cat a > b", undefined],
    ["ls && rm -rf x", undefined],
    ["npm test", undefined],
  ];
  for (const [command, kind] of cases) {
    test(`${command} → ${kind ?? "not collapsible"}`, () =>
      expect(classifyCommand(command)).toBe(kind as never));
  }

  test("exit codes mean what the command says they mean", () => {
    expect(exitCodeMeaning("grep x f", 1)).toBe("no matches");
    expect(exitCodeMeaning("diff a b", 1)).toBe("the files differ");
    expect(exitCodeMeaning("foo", 127)).toBe("command not found");
    expect(exitCodeMeaning("sleep 9", 130)).toBe("interrupted (Ctrl-C)");
    expect(exitCodeMeaning("x", 137)).toBe("killed by signal 9 (SIGKILL)");
  });
});
