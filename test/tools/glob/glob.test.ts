import { describe, expect, test } from "bun:test";
import { mkdirSync, symlinkSync, utimesSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { GLOB_MAX_RESULTS, globTool } from "../../../src/tools/glob/tool.ts";
import { callTool, makeContext, modelText, tempDir } from "../helpers.ts";

function tree(files: string[]) {
  const dir = tempDir();
  files.forEach((name, i) => {
    mkdirSync(dirname(join(dir, name)), { recursive: true });
    writeFileSync(join(dir, name), name);
    // Later names are newer, a second apart, so the order does not hang on clock resolution.
    const time = new Date(Date.UTC(2024, 0, 1, 0, 0, i));
    utimesSync(join(dir, name), time, time);
  });
  return { dir, ctx: makeContext(dir) };
}

describe("Glob", () => {
  test("lists matches newest first, relative to the working directory", async () => {
    const { ctx } = tree(["src/old.ts", "src/mid.ts", "README.md", "src/new.ts"]);
    const out = await callTool(globTool, { pattern: "**/*.ts" }, ctx);
    expect(modelText(out)).toBe("src/new.ts\nsrc/mid.ts\nsrc/old.ts");
  });

  test("a pattern without ** matches only at its own depth", async () => {
    const { ctx } = tree(["a.md", "docs/b.md"]);
    expect(modelText(await callTool(globTool, { pattern: "*.md" }, ctx))).toBe("a.md");
  });

  test("skips node_modules and .git unless the pattern names them", async () => {
    const { ctx } = tree(["index.js", "node_modules/lib/index.js", ".git/hooks/x.js", ".env"]);
    expect(modelText(await callTool(globTool, { pattern: "**/*.js" }, ctx))).toBe("index.js");
    expect(modelText(await callTool(globTool, { pattern: "node_modules/**/*.js" }, ctx))).toBe(
      "node_modules/lib/index.js",
    );
    expect(modelText(await callTool(globTool, { pattern: "**/.env" }, ctx))).toBe(".env");
  });

  test(`stops at ${GLOB_MAX_RESULTS} with a notice giving the full count`, async () => {
    const { ctx } = tree(Array.from({ length: 120 }, (_, i) => `f/${String(i).padStart(3, "0")}.txt`));
    const out = await callTool(globTool, { pattern: "f/*.txt" }, ctx);
    if (!out.ok) throw new Error(out.message);
    expect(out.data.filenames).toHaveLength(GLOB_MAX_RESULTS);
    expect(out.data.filenames[0]).toBe("f/119.txt");
    expect(out.text).toContain("showing 100 of 120 files");
  });

  test("searches below `path`, and says when nothing matched", async () => {
    const { ctx } = tree(["a/x.ts", "b/y.ts"]);
    expect(modelText(await callTool(globTool, { pattern: "*.ts", path: "b" }, ctx))).toBe("b/y.ts");
    expect(modelText(await callTool(globTool, { pattern: "*.rs" }, ctx))).toBe("No files found");
  });

  test("a missing path, a file as path, and an empty pattern are refused", async () => {
    const { ctx } = tree(["src/a.ts"]);
    expect(modelText(await callTool(globTool, { pattern: "*", path: "srd" }, ctx))).toContain(
      "Did you mean src?",
    );
    expect(modelText(await callTool(globTool, { pattern: "*", path: "src/a.ts" }, ctx))).toContain(
      "not a directory",
    );
    expect(await callTool(globTool, { pattern: "" }, ctx)).toMatchObject({ ok: false, stage: "schema" });
  });

  test("symlink loops do not hang the walk, and linked files are listed", async () => {
    const { dir, ctx } = tree(["d/real.txt"]);
    symlinkSync(join(dir, "d"), join(dir, "d", "loop"));
    symlinkSync(join(dir, "d/real.txt"), join(dir, "alias.txt"));
    const out = await callTool(globTool, { pattern: "**/*.txt" }, ctx);
    expect(out.ok && [...out.data.filenames].sort()).toEqual(["alias.txt", "d/real.txt"]);
  });

  test("unicode names match", async () => {
    const { ctx } = tree(["données/résumé.md"]);
    expect(modelText(await callTool(globTool, { pattern: "**/*.md" }, ctx))).toBe("données/résumé.md");
  });

  test("contract: read-only and parallel-safe; the real root decides the permission", async () => {
    const { dir, ctx } = tree(["a.ts"]);
    const input = { pattern: "**/*.ts" };
    expect(globTool.isReadOnly(input)).toBe(true);
    expect(globTool.isConcurrencySafe(input)).toBe(true);
    expect(globTool.isDestructive(input)).toBe(false);
    expect(globTool.getPath!(input, ctx)).toBe(dir);
    expect(globTool.getPath!({ pattern: "src/lib/**/*.ts" }, ctx)).toBe(join(dir, "src/lib"));
    expect((await globTool.checkPermissions(input, ctx)).behavior).toBe("passthrough");
    expect((await globTool.checkPermissions({ pattern: "../**/*.ts" }, ctx)).behavior).toBe("ask");
    expect((await globTool.checkPermissions({ pattern: "/etc/*.conf" }, ctx)).behavior).toBe("ask");
    expect((await globTool.checkPermissions({ pattern: "*", path: "/" }, ctx)).behavior).toBe("ask");
  });
});
