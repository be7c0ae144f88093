import { describe, expect, test } from "bun:test";
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { READ_MAX_CHARS, readTool } from "../../../src/tools/read/tool.ts";
import { callTool, makeContext, modelText, plainRender, tempDir } from "../helpers.ts";

function workspace(files: Record<string, string | Uint8Array>) {
  const dir = tempDir();
  for (const [name, content] of Object.entries(files)) {
    mkdirSync(join(dir, name, ".."), { recursive: true });
    writeFileSync(join(dir, name), content);
  }
  return { dir, ctx: makeContext(dir) };
}

describe("Read: text", () => {
  test("numbers lines like cat -n and records the read", async () => {
    const { dir, ctx } = workspace({ "a.txt": "alpha\nbeta\n" });
    const out = await callTool(readTool, { file_path: "a.txt" }, ctx);
    expect(modelText(out)).toBe("     1\talpha\n     2\tbeta");
    const seen = ctx.session.readFiles.get(join(dir, "a.txt"));
    expect(seen?.size).toBe(11);
  });

  test("offset and limit select a window and say how to read on", async () => {
    const lines = Array.from({ length: 50 }, (_, i) => `line ${i + 1}`).join("\n");
    const { ctx } = workspace({ "a.txt": lines });
    const out = await callTool(readTool, { file_path: "a.txt", offset: 10, limit: 3 }, ctx);
    expect(modelText(out)).toBe(
      "    10\tline 10\n    11\tline 11\n    12\tline 12\n\n(Showing lines 10-12 of 50. Use offset=13 to read on.)",
    );
  });

  test("offset 0 reads from the first line", async () => {
    const { ctx } = workspace({ "a.txt": "one\ntwo" });
    const out = await callTool(readTool, { file_path: "a.txt", offset: 0, limit: 1 }, ctx);
    expect(modelText(out)).toStartWith("     1\tone");
  });

  test("an offset past the end fails and names the line count", async () => {
    const { ctx } = workspace({ "a.txt": "one\ntwo\nthree\n" });
    const out = await callTool(readTool, { file_path: "a.txt", offset: 9 }, ctx);
    expect(out.ok).toBe(false);
    expect(modelText(out)).toContain("offset 9 is past the end");
    expect(modelText(out)).toContain("has 3 lines");
  });

  test("CRLF line endings are not shown as part of the text", async () => {
    const { ctx } = workspace({ "win.txt": "a\r\nb\r\n" });
    const out = await callTool(readTool, { file_path: "win.txt" }, ctx);
    expect(modelText(out)).toBe("     1\ta\n     2\tb");
  });

  test("long lines are cut and counted", async () => {
    const { ctx } = workspace({ "long.txt": `${"x".repeat(5000)}\nshort\n` });
    const out = await callTool(readTool, { file_path: "long.txt" }, ctx);
    const text = modelText(out);
    expect(text).toContain("… [line truncated]");
    expect(text.split("\n")[0]!.length).toBeLessThan(2100);
    expect(text).toContain("1 line longer than 2000 characters cut");
    expect(text).toContain("     2\tshort");
  });

  test("a result stops near the size limit and points to the next offset", async () => {
    const { ctx } = workspace({ "wide.txt": Array.from({ length: 1500 }, () => "y".repeat(100)).join("\n") });
    const out = await callTool(readTool, { file_path: "wide.txt" }, ctx);
    expect(out.ok && out.data.cutAtChars).toBe(true);
    const text = modelText(out);
    expect(text.length).toBeLessThan(READ_MAX_CHARS + 200);
    expect(text).toMatch(/Use offset=\d+ to read on/);
  });

  test("a large file read near its end returns the right lines and the total", async () => {
    const count = 300_000;
    const { ctx } = workspace({
      "big.log": Array.from({ length: count }, (_, i) => `entry ${i + 1}`).join("\n") + "\n",
    });
    const out = await callTool(readTool, { file_path: "big.log", offset: count - 1, limit: 5 }, ctx);
    expect(out.ok && out.data.totalLines).toBe(count);
    expect(modelText(out)).toBe(
      `${String(count - 1).padStart(6)}\tentry ${count - 1}\n${count}\tentry ${count}`,
    );
  });

  test("multi-byte characters survive line reading", async () => {
    const { ctx } = workspace({ "ünï.txt": "héllo wörld 你好 🙂\n" });
    const out = await callTool(readTool, { file_path: "ünï.txt" }, ctx);
    expect(modelText(out)).toBe("     1\théllo wörld 你好 🙂");
  });

  test("an empty file says so", async () => {
    const { ctx } = workspace({ "empty.txt": "" });
    const out = await callTool(readTool, { file_path: "empty.txt" }, ctx);
    expect(out.ok).toBe(true);
    expect(modelText(out)).toContain("exists but is empty");
  });
});

describe("Read: refusals", () => {
  test("a missing file suggests similar names", async () => {
    const { ctx } = workspace({ "config.json": "{}" });
    const out = await callTool(readTool, { file_path: "config.jsn" }, ctx);
    expect(out.ok).toBe(false);
    expect(modelText(out)).toContain("does not exist. Did you mean config.json?");
  });

  test("a missing directory is named", async () => {
    const { ctx } = workspace({});
    const out = await callTool(readTool, { file_path: "nope/a.txt" }, ctx);
    expect(modelText(out)).toContain("nor does its directory");
  });

  test("a directory is refused with a pointer to Glob", async () => {
    const { ctx } = workspace({ "sub/a.txt": "x" });
    const out = await callTool(readTool, { file_path: "sub" }, ctx);
    expect(out.ok).toBe(false);
    expect(modelText(out)).toContain("is a directory");
  });

  test("binary files are refused, by content and by extension", async () => {
    const { ctx } = workspace({ "blob.dat": new Uint8Array([1, 2, 0, 3]), "lib.so": "ELF-ish but no NUL" });
    for (const file_path of ["blob.dat", "lib.so"]) {
      const out = await callTool(readTool, { file_path }, ctx);
      expect(out.ok).toBe(false);
      expect(modelText(out)).toContain("is a binary file");
      expect(modelText(out)).not.toContain("    at "); // no stack
    }
    expect(ctx.session.readFiles.size).toBe(0);
  });

  test("the schema refuses an empty path and a negative offset", async () => {
    const { ctx } = workspace({});
    expect((await callTool(readTool, { file_path: "" }, ctx)).ok).toBe(false);
    expect((await callTool(readTool, { file_path: "a", offset: -1 }, ctx)).ok).toBe(false);
    expect((await callTool(readTool, { file_path: "a", limit: 0 }, ctx)).ok).toBe(false);
  });
});

describe("Read: media", () => {
  const png = new Uint8Array([
    0x89,
    0x50,
    0x4e,
    0x47,
    0x0d,
    0x0a,
    0x1a,
    0x0a,
    0,
    0,
    0,
    13,
    0x49,
    0x48,
    0x44,
    0x52,
    0,
    0,
    0x02,
    0x80,
    0,
    0,
    0x01,
    0xe0,
    8,
    6,
    0,
    0,
    0,
  ]);
  const gif = new Uint8Array([0x47, 0x49, 0x46, 0x38, 0x39, 0x61, 10, 0, 20, 0, 0]);
  // SOI, an APP0 segment of 16 bytes, then SOF0 with height 300 and width 400.
  const jpeg = new Uint8Array([
    0xff,
    0xd8,
    0xff,
    0xe0,
    0,
    16,
    ...new Array(14).fill(0),
    0xff,
    0xc0,
    0,
    17,
    8,
    0x01,
    0x2c,
    0x01,
    0x90,
    3,
    ...new Array(9).fill(0),
  ]);
  const webp = new Uint8Array([
    ...new TextEncoder().encode("RIFF"),
    0,
    0,
    0,
    0,
    ...new TextEncoder().encode("WEBPVP8X"),
    10,
    0,
    0,
    0,
    0,
    0,
    0,
    0,
    99,
    0,
    0,
    49,
    0,
    0,
  ]);

  test.each([
    ["shot.png", png, "PNG, 640×480 pixels"],
    ["anim.gif", gif, "GIF, 10×20 pixels"],
    ["photo.jpg", jpeg, "JPEG, 400×300 pixels"],
    ["pic.webp", webp, "WEBP, 100×50 pixels"],
  ])("%s is described with its dimensions", async (name, bytes, expected) => {
    const { ctx } = workspace({ [name]: bytes });
    const out = await callTool(readTool, { file_path: name }, ctx);
    expect(modelText(out)).toContain(expected);
    expect(modelText(out)).toContain("not shown");
  });

  test("an image with a broken header is described without dimensions", async () => {
    const { ctx } = workspace({ "bad.png": "not a png" });
    const out = await callTool(readTool, { file_path: "bad.png" }, ctx);
    expect(modelText(out)).toContain("PNG, dimensions unknown");
  });

  const pdf = "%PDF-1.4\n1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj\n" +
    "2 0 obj << /Type /Pages /Kids [3 0 R 4 0 R] /Count 2 >> endobj\n" +
    "3 0 obj << /Type /Page /Parent 2 0 R >> endobj\n4 0 obj << /Type /Page /Parent 2 0 R >> endobj\n%%EOF\n";

  test("a PDF is described with version and page count", async () => {
    const { ctx } = workspace({ "doc.pdf": pdf });
    const out = await callTool(readTool, { file_path: "doc.pdf" }, ctx);
    expect(modelText(out)).toContain("is a PDF: version 1.4, 2 pages");
    expect(modelText(out)).toContain("pdftotext");
  });

  test("pages out of range, malformed, or on a non-PDF are refused", async () => {
    const { ctx } = workspace({ "doc.pdf": pdf, "a.txt": "x" });
    expect(modelText(await callTool(readTool, { file_path: "doc.pdf", pages: "2-5" }, ctx))).toContain(
      "out of range",
    );
    expect((await callTool(readTool, { file_path: "doc.pdf", pages: "one" }, ctx)).ok).toBe(false);
    expect(modelText(await callTool(readTool, { file_path: "a.txt", pages: "1" }, ctx))).toContain(
      "PDF files only",
    );
    expect((await callTool(readTool, { file_path: "doc.pdf", pages: "1-2" }, ctx)).ok).toBe(true);
  });
});

describe("Read: contract", () => {
  test("read-only, parallel-safe, not destructive, cancellable, self-limited", () => {
    const input = { file_path: "/x" };
    expect(readTool.isReadOnly(input)).toBe(true);
    expect(readTool.isConcurrencySafe(input)).toBe(true);
    expect(readTool.isDestructive(input)).toBe(false);
    expect(readTool.interruptBehavior()).toBe("cancel");
    expect(readTool.maxResultSizeChars).toBe(Infinity);
    expect(readTool.shouldDefer).toBe(false);
  });

  test("getPath is absolute: relative to cwd, ~ to home", () => {
    const ctx = makeContext("/work/p");
    expect(readTool.getPath!({ file_path: "src/../a.ts" }, ctx)).toBe("/work/p/a.ts");
    expect(readTool.getPath!({ file_path: "~/notes.md" }, ctx)).toBe(join(homedir(), "notes.md"));
  });

  test("paths outside the workspace ask; inside and additional dirs pass to policy", async () => {
    const outside = tempDir();
    writeFileSync(join(outside, "secret.txt"), "s");
    const { dir, ctx } = workspace({ "in.txt": "i" });
    symlinkSync(join(outside, "secret.txt"), join(dir, "link.txt"));
    const decide = async (file_path: string, c = ctx) =>
      (await readTool.checkPermissions({ file_path }, c)).behavior;
    expect(await decide("in.txt")).toBe("passthrough");
    expect(await decide("../" + outside.split("/").pop() + "/secret.txt")).toBe("ask");
    expect(await decide(join(outside, "secret.txt"))).toBe("ask");
    expect(await decide("link.txt")).toBe("ask");
    expect(await decide(join(outside, "secret.txt"), makeContext(dir, { additionalDirs: [outside] }))).toBe(
      "passthrough",
    );
    const answer = await readTool.checkPermissions({ file_path: join(outside, "secret.txt") }, ctx);
    expect(answer).toMatchObject({ behavior: "ask", suggestions: [`Read(/${outside}/**)`] });
  });

  test("renders a use with its line range, a group of reads, and colour only when asked", () => {
    expect(readTool.render.toolUse({ file_path: "a.ts", offset: 10, limit: 5 }, plainRender)).toBe(
      "Read(a.ts · lines 10-14)",
    );
    expect(readTool.render.grouped!([{ file_path: "a.ts" }, { file_path: "b.ts" }], plainRender)).toBe(
      "Read 2 files: a.ts, b.ts",
    );
    expect(readTool.render.toolUse({ file_path: "a.ts" }, { ...plainRender, color: true })).toContain(
      "\x1b[1m",
    );
    expect(readTool.render.error("gone", { file_path: "a.ts" }, plainRender)).toBe("Read(a.ts) failed: gone");
  });
});
