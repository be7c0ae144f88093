/**
 * The hook's fast path: commands that are provably plain words are decided without loading the
 * WASM parser. Over the benign corpus, every such command gets the same hook answer as the same
 * command forced through tree-sitter (a trailing comment turns the fast path off).
 */
import { expect, test } from "bun:test";
import { analyzeBash } from "../../src/bash/analyze.ts";
import { plainWords } from "../../src/bash/tokenize.ts";
import { checkCall } from "../../src/cli/check-call.ts";
import { globalsFrom } from "../../src/cli/options.ts";
import { verdictFor } from "../../src/hook/verdict.ts";
import { loadPolicy } from "../../src/policy/load.ts";
import { benignCommands } from "../bash/benign-corpus.ts";
import { hookWorkspace } from "./workspace.ts";

test("fast-path answers equal full-parser answers over the benign corpus", async () => {
  const ws = hookWorkspace();
  const globals = globalsFrom({ cwd: ws.cwd, stateDir: ws.home, claudeSettings: true });
  const { policy } = loadPolicy({ cwd: ws.cwd, stateDir: ws.home, claudeSettings: true, env: ws.env });
  const answer = async (command: string) => {
    const analysis = await analyzeBash(command);
    const decision = await checkCall("Bash", { command }, policy, globals, { analyzeBash: () => analysis });
    return { parse: analysis.parse, verdict: verdictFor([decision]) };
  };
  const plain = benignCommands().filter((line) => plainWords(line) !== null);
  expect(plain.length).toBeGreaterThan(3000);
  for (const line of plain) {
    const fast = await answer(line);
    const parsed = await answer(`${line} #`);
    expect(parsed.parse, line).toBe("simple");
    expect(fast.verdict, line).toEqual(parsed.verdict);
  }
}, 60_000);
