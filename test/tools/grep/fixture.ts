/**
 * A small tree with every case the two search engines must treat alike. Built in a temp dir rather
 * than kept under fixtures/, because its `.gitignore` files would hide parts of it from git itself.
 */
import { mkdirSync, utimesSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { tempDir } from "../helpers.ts";

const FILES: [string, string | Uint8Array][] = [
  [".gitignore", "ignored.txt\nbuild/\n*.log\n!keep.log\n"],
  [
    "src/app.ts",
    "import { util } from './util';\n// TODO: wire the app\nconst a = 1;\nconst b = 2;\n// todo lower\nexport {};\n",
  ],
  ["src/util.ts", "export function util() {\n  return 'TODO later';\n}\n"],
  ["src/nested/.gitignore", "local.ts\n"],
  ["src/trace.log", "TODO ignored by the root .gitignore\n"],
  ["src/nested/local.ts", "// TODO ignored by the nested .gitignore\n"],
  ["src/nested/deep.ts", "line one\nline two\n// TODO deep\nline four\nline five\nline six\n// TODO again\n"],
  ["ignored.txt", "TODO but ignored\n"],
  ["build/out.js", "TODO in build output\n"],
  ["debug.log", "TODO in a log\n"],
  ["keep.log", "TODO in a kept log\n"],
  [".hidden/notes.md", "TODO hidden notes\n"],
  [".git/config", "TODO inside .git\n"],
  ["blob.dat", new Uint8Array([84, 79, 68, 79, 0, 1, 2, 84, 79, 68, 79])],
  ["crlf.txt", "TODO one\r\nplain\r\nTODO two\r\n"],
  ["multi.txt", "begin\nmiddle\nend\nbegin\nother\n"],
  ["ünïcode.txt", "TODO café ☕\n"],
];

export function grepFixture(): string {
  const dir = tempDir("toolrt-grep-");
  FILES.forEach(([name, content], i) => {
    mkdirSync(dirname(join(dir, name)), { recursive: true });
    writeFileSync(join(dir, name), content);
    const time = new Date(Date.UTC(2024, 0, 1, 0, 0, i));
    utimesSync(join(dir, name), time, time);
  });
  return dir;
}
