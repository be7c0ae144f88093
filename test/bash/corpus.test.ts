/**
 * The benign corpus (real commands from tldr-pages and typical agent commands): at most 1 % may be
 * denied, and every line with a finding beyond its own prefix is listed here with why it is right.
 */
import { expect, test } from "bun:test";
import { analyzeBash } from "../../src/bash/analyze.ts";
import type { BashAnalysis } from "../../src/bash/types.ts";
import { benignCommands } from "./benign-corpus.ts";

/** Reviewed findings: the command and why the finding is correct. */
const REVIEWED: Record<string, string> = {
  "git commit --amend": "warning only: it rewrites the last commit",
  "git clean --interactive":
    "work-loss guard: it deletes the untracked files picked on its input, which a pipe can answer",
  "git apply -R README.md":
    "work-loss guard: a patch applied in reverse reverts the changes it names, uncommitted ones too",
  "patch --input patch.diff --reverse":
    "work-loss guard: a patch applied in reverse reverts the changes it names, uncommitted ones too",
  "git checkout-index --all -f --no-create":
    "work-loss guard: -f overwrites every checked-out file that has uncommitted changes (--no-create only skips missing ones)",
  'node -p "process.versions"':
    "node -p evaluates its argument as code (inline code cannot be prefix-allowed)",
  "perl -n -e 'print if m/regex1/ and m/regex2/i'": "perl -e runs inline code",
  "perl -n -E 'say $1 if m/before ( group_regex ) after/x'": "perl -E runs inline code",
  "ls | sed -f script.sed": "a sed script file may hold w/e commands the analyzer cannot see",
  "deno run --allow-all jsr:@deno/deployctl": "deno fetches the jsr: module from the network and runs it",
  "strace node": "strace runs the command it traces; node is judged on its own",
  "strace -e trace=file node": "strace runs the command it traces; node is judged on its own",
  "strace --follow-forks -e trace=network -o trace.txt node":
    "strace runs the command it traces; node is judged on its own",
  "valgrind node": "valgrind runs the program it is given; node is judged on its own",
  "valgrind --tool=cachegrind node": "valgrind runs the program it is given; node is judged on its own",
  "valgrind --tool=massif --stacks=yes node":
    "valgrind runs the program it is given; node is judged on its own",
  "valgrind --leak-check=full --show-leak-kinds=all node":
    "valgrind runs the program it is given; node is judged on its own",
  "gh issue view 17 -w": "--web opens the page in a web browser, a program the command does not name",
  "gh label list -w": "--web opens the page in a web browser, a program the command does not name",
  "gh pr view --web": "--web opens the page in a web browser, a program the command does not name",
  "gh repo view octocat/hello-world -w":
    "--web opens the page in a web browser, a program the command does not name",
};

function findings(a: BashAnalysis): string[] {
  return [
    ...(a.parse === "simple" ? [] : [`parse ${a.parse}`]),
    ...a.checks.map((c) => `check ${c.id}`),
    ...a.catastrophic.map((c) => `catastrophic ${c.id}`),
    ...a.askReasons,
    ...a.commands.flatMap((c) => c.noAutoAllow),
    ...a.warnings,
  ];
}

test("at most 1 % of the benign corpus is denied, and only reviewed lines have findings", async () => {
  const lines = benignCommands();
  expect(lines.length).toBeGreaterThan(4000);
  const flagged: Record<string, string[]> = {};
  let denied = 0;
  for (const line of lines) {
    const a = await analyzeBash(line);
    if (a.catastrophic.length > 0) denied++;
    const found = findings(a);
    if (found.length > 0) flagged[line] = found;
  }
  expect(denied / lines.length).toBeLessThanOrEqual(0.01);
  expect(Object.keys(flagged).sort()).toEqual(Object.keys(REVIEWED).sort());
});
