import { describe, expect, test } from "bun:test";
import { readFileSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { editTool } from "../../../src/tools/edit/tool.ts";
import { readTool } from "../../../src/tools/read/tool.ts";
import { callTool, makeContext, modelText, tempDir } from "../helpers.ts";

async function readFirst(files: Record<string, string | Uint8Array>) {
  const dir = tempDir();
  const ctx = makeContext(dir);
  for (const [name, content] of Object.entries(files)) {
    writeFileSync(join(dir, name), content);
    await callTool(readTool, { file_path: name }, ctx);
  }
  return { dir, ctx, text: (name: string) => readFileSync(join(dir, name), "utf8") };
}

describe("Edit: replacing", () => {
  test("replaces a unique string and shows the diff", async () => {
    const { dir, ctx, text } = await readFirst({ "a.ts": "const a = 1;\nconst b = 2;\n" });
    const out = await callTool(
      editTool,
      { file_path: "a.ts", old_string: "b = 2", new_string: "b = 3" },
      ctx,
    );
    expect(text("a.ts")).toBe("const a = 1;\nconst b = 3;\n");
    expect(modelText(out)).toBe(
      `Updated ${join(dir, "a.ts")} (+1 -1).\n@@ -1,2 +1,2 @@\n const a = 1;\n-const b = 2;\n+const b = 3;`,
    );
  });

  test("a string occurring twice is refused with its lines, unless replace_all", async () => {
    const { ctx, text } = await readFirst({ "a.ts": "x = 1\ny = 2\nx = 1\n" });
    const refused = await callTool(
      editTool,
      { file_path: "a.ts", old_string: "x = 1", new_string: "x = 9" },
      ctx,
    );
    expect(modelText(refused)).toContain("occurs 2 times");
    expect(modelText(refused)).toContain("at lines 1, 3");
    expect(text("a.ts")).toBe("x = 1\ny = 2\nx = 1\n");
    const all = await callTool(
      editTool,
      { file_path: "a.ts", old_string: "x = 1", new_string: "x = 9", replace_all: true },
      ctx,
    );
    expect(text("a.ts")).toBe("x = 9\ny = 2\nx = 9\n");
    expect(modelText(all)).toContain("(2 occurrences replaced.)");
  });

  test("line numbers of repeated multi-line strings count the lines inside the matches", async () => {
    const { ctx } = await readFirst({ "a.txt": "a\nb\nc\na\nb\n" });
    const out = await callTool(editTool, { file_path: "a.txt", old_string: "a\nb", new_string: "z" }, ctx);
    expect(modelText(out)).toContain("at lines 1, 4");
  });

  test("identical old_string and new_string are refused before touching the file", async () => {
    const { ctx } = await readFirst({ "a.ts": "x" });
    const out = await callTool(editTool, { file_path: "a.ts", old_string: "x", new_string: "x" }, ctx);
    expect(out).toMatchObject({ ok: false, stage: "validation" });
  });

  test("replacement text is literal: $& and $1 stay as written", async () => {
    const { ctx, text } = await readFirst({ "a.txt": "price: X\n" });
    await callTool(editTool, { file_path: "a.txt", old_string: "X", new_string: "$& $1 $$" }, ctx);
    expect(text("a.txt")).toBe("price: $& $1 $$\n");
  });

  test("CRLF files keep CRLF endings when edited with LF strings", async () => {
    const { ctx, text } = await readFirst({ "w.txt": "one\r\ntwo\r\nthree\r\n" });
    const out = await callTool(editTool, {
      file_path: "w.txt",
      old_string: "one\ntwo",
      new_string: "1\n2\n2b",
    }, ctx);
    expect(out.ok).toBe(true);
    expect(text("w.txt")).toBe("1\r\n2\r\n2b\r\nthree\r\n");
  });

  test("an empty old_string creates a missing file but refuses a file with content", async () => {
    const { dir, ctx, text } = await readFirst({ "full.txt": "content" });
    expect((await callTool(editTool, { file_path: "new.txt", old_string: "", new_string: "hi" }, ctx)).ok)
      .toBe(true);
    expect(readFileSync(join(dir, "new.txt"), "utf8")).toBe("hi");
    const out = await callTool(editTool, { file_path: "full.txt", old_string: "", new_string: "x" }, ctx);
    expect(modelText(out)).toContain("has content");
    expect(text("full.txt")).toBe("content");
  });

  test("an empty file that was read can be filled", async () => {
    const { ctx, text } = await readFirst({ "e.txt": "" });
    expect((await callTool(editTool, { file_path: "e.txt", old_string: "", new_string: "now" }, ctx)).ok)
      .toBe(true);
    expect(text("e.txt")).toBe("now");
  });
});

describe("Edit: refusals", () => {
  test("requires a prior read, and a fresh one after an outside change", async () => {
    const dir = tempDir();
    const ctx = makeContext(dir);
    writeFileSync(join(dir, "a.txt"), "hello");
    const unread = await callTool(
      editTool,
      { file_path: "a.txt", old_string: "hello", new_string: "bye" },
      ctx,
    );
    expect(modelText(unread)).toContain("has not been read in this session");
    await callTool(readTool, { file_path: "a.txt" }, ctx);
    writeFileSync(join(dir, "a.txt"), "hello, changed");
    const stale = await callTool(
      editTool,
      { file_path: "a.txt", old_string: "hello", new_string: "bye" },
      ctx,
    );
    expect(modelText(stale)).toContain("has changed since it was last read");
  });

  test("a missing file with a non-empty old_string is refused", async () => {
    const ctx = makeContext(tempDir());
    const out = await callTool(editTool, { file_path: "nope.txt", old_string: "a", new_string: "b" }, ctx);
    expect(modelText(out)).toContain("does not exist");
  });

  test("binary files are refused", async () => {
    const dir = tempDir();
    const ctx = makeContext(dir);
    writeFileSync(join(dir, "b.bin"), new Uint8Array([65, 0, 66]));
    // Read refuses binaries, so the read is recorded by hand to reach Edit's own check.
    const { mtimeMs, size } = statSync(join(dir, "b.bin"));
    ctx.session.readFiles.set(join(dir, "b.bin"), { mtimeMs, size });
    const out = await callTool(editTool, { file_path: "b.bin", old_string: "A", new_string: "C" }, ctx);
    expect(modelText(out)).toContain("is a binary file");
  });
});

describe("Edit: explaining a missed old_string", () => {
  const source = 'function greet(name) {\n\treturn "Hello, " + name;\n}\n\nconst answer = 42;\n';

  test("whitespace differences point at the real text with its line number", async () => {
    const { ctx } = await readFirst({ "g.js": source });
    const out = await callTool(editTool, {
      file_path: "g.js",
      old_string: 'function greet(name) {\n    return "Hello, " + name;',
      new_string: "x",
    }, ctx);
    const message = modelText(out);
    expect(message).toContain("different whitespace, indentation or quote characters");
    expect(message).toContain("     1\tfunction greet(name) {\n     2\t\treturn");
  });

  test("curly quotes in old_string are recognised", async () => {
    const { ctx } = await readFirst({ "g.js": source });
    const out = await callTool(editTool, {
      file_path: "g.js",
      old_string: "return \u201cHello, \u201d + name;",
      new_string: "x",
    }, ctx);
    expect(modelText(out)).toContain('     2\t\treturn "Hello, " + name;');
  });

  test("line-number prefixes copied from Read output are called out", async () => {
    const { ctx } = await readFirst({ "g.js": source });
    const out = await callTool(editTool, {
      file_path: "g.js",
      old_string: "     5\tconst answer = 42;",
      new_string: "x",
    }, ctx);
    expect(modelText(out)).toContain("line numbers and tabs copied from Read output");
  });

  test("a near line is offered when nothing matches loosely", async () => {
    const { ctx } = await readFirst({ "g.js": source });
    const out = await callTool(editTool, {
      file_path: "g.js",
      old_string: "const answer = 43;",
      new_string: "x",
    }, ctx);
    expect(modelText(out)).toContain("lines most like its first line");
    expect(modelText(out)).toContain("     5\tconst answer = 42;");
  });

  test("nothing alike says so", async () => {
    const { ctx } = await readFirst({ "g.js": source });
    const out = await callTool(editTool, { file_path: "g.js", old_string: "zzqqxx", new_string: "x" }, ctx);
    expect(modelText(out)).toContain("no line resembles");
  });
});

describe("Edit: contract", () => {
  test("writes, alone, not destructive, blocks interruption; asks outside the workspace", async () => {
    const input = { file_path: "/w/a.ts", old_string: "a", new_string: "b" };
    expect(editTool.isReadOnly(input)).toBe(false);
    expect(editTool.isConcurrencySafe(input)).toBe(false);
    expect(editTool.isDestructive(input)).toBe(false);
    expect(editTool.interruptBehavior()).toBe("block");
    const dir = tempDir();
    const outside = tempDir();
    writeFileSync(join(outside, "t.txt"), "x");
    symlinkSync(join(outside, "t.txt"), join(dir, "link.txt"));
    const ctx = makeContext(dir);
    expect((await editTool.checkPermissions({ ...input, file_path: "link.txt" }, ctx)).behavior).toBe("ask");
    expect((await editTool.checkPermissions({ ...input, file_path: "in.txt" }, ctx)).behavior).toBe(
      "passthrough",
    );
    expect(editTool.getPath!({ ...input, file_path: "x/../y.ts" }, ctx)).toBe(join(dir, "y.ts"));
  });

  test("grouped rendering names each file once", () => {
    const line = editTool.render.grouped!(
      [{ file_path: "a.ts" }, { file_path: "a.ts" }, { file_path: "b.ts" }],
      { color: false, verbose: false, columns: 80 },
    );
    expect(line).toBe("Edited 2 files: a.ts, b.ts");
  });
});
