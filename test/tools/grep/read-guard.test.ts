/**
 * Grep leaves out files a Read deny or ask rule covers, and says so whatever they hold. Before, with
 * the default policy, `toolrt run Grep '{"pattern":"FAKE","path":".","output_mode":"content"}'`
 * printed `server.key:1:FAKE-SERVER-KEY` and `certs/tls.pem:1:FAKE-PEM`, whose Read asks.
 */
import { describe, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { loadPolicy } from "../../../src/policy/load.ts";
import { readRuleFor } from "../../../src/policy/read-guard.ts";
import { createGrepTool } from "../../../src/tools/grep/tool.ts";
import { programFor } from "../../helpers/requirements.ts";
import { callTool, makeContext, modelText, tempDir } from "../helpers.ts";

function workspace(): { dir: string; guard: (path: string) => string | undefined } {
  const root = tempDir("toolrt-grep-guard-");
  const dir = join(root, "work");
  const files: Record<string, string> = {
    "server.key": "FAKE-SERVER-KEY\n",
    "certs/tls.pem": "FAKE-PEM\n",
    ".env.json": '{"API_KEY":"FAKE-envjson"}\n',
    "secrets/token.txt": "FAKE-token\n",
    "src/a.ts": "// FAKE fixture\n",
    "notes.md": "nothing here\n",
  };
  for (const [name, content] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, name)), { recursive: true });
    writeFileSync(join(dir, name), content);
  }
  mkdirSync(join(root, "home"));
  const { policy } = loadPolicy({
    cwd: dir,
    stateDir: join(root, "state"),
    env: { HOME: join(root, "home"), TOOLRT_MANAGED_POLICY: join(root, "managed") },
    cliRules: { deny: ["Read(./secrets/**)"] },
  });
  return {
    dir,
    guard: (path) => readRuleFor(policy, path, { cwd: dir, additionalDirs: [], mode: "default" }),
  };
}

const engines: [string, ReturnType<typeof createGrepTool>][] = [[
  "builtin",
  createGrepTool({ engine: "builtin" }),
]];
if (programFor("rg", "Grep's read guard with the ripgrep engine")) {
  engines.push(["ripgrep", createGrepTool({ engine: "ripgrep" })]);
}

describe("Grep leaves out files a Read rule covers", () => {
  for (const [name, tool] of engines) {
    test(`${name}: content, file lists and counts show none of them, and the note names them all`, async () => {
      const { dir, guard } = workspace();
      for (const output_mode of ["content", "files_with_matches", "count"] as const) {
        const text = modelText(
          await callTool(
            tool,
            { pattern: "FAKE", path: ".", output_mode },
            makeContext(dir, { readGuard: guard }),
          ),
        );
        const [body, note] = text.split("\n\n(");
        expect(body, output_mode).toContain("src/a.ts");
        for (const hidden of ["server.key", "tls.pem", ".env.json", "token.txt"]) {
          expect(body).not.toContain(hidden);
        }
        expect(text).not.toMatch(/FAKE-(?:SERVER|PEM|envjson|token)/);
        expect(note).toContain("server.key (Read(*.key) asks)");
        expect(note).toContain("certs/tls.pem (Read(*.pem) asks)");
        expect(note).toContain(".env.json (Read(.env.*) asks)");
        expect(note).toContain("secrets/token.txt (Read(./secrets/**) denies)");
      }
    });
    test(`${name}: the note is the same whether the covered files match or not`, async () => {
      const { dir, guard } = workspace();
      const note = async (pattern: string) =>
        modelText(await callTool(tool, { pattern, path: "." }, makeContext(dir, { readGuard: guard }))).split(
          "\n\n(",
        )[1];
      expect(await note("FAKE-SERVER")).toBe(await note("no-such-text"));
    });
  }
  test("without a guard (no policy in the context) nothing is left out", async () => {
    const { dir } = workspace();
    const text = modelText(
      await callTool(
        createGrepTool({ engine: "builtin" }),
        { pattern: "FAKE-PEM", path: "." },
        makeContext(dir),
      ),
    );
    expect(text).toContain("tls.pem");
  });
});
