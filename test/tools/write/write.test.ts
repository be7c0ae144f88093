import { describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { readTool } from "../../../src/tools/read/tool.ts";
import { writeTool } from "../../../src/tools/write/tool.ts";
import { callTool, makeContext, modelText, plainRender, tempDir } from "../helpers.ts";

function setup(files: Record<string, string> = {}) {
  const dir = tempDir();
  for (const [name, content] of Object.entries(files)) writeFileSync(join(dir, name), content);
  return { dir, ctx: makeContext(dir) };
}

describe("Write", () => {
  test("creates a new file and its missing parent directories", async () => {
    const { dir, ctx } = setup();
    const out = await callTool(writeTool, { file_path: "deep/er/new.txt", content: "a\nb\n" }, ctx);
    expect(modelText(out)).toBe(`Created ${join(dir, "deep/er/new.txt")} (2 lines).`);
    expect(readFileSync(join(dir, "deep/er/new.txt"), "utf8")).toBe("a\nb\n");
    expect(ctx.session.readFiles.has(join(dir, "deep/er/new.txt"))).toBe(true);
  });

  test("refuses to overwrite a file not read in this session, and leaves it alone", async () => {
    const { dir, ctx } = setup({ "keep.txt": "precious" });
    const out = await callTool(writeTool, { file_path: "keep.txt", content: "gone" }, ctx);
    expect(out).toMatchObject({ ok: false, stage: "validation" });
    expect(modelText(out)).toContain("has not been read in this session");
    expect(readFileSync(join(dir, "keep.txt"), "utf8")).toBe("precious");
  });

  test("overwrites a file after it was read, reporting a diff", async () => {
    const { dir, ctx } = setup({ "a.txt": "one\ntwo\nthree\n" });
    await callTool(readTool, { file_path: "a.txt" }, ctx);
    const out = await callTool(writeTool, { file_path: "a.txt", content: "one\n2\nthree\n" }, ctx);
    expect(modelText(out)).toBe(
      `Updated ${join(dir, "a.txt")} (+1 -1).\n@@ -1,3 +1,3 @@\n one\n-two\n+2\n three`,
    );
  });

  test("refuses when the file changed after it was read", async () => {
    const { dir, ctx } = setup({ "a.txt": "v1" });
    await callTool(readTool, { file_path: "a.txt" }, ctx);
    writeFileSync(join(dir, "a.txt"), "v2 from someone else");
    const out = await callTool(writeTool, { file_path: "a.txt", content: "mine" }, ctx);
    expect(modelText(out)).toContain("has changed since it was last read");
    expect(readFileSync(join(dir, "a.txt"), "utf8")).toBe("v2 from someone else");
  });

  test("checks again at call time: a change between validation and the call is caught", async () => {
    const { dir, ctx } = setup({ "a.txt": "v1" });
    await callTool(readTool, { file_path: "a.txt" }, ctx);
    const input = { file_path: "a.txt", content: "mine" };
    expect(await writeTool.validateInput(input, ctx)).toEqual({ ok: true });
    writeFileSync(join(dir, "a.txt"), "v2, longer");
    await expect(writeTool.call(input, ctx, () => {})).rejects.toThrow("has changed since it was last read");
  });

  test("a directory is refused", async () => {
    const { dir, ctx } = setup();
    mkdirSync(join(dir, "sub"));
    const out = await callTool(writeTool, { file_path: "sub", content: "x" }, ctx);
    expect(modelText(out)).toContain("is a directory");
  });

  test("a written file can be written again without another read", async () => {
    const { ctx } = setup();
    await callTool(writeTool, { file_path: "n.txt", content: "1" }, ctx);
    expect((await callTool(writeTool, { file_path: "n.txt", content: "2" }, ctx)).ok).toBe(true);
  });

  test("unicode names and content round-trip", async () => {
    const { dir, ctx } = setup();
    await callTool(writeTool, { file_path: "données/é.md", content: "ça va 🙂" }, ctx);
    expect(readFileSync(join(dir, "données/é.md"), "utf8")).toBe("ça va 🙂");
  });

  test("contract: writes, never in parallel, destructive only when overwriting", () => {
    const { dir } = setup({ "old.txt": "x" });
    const existing = { file_path: join(dir, "old.txt"), content: "" };
    const fresh = { file_path: join(dir, "new.txt"), content: "" };
    expect(writeTool.isReadOnly(fresh)).toBe(false);
    expect(writeTool.isConcurrencySafe(fresh)).toBe(false);
    expect(writeTool.isDestructive(existing)).toBe(true);
    expect(writeTool.isDestructive(fresh)).toBe(false);
    expect(writeTool.isDestructive({ file_path: "relative.txt", content: "" })).toBe(true);
    expect(writeTool.interruptBehavior()).toBe("block");
    expect(existsSync(fresh.file_path)).toBe(false);
  });

  test("asks for paths outside the workspace, including through `..` and symlinked directories", async () => {
    const outside = tempDir();
    const { dir, ctx } = setup();
    symlinkSync(outside, join(dir, "escape"));
    const decide = async (
      file_path: string,
    ) => (await writeTool.checkPermissions({ file_path, content: "" }, ctx));
    expect((await decide("ok.txt")).behavior).toBe("passthrough");
    expect((await decide("../x.txt")).behavior).toBe("ask");
    expect(await decide("escape/new.txt")).toMatchObject({ behavior: "ask" });
    expect(await decide(join(outside, "f.txt"))).toMatchObject({ suggestions: [`Edit(/${outside}/**)`] });
  });

  test("renders the diff in colour, and plainly without colour", async () => {
    const { ctx } = setup({ "a.txt": "old\n" });
    await callTool(readTool, { file_path: "a.txt" }, ctx);
    const out = await callTool(writeTool, { file_path: "a.txt", content: "new\n" }, ctx);
    if (!out.ok) throw new Error(out.message);
    const plain = writeTool.render.result(out.data, {}, plainRender);
    expect(plain).toContain("-old\n+new");
    expect(plain).not.toContain("\x1b[");
    const coloured = writeTool.render.result(out.data, {}, { ...plainRender, color: true });
    expect(coloured).toContain("\x1b[32m+new\x1b[39m");
    expect(coloured).toContain("\x1b[31m-old\x1b[39m");
  });
});
