import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { createGrepTool } from "../../../src/tools/grep/tool.ts";
import type { GrepInput } from "../../../src/tools/grep/schema.ts";
import { callTool, makeContext, modelText } from "../helpers.ts";
import { grepFixture } from "./fixture.ts";
import { programFor } from "../../helpers/requirements.ts";

const builtin = createGrepTool({ engine: "builtin" });
const hasRipgrep = programFor("rg", "the comparison of ripgrep with the built-in engine");

async function grep(input: GrepInput, tool = builtin) {
  const dir = grepFixture();
  return { dir, out: await callTool(tool, input, makeContext(dir)) };
}

describe("Grep (built-in engine)", () => {
  test("files_with_matches honours .gitignore at every level, skips .git and binaries, searches hidden files", async () => {
    const { out } = await grep({ pattern: "TODO" });
    expect(modelText(out)).toBe(
      [
        "Found 7 files",
        "ünïcode.txt",
        "crlf.txt",
        ".hidden/notes.md",
        "keep.log",
        "src/nested/deep.ts",
        "src/util.ts",
        "src/app.ts",
      ].join("\n"),
    );
  });

  test("content mode shows path:line:text, with line numbers by default and without on request", async () => {
    const { out } = await grep({ pattern: "TODO", path: "src/app.ts", output_mode: "content" });
    expect(modelText(out)).toBe("src/app.ts:2:// TODO: wire the app");
    const { out: bare } = await grep({
      pattern: "TODO",
      path: "src/app.ts",
      output_mode: "content",
      "-n": false,
    });
    expect(modelText(bare)).toBe("src/app.ts:// TODO: wire the app");
  });

  test("context lines use `-` and groups are split by `--`", async () => {
    const { out } = await grep({
      pattern: "TODO",
      path: "src/nested/deep.ts",
      output_mode: "content",
      "-C": 1,
    });
    expect(modelText(out)).toBe(
      [
        "src/nested/deep.ts-2-line two",
        "src/nested/deep.ts:3:// TODO deep",
        "src/nested/deep.ts-4-line four",
        "--",
        "src/nested/deep.ts-6-line six",
        "src/nested/deep.ts:7:// TODO again",
      ].join("\n"),
    );
    const { out: after } = await grep({
      pattern: "deep",
      path: "src/nested",
      output_mode: "content",
      "-A": 2,
    });
    expect(modelText(after)).toBe(
      "src/nested/deep.ts:3:// TODO deep\nsrc/nested/deep.ts-4-line four\nsrc/nested/deep.ts-5-line five",
    );
  });

  test("-i ignores case and -o prints only the matched parts", async () => {
    const { out } = await grep({
      pattern: "todo",
      path: "src/app.ts",
      output_mode: "content",
      "-i": true,
      "-o": true,
    });
    expect(modelText(out)).toBe("src/app.ts:2:TODO\nsrc/app.ts:5:todo");
  });

  test("a search below the root still honours the root's .gitignore", async () => {
    const { out } = await grep({ pattern: "TODO", path: "src" });
    expect(modelText(out)).not.toContain("trace.log");
  });

  test("count mode gives matching lines per file and a total", async () => {
    const { out } = await grep({ pattern: "TODO", path: "src", output_mode: "count" });
    expect(modelText(out)).toBe(
      "src/app.ts:1\nsrc/nested/deep.ts:2\nsrc/util.ts:1\n\nFound 4 matching lines across 3 files.",
    );
  });

  test("a positive glob lets a gitignored file through, as rg does; ignored directories stay skipped", async () => {
    const { out } = await grep({ pattern: "TODO", glob: "*.{ts,js}" });
    expect(modelText(out)).toContain("src/nested/local.ts");
    expect(modelText(out)).not.toContain("build/out.js");
  });

  test("glob and type narrow the files; a leading ! excludes", async () => {
    expect(modelText((await grep({ pattern: "TODO", type: "ts", output_mode: "count" })).out)).toStartWith(
      "src/app.ts:1\nsrc/nested/deep.ts:2\nsrc/util.ts:1\n",
    );
    expect(modelText((await grep({ pattern: "TODO", type: "md" })).out)).toBe(
      "Found 1 file\n.hidden/notes.md",
    );
    const { out } = await grep({ pattern: "TODO", glob: "!*.ts" });
    expect(modelText(out)).not.toContain(".ts");
    expect(modelText(out)).toContain("keep.log");
  });

  test("head_limit and offset page through entries and say where the next page starts", async () => {
    const { out } = await grep({ pattern: "TODO", output_mode: "content", head_limit: 2, offset: 1 });
    if (!out.ok) throw new Error(out.message);
    expect(out.data.entries).toHaveLength(2);
    expect(out.text).toContain("Showing entries 2-3 of 9. Use offset=3 for more.");
  });

  test("multiline lets a pattern span lines", async () => {
    const { out } = await grep({ pattern: "begin\\nmiddle", output_mode: "content", multiline: true });
    expect(modelText(out)).toBe("multi.txt:1:begin\nmulti.txt:2:middle");
    const { out: single } = await grep({ pattern: "begin.middle", output_mode: "content" });
    expect(modelText(single)).toBe("No matches found");
  });

  test("CRLF lines are shown without the carriage return, which `$` does not skip (as in rg)", async () => {
    const { out } = await grep({ pattern: "two$|one", path: "crlf.txt", output_mode: "content" });
    expect(modelText(out)).toBe("crlf.txt:1:TODO one");
  });

  test("a file named as path is searched even when ignored", async () => {
    const { out } = await grep({ pattern: "TODO", path: "ignored.txt", output_mode: "content" });
    expect(modelText(out)).toBe("ignored.txt:1:TODO but ignored");
  });

  test("an invalid regex, an unknown type and a missing path fail with plain messages", async () => {
    const invalid = await grep({ pattern: "(unclosed" });
    expect(invalid.out).toMatchObject({ ok: false, stage: "call" });
    expect(modelText(invalid.out)).toContain("Invalid regular expression");
    expect(modelText(invalid.out)).not.toContain("    at ");
    expect(modelText((await grep({ pattern: "x", type: "klingon" })).out)).toContain(
      'Unknown file type "klingon"',
    );
    expect(modelText((await grep({ pattern: "x", path: "sorc" })).out)).toContain("does not exist");
  });

  test("an empty pattern is refused by the schema", async () => {
    expect((await grep({ pattern: "" })).out).toMatchObject({ ok: false, stage: "schema" });
  });

  test("contract: read-only, parallel-safe, bounded, asks outside the workspace", async () => {
    const dir = grepFixture();
    const ctx = makeContext(join(dir, "src"));
    const input = { pattern: "x" };
    expect(builtin.isReadOnly(input)).toBe(true);
    expect(builtin.isConcurrencySafe(input)).toBe(true);
    expect(builtin.isDestructive(input)).toBe(false);
    expect(builtin.maxResultSizeChars).toBe(20_000);
    expect(builtin.getPath!({ pattern: "x", path: "nested" }, ctx)).toBe(join(dir, "src/nested"));
    expect((await builtin.checkPermissions({ pattern: "x", path: ".." }, ctx)).behavior).toBe("ask");
    expect((await builtin.checkPermissions(input, ctx)).behavior).toBe("passthrough");
  });
});

describe.skipIf(!hasRipgrep)("Grep: ripgrep and the built-in engine agree", () => {
  const ripgrep = createGrepTool({ engine: "ripgrep" });
  const cases: GrepInput[] = [
    { pattern: "TODO" },
    { pattern: "TODO", output_mode: "content" },
    { pattern: "todo", "-i": true, output_mode: "count" },
    { pattern: "TODO", output_mode: "content", "-C": 1 },
    { pattern: "TODO", output_mode: "content", "-B": 2, "-n": false },
    { pattern: "line \\w+", output_mode: "content", "-o": true },
    { pattern: "TODO", glob: "*.ts", output_mode: "content" },
    { pattern: "TODO", glob: "*.{ts,js}" },
    { pattern: "TODO", glob: "src/**/*.ts" },
    { pattern: "TODO", glob: "!*.ts" },
    { pattern: "TODO", type: "ts", output_mode: "count" },
    { pattern: "begin\\nmiddle", multiline: true, output_mode: "content" },
    { pattern: "TODO", output_mode: "content", head_limit: 3, offset: 2 },
    { pattern: "café", output_mode: "content" },
    { pattern: "two$", output_mode: "content" },
    { pattern: "nothing-matches-this" },
    { pattern: "TODO", path: "src", output_mode: "content" },
    { pattern: "TODO", path: "ignored.txt", output_mode: "content" },
  ];
  test.each(cases)("%j", async (input) => {
    const dir = grepFixture();
    const ctx = makeContext(dir);
    const fromRipgrep = modelText(await callTool(ripgrep, input, ctx));
    const fromBuiltin = modelText(await callTool(builtin, input, ctx));
    expect(fromBuiltin).toBe(fromRipgrep);
  });

  test("an invalid regex fails with both", async () => {
    const dir = grepFixture();
    const out = await callTool(ripgrep, { pattern: "(unclosed" }, makeContext(dir));
    expect(out).toMatchObject({ ok: false, stage: "call" });
    expect(modelText(out)).toContain("regex parse error");
  });
});
