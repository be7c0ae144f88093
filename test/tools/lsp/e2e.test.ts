/**
 * End to end with a real language server from the npm registry: TypeScript's own (`tsc --lsp`,
 * from the pinned `typescript` devDependency), declared by the typescript-lsp fixture plugin, on
 * a copy of fixtures/lsp-project, through a session's pipeline.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import {
  FIXTURE_PROJECT,
  install,
  type PluginSession,
  pluginSession,
  workspace,
} from "../../plugins/helpers.ts";

let ps: PluginSession;
let cwd: string;

beforeAll(() => {
  const ws = workspace({ project: FIXTURE_PROJECT });
  cwd = ws.cwd;
  install(ws, "typescript-lsp", { scope: "project" });
  ps = pluginSession(ws, { lsp: { requestTimeoutMs: 60_000 } });
});

afterAll(async () => {
  await ps.session.close();
});

const call = (name: string, input: object) => ps.call(name, input);
const lsp = (operation: string, filePath: string, line: number, character: number, extra = {}) =>
  call("LSP", { operation, filePath, line, character, ...extra });

describe("LSP end to end (tsc --lsp)", () => {
  test("an Edit that introduces a type error returns the diagnostic; fixing it clears it", async () => {
    await call("Read", { file_path: "src/main.ts" });
    const broken = await call("Edit", {
      file_path: "src/main.ts",
      old_string: "export const doubled: number = add(2, 2);",
      new_string: "export const doubled: string = add(2, 2);",
    });
    expect(broken.isError).toBe(false);
    expect(broken.text).toContain("Diagnostics for src/main.ts (1 error");
    expect(broken.text).toContain("7:14 error [ts 2322]: Type 'number' is not assignable to type 'string'.");

    const fixed = await call("Edit", {
      file_path: "src/main.ts",
      old_string: "export const doubled: string = add(2, 2);",
      new_string: "export const doubled: number = add(2, 2);",
    });
    expect(fixed.text).toContain("No diagnostics for src/main.ts.");
  });

  test("a Write of a new file with an error reports it too", async () => {
    const written = await call("Write", {
      file_path: "src/extra.ts",
      content: 'import { add } from "./math.ts";\nexport const wrong = add("1", 2);\n',
    });
    expect(written.text).toContain("2:26 error [ts 2345]");
  });

  test("goToDefinition finds add in math.ts", async () => {
    const answer = await lsp("goToDefinition", "src/main.ts", 7, 32);
    expect(answer.text).toBe(
      "1 location:\nsrc/math.ts:2:17  export function add(a: number, b: number): number {",
    );
  });

  test("findReferences lists the declaration and every use", async () => {
    const answer = await lsp("findReferences", join(cwd, "src/math.ts"), 2, 17);
    const places = answer.text.split("\n").slice(1).map((line) => line.split("  ")[0]).sort();
    expect(places).toEqual(
      [
        "src/extra.ts:1:10",
        "src/extra.ts:2:22",
        "src/main.ts:1:10",
        "src/main.ts:4:40",
        "src/main.ts:7:32",
        "src/math.ts:2:17",
      ],
    );
  });

  test("hover, symbols, implementations and calls", async () => {
    expect((await lsp("hover", "src/main.ts", 7, 32)).text).toContain(
      "function add(a: number, b: number): number",
    );
    const outline = (await lsp("documentSymbol", "src/math.ts", 1, 1)).text;
    expect(outline).toContain("add (function) 2:17");
    expect(outline).toContain(
      "Square (class) 10:14\n  constructor (constructor) 11:3\n  side (property) 11:24",
    );
    expect((await lsp("workspaceSymbol", "src/main.ts", 1, 1, { query: "Square" })).text).toContain(
      "Square (class) src/math.ts:10:14",
    );
    expect((await lsp("goToImplementation", "src/math.ts", 6, 18)).text).toContain("src/math.ts:10:14");
    expect((await lsp("incomingCalls", "src/math.ts", 2, 17)).text).toContain(
      "total (function) src/main.ts:3:17",
    );
    expect((await lsp("outgoingCalls", "src/main.ts", 3, 17)).text).toContain(
      "add (function) src/math.ts:2:17",
    );
  });

  test("a file no server handles is refused with what the servers do handle", async () => {
    const answer = await lsp("hover", "README.md", 1, 1);
    expect(answer.isError).toBe(true);
    expect(answer.text).toContain(
      "No language server handles README.md; the declared servers handle .mts, .ts, .tsx",
    );
  });

  test("the LSP tool exposes its path for LSP(path:…) rules, as Read does", () => {
    const tool = ps.pool.find("LSP")!;
    expect(tool.getPath?.({ filePath: "src/main.ts" }, ps.session.context)).toBe(join(cwd, "src/main.ts"));
  });

  test("the server is started once and reused; closing the session stops it", async () => {
    const server = ps.host.lsp.serverFor(join(cwd, "src/main.ts"))!.server;
    expect(server.state).toBe("running");
    await ps.session.close();
    expect(server.state).toBe("stopped");
    const after = await lsp("hover", "src/main.ts", 7, 32);
    expect(after).toMatchObject({ isError: true });
    expect(after.text).toContain("was stopped with the session");
  });
});
