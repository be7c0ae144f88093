import { describe, expect, test } from "bun:test";
import { analyzeBash, analyzeWith, MAX_SUBCOMMANDS, rulesMayAllow } from "../../src/bash/analyze.ts";
import { loadBashParser } from "../../src/bash/parser.ts";
import { interpretExitCode } from "../../src/bash/semantics.ts";
import { plainWords } from "../../src/bash/tokenize.ts";
import type { BashAnalysis } from "../../src/bash/types.ts";
import { benignCommands } from "./benign-corpus.ts";

const parser = await loadBashParser();

describe("parsing outcomes", () => {
  test("the parser loads from the embedded WASM files", () => {
    expect(parser).not.toBeNull();
  });
  test("simple: compound commands are split into sub-commands with quotes resolved", async () => {
    const a = await analyzeBash(`FOO=1 git commit -m "a b" 2>/dev/null && ls | wc -l; (cd src) || echo 'x'`);
    expect(a.parse).toBe("simple");
    expect(a.commands.map((c) => c.argv)).toEqual([
      ["git", "commit", "-m", "a b"],
      ["ls"],
      ["wc", "-l"],
      ["cd", "src"],
      ["echo", "x"],
    ]);
    expect(a.commands[0]!.env).toEqual({ FOO: "1" });
    expect(a.commands[0]!.redirects).toEqual([{ op: "2>", target: "/dev/null" }]);
  });
  test("too-complex: substitutions, expansions and control flow ask", async () => {
    for (
      const c of [
        "echo $(date)",
        "echo ${x:-y}",
        "for f in *; do rm $f; done",
        "if true; then ls; fi",
        "echo $((1+2))",
        "[[ -f x ]] && ls",
      ]
    ) {
      const a = await analyzeBash(c);
      expect(a.parse, c).toBe("too-complex");
      expect(rulesMayAllow(a), c).toBe(false);
      expect(a.askReasons.length, c).toBeGreaterThan(0);
    }
  });
  test("parse-unavailable can only ask, and still finds catastrophes for deny", () => {
    for (const c of ["git status && ls", "echo 'a b' | wc", "ls $(x)"]) {
      const a = analyzeWith(c, null);
      expect(a.parse, c).toBe("parse-unavailable");
      expect(a.readOnly, c).toBe(false);
      expect(rulesMayAllow(a), c).toBe(false);
    }
    expect(analyzeWith("ls && rm -rf /", null).catastrophic.map((c) => c.id)).toEqual(["rm-root"]);
    expect(analyzeWith("git status", null).parse).toBe("simple");
  });
  test(`more than ${MAX_SUBCOMMANDS} sub-commands ask`, async () => {
    const a = await analyzeBash(Array.from({ length: MAX_SUBCOMMANDS + 1 }, () => "ls").join(" && "));
    expect(a.parse).toBe("too-complex");
    expect(a.askReasons.join(" ")).toContain("sub-commands");
    expect((await analyzeBash(Array.from({ length: MAX_SUBCOMMANDS }, () => "ls").join(" && "))).readOnly)
      .toBe(true);
  });
});

describe("the fast path gives the same answer as the parser", () => {
  test("plain-word commands from the benign corpus", async () => {
    const plain = benignCommands().filter((l) => plainWords(l) !== null);
    expect(plain.length).toBeGreaterThan(1000);
    for (const line of plain) {
      // The same command forced through tree-sitter: a trailing comment disables the fast path.
      const viaParser = analyzeWith(`${line} #`, parser);
      const fast = analyzeWith(line, parser);
      expect({ ...fast, command: "" }, line).toEqual({ ...viaParser, command: "" });
    }
  });
  test("anything with quotes, operators, expansions or reserved words needs the parser", () => {
    for (
      const c of [
        "echo 'x'",
        "a && b",
        "ls $HOME",
        "ls *.ts",
        "if x",
        "FOO=1 ls",
        "ls ~",
        "a  b",
        "echo a#b",
        "=curl x",
      ]
    ) {
      expect(plainWords(c), c).toBeNull();
    }
  });
});

describe("bad input never crashes and always asks or denies", () => {
  const bad = [
    "",
    "   ",
    "x".repeat(1_000_000),
    "echo " + "a ".repeat(200_000),
    "ls\x00rm -rf /",
    "echo \ud800 broken surrogate",
    `echo "unterminated`,
    "echo 'unterminated",
    "$(".repeat(2000) + "x" + ")".repeat(2000),
    "(".repeat(5000),
    Array.from({ length: 10_000 }, (_, i) => `echo ${i}`).join(" && "),
    "{".repeat(3000) + "}".repeat(3000),
    "\\".repeat(10_000),
  ];
  for (const c of bad) {
    test(`${JSON.stringify(c.slice(0, 30))} (${c.length} chars)`, async () => {
      const a = await analyzeBash(c);
      // Never read-only, so the decision is ask (or deny), with a reason or an unknown command to ask about.
      expect(a.readOnly).toBe(false);
      const findings = a.askReasons.length + a.checks.length + a.catastrophic.length;
      expect(findings > 0 || a.commands.every((cmd) => !cmd.readOnly)).toBe(true);
    });
  }
  test("a NUL byte does not hide a catastrophe", async () => {
    expect((await analyzeBash("ls\x00; rm -rf /")).catastrophic.length).toBe(1);
  });
});

describe("prefixes and suggestions", () => {
  test("two-word prefixes for subcommands, none for flags, paths, shells and wrappers", async () => {
    const cases: [string, string | null][] = [
      ["git commit -m 'fix typo'", "git commit"],
      ["npm run build", "npm run"],
      ["NODE_ENV=prod npm run build", "npm run"],
      ["timeout 5 npm test", "npm test"],
      ["git -C x push origin main", "git push"],
      ["ls -la", null],
      ["rm build", null],
      ["bash -c 'rm -rf /'", null],
      ["sudo make install", null],
      ["env FOO=1 make", null],
      ["xargs -0 make", null],
      ["python3 x.py", null],
      ["make", null],
    ];
    for (const [c, prefix] of cases) expect((await analyzeBash(c)).prefix, c).toBe(prefix);
  });
  test("suggestions: prefix rules or exact commands, none for read-only or unallowable commands, at most 5", async () => {
    expect((await analyzeBash("git commit -m x")).suggestions).toEqual(["Bash(git commit:*)"]);
    expect((await analyzeBash("make")).suggestions).toEqual(["Bash(make)"]);
    expect((await analyzeBash("git status")).suggestions).toEqual([]);
    expect((await analyzeBash("echo $(date)")).suggestions).toEqual([]);
    expect((await analyzeBash("FOO=1 make")).suggestions).toEqual([]);
    const many = await analyzeBash("a1 x && a2 x && a3 x && a4 x && a5 x && a6 x && a7 x");
    expect(many.suggestions).toHaveLength(5);
  });
});

describe("read-only commands run without a prompt; dangerous argument forms do not", () => {
  const readOnly = [
    "git show HEAD",
    "git log --oneline -5",
    "git status",
    "git diff --stat",
    "rg --files",
    "npm ls",
    "unzip -l a.zip",
    "ls -la src",
    "cat README.md",
    "head -n 5 a",
    "wc -l a",
    "grep -rn TODO src",
    "find . -name '*.ts'",
    "sed -n '1,5p' a",
    "git branch",
    "git log | head -1",
    "ls && echo ok",
    "cd build && ls",
    "cat x > /dev/null",
    "jq .name package.json",
    "tar -tf a.tar",
  ];
  const notReadOnly = [
    "git branch new",
    "git tag v1",
    "git stash",
    "git push",
    "npm install",
    "touch a",
    "ls > out",
    "tar -xf a.tar",
    "unzip a.zip",
    "git config user.name x",
  ];
  for (const c of readOnly) {
    test(`read-only: ${c}`, async () => expect((await analyzeBash(c)).readOnly).toBe(true));
  }
  for (const c of notReadOnly) {
    test(`not read-only: ${c}`, async () => expect((await analyzeBash(c)).readOnly).toBe(false));
  }
});

describe("information for people", () => {
  test("destructive warnings", async () => {
    const cases: [string, string][] = [
      [
        "git reset --hard HEAD~1",
        "git reset --hard (or read-tree -u, or aborting a merge or rebase) discards uncommitted changes",
      ],
      ["git push --force origin main", "git push --force overwrites remote history"],
      ["git push origin +main", "git push --force overwrites remote history"],
      ["git commit --no-verify -m x", "may skip safety hooks"],
      ["git commit --amend", "may rewrite the last commit"],
      ["rm -rf build", "may recursively force-remove files"],
      [`psql -c "DROP TABLE users"`, "may drop or truncate database objects"],
      [`psql -c "DELETE FROM users;"`, "may delete all rows"],
      ["kubectl delete pod x", "may delete Kubernetes resources"],
      ["terraform destroy", "may destroy Terraform infrastructure"],
      ["git clean -fd", "git clean deletes untracked files"],
    ];
    for (const [c, warning] of cases) expect((await analyzeBash(c)).warnings, c).toContain(warning);
    expect((await analyzeBash(`psql -c "DELETE FROM users WHERE id = 1;"`)).warnings).toEqual([]);
    expect((await analyzeBash("git push origin main")).warnings).toEqual([]);
  });
  test("exit-code semantics", async () => {
    expect(interpretExitCode(await analyzeBash("grep x f"), 1)).toEqual({
      isError: false,
      meaning: "no matches",
    });
    expect(interpretExitCode(await analyzeBash("cat f | rg x"), 1)).toEqual({
      isError: false,
      meaning: "no matches",
    });
    expect(interpretExitCode(await analyzeBash("diff a b"), 1)).toEqual({
      isError: false,
      meaning: "the files differ",
    });
    expect(interpretExitCode(await analyzeBash("test -f x"), 1).isError).toBe(false);
    expect(interpretExitCode(await analyzeBash("find . -name x"), 1).isError).toBe(false);
    expect(interpretExitCode(await analyzeBash("grep x f"), 2)).toEqual({ isError: true });
    expect(interpretExitCode(await analyzeBash("grep x f | wc -l"), 1)).toEqual({ isError: true });
    expect(interpretExitCode(await analyzeBash("make"), 0)).toEqual({ isError: false });
  });
  test("classification of pipelines; neutral commands do not spoil it", async () => {
    const cases: [string, BashAnalysis["classification"]][] = [
      ["grep -r x src | head", "search"],
      ["cat a | wc -l", "read"],
      ["ls src && echo --- && ls lib", "list"],
      ["ls && npm test", "other"],
      ["echo hi", "other"],
    ];
    for (const [c, group] of cases) expect((await analyzeBash(c)).classification, c).toBe(group);
  });
});
