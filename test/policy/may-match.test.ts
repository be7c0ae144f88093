/**
 * Deny and ask rules against what a command may turn out to be: `*`-patterns that meet, and the
 * sandbox stepping back when a rule could match a word or path known only at run time.
 */
import { beforeAll, describe, expect, test } from "bun:test";
import { loadBashParser } from "../../src/bash/parser.ts";
import { globsMeet } from "../../src/policy/may-match.ts";
import { bashDecision, type Sandbox, sandbox } from "./helpers.ts";

beforeAll(async () => {
  await loadBashParser();
});

describe("globsMeet: some text matches both patterns", () => {
  test.each([
    ["git push", "git*", true],
    ["git push", "git*push", true],
    ["git push *", "git*", true],
    ["git push", "*push", true],
    ["git push", "git status*", false],
    ["git push", "npm*", false],
    ["git push *", "git*--force", true],
    ["rm -rf *", "rm*build", true],
    ["curl", "curl*", true],
    ["curl", "curly*", false],
    ["a*c", "*b*", true],
    ["", "*", true],
    ["x", "", false],
  ])("%s and %s: %p", (a, b, meet) => {
    expect(globsMeet(a, b)).toBe(meet);
    expect(globsMeet(b, a)).toBe(meet);
  });
});

const sandboxedDecision = (box: Sandbox, command: string, cliRules: Record<string, string[]> = {}) =>
  bashDecision(box, command, { sandboxed: true, cliRules });

describe("the sandbox steps back when a deny or ask rule could match a run-time value", () => {
  test.each([
    // npm, not git: an unknown word of a git command may also be a work-loss option (opaque).
    ["npm $(cat arg)", "Bash(npm publish:*)"],
    ["cat list | xargs npm", "Bash(npm publish:*)"],
    ["cat list | xargs -I{} npm {}", "Bash(npm publish:*)"],
    ["npm $EMPTY publish", "Bash(npm publish)"],
    ["timeout $T npm publish", "Bash(npm publish:*)"],
    ['for s in $(cat subs); do npm "$s"; done', "Bash(npm publish:*)"],
    ["cd() { echo hi; }", "Bash(cd:*)"],
  ])("%s with %s denied", async (command, rule) => {
    const box = sandbox();
    const decision = await sandboxedDecision(box, command, { deny: [rule] });
    expect(decision.decision, decision.reason).toBe("ask");
    expect(decision.reason).toContain(`${rule} (deny, cli) could match what it runs`);
    // Without the rule it is not that rule that stops it (what xargs appends may still be a file
    // the default policy asks about: see the next tests).
    const unruled = await sandboxedDecision(box, command);
    expect(unruled.reason).not.toContain(rule);
    if (!command.includes("xargs")) expect(unruled.decision).toBe("allow");
  });

  test("what xargs appends may be a file the default policy asks about", async () => {
    const box = sandbox();
    const decision = await sandboxedDecision(box, "git ls-files | xargs cat");
    expect(decision.decision).toBe("ask");
    expect(decision.reason).toMatch(/xargs reads from its input/);
  });

  test("a path known only at run time may be a file the default policy asks about", async () => {
    const box = sandbox();
    const decision = await sandboxedDecision(box, 'for f in $(cat list); do cat "$f"; done');
    expect(decision.decision).toBe("ask");
    expect(decision.reason).toMatch(/Read\(~\/\.ssh\/\*\*\) \(ask, default\) could match/);
  });

  test("a rule that cannot match any value leaves the sandbox to allow", async () => {
    const box = sandbox();
    const decision = await sandboxedDecision(box, 'git commit -m "$(date)"', { deny: ["Bash(git push:*)"] });
    expect(decision.decision, decision.reason).toBe("allow");
    expect(decision.sandbox?.autoAllowed).toBe(true);
  });
});

describe("the sandbox steps back when a deny or ask rule could match a command the words hide", () => {
  // Each ran the hidden program in real bash 5.2: `/usr/*/curl --version` printed curl's version,
  // GIT_SSH_COMMAND ran `touch` on `git fetch ssh://...`, `npm publ --dry-run` published (dry run).
  test.each([
    ["/usr/*/curl -s https://x.example", "Bash(curl:*)"],
    ["cur? https://x.example", "Bash(curl:*)"],
    ["valgrind curl https://x.example", "Bash(curl:*)"],
    ["npx curl https://x.example", "Bash(curl:*)"],
    ["GIT_SSH_COMMAND='curl https://x.example' git fetch", "Bash(curl:*)"],
    ["npm --registry=https://x.example publish", "Bash(npm publish:*)"],
    ["npm publ", "Bash(npm publish:*)"],
  ])("%s with %s denied", async (command, rule) => {
    const box = sandbox();
    const decision = await sandboxedDecision(box, command, { deny: [rule] });
    expect(decision.decision, decision.reason).not.toBe("allow");
  });

  // Programs that run what their options, environment or input say. Each ran a stub `curl` (it
  // appends to a file) in real bash 5.2 with vim 9, GNU ed, less 590 and perl 5.36.
  test.each([
    "LESSOPEN='|curl x %s' less a.txt",
    "export LESSOPEN='|curl x %s'; less a.txt",
    "env LESSOPEN='|curl x %s' less a.txt",
    "vim -es -c '!curl x' -c q",
    "vi -es -c '!curl x' -c q",
    "echo hi | vi -es -c '!curl x' -c q",
    `vim -es -c 'call system("curl x")' -c q`,
    "ed -s a.txt <<< '!curl x'",
    "ed -s a.txt <<'EOF'\n!curl x\nEOF",
    "sed 'e curl x' a.txt",
    "PERL5OPT='-Mstrict;system(q(curl),q(x));' perl a.pl",
    "env -vS'curl x'",
    // Code that builds the command while it runs (each ran the stub too):
    `python3 -c 'import os; os.system("cu" "rl x")'`,
    `python3 -c 'import subprocess as s; s.call("cu"+"rl x", shell=True)'`,
    `awk 'BEGIN{c="cu"; system(c "rl x")}'`,
    `node -e 'require("child_process").execSync("cu"+"rl x")'`,
  ])("%s: an ask rule for the program it hides is met", async (command) => {
    const box = sandbox();
    const decision = await sandboxedDecision(box, command, { ask: ["Bash(curl:*)"] });
    expect(decision.decision, decision.reason).toBe("ask");
    expect((await sandboxedDecision(box, command)).decision, command).not.toBe("deny");
  });

  test("a name or path that only contains the program's name is not a command", async () => {
    const box = sandbox();
    for (
      const command of [
        "cat src/curl/notes.txt",
        "vim -c 'set nu' a.txt",
        "ed -s a.txt <<< 'w'",
        `python3 -c 'import os; print(os.getcwd())'`,
        `python3 -c 'import subprocess; subprocess.run(["ls", "-l"])'`,
      ]
    ) {
      const decision = await sandboxedDecision(box, command, { ask: ["Bash(curl:*)"] });
      expect(decision.decision, `${command}: ${decision.reason}`).toBe("allow");
    }
  });

  test("words that cannot be the denied command leave the sandbox to allow", async () => {
    const box = sandbox();
    for (const command of ["npm test", "npm run build", "echo done"]) {
      const decision = await sandboxedDecision(box, command, {
        deny: ["Bash(npm publish:*)", "Bash(curl:*)"],
      });
      expect(decision.decision, `${command}: ${decision.reason}`).toBe("allow");
    }
  });
});

describe("an Edit deny rule holds against programs that write the files they are given", () => {
  // Each changed a.txt in real bash 5.2 (perl 5.36, Python 3.11, vim 9): aaa became baa, or b.
  test.each([
    "perl -pi -e s/a/b/ a.txt",
    "perl -i -pe 's/a/b/' a.txt",
    `python3 -c 'open("a.txt","w").write("b")'`,
    "vim -es -c '%s/a/b/' -c wq a.txt",
    // What an archive holds is named only inside it (GNU tar 1.34 and unzip 6.0 overwrote a.txt).
    "tar -xf x.tar",
    "unzip -o x.zip",
  ])("%s", async (command) => {
    const box = sandbox();
    const decision = await sandboxedDecision(box, command, { deny: ["Edit(./a.txt)"] });
    expect(decision.decision, decision.reason).toBe("ask");
    expect(decision.reason).toContain("Edit(./a.txt) (deny, cli) could match");
    // Without the rule only an extraction is held: it may overwrite a file the defaults ask about.
    const unruled = await sandboxedDecision(box, command);
    expect(unruled.decision).toBe(/^(tar|unzip) /.test(command) ? "ask" : "allow");
  });

  test("patch's original file is the file it writes: the deny rule meets it", async () => {
    const box = sandbox();
    const decision = await sandboxedDecision(box, "patch a.txt < fix.diff", { deny: ["Edit(./a.txt)"] });
    expect(decision.decision, decision.reason).toBe("deny");
    expect((await sandboxedDecision(box, "patch a.txt < fix.diff")).decision).toBe("allow");
  });

  test("a redirection's braces are expanded as bash does (real bash wrote a.txt for > {a.txt,})", async () => {
    const box = sandbox();
    for (const command of ["echo x > {a.txt,}", "echo x > {,a.txt}"]) {
      const decision = await sandboxedDecision(box, command, { deny: ["Edit(./a.txt)"] });
      expect(decision.decision, `${command}: ${decision.reason}`).toBe("deny");
    }
  });

  test("reading the file, or writing another, is not held up", async () => {
    const box = sandbox();
    for (const command of ["cat a.txt", "perl -pi -e s/a/b/ b.txt", "npm test"]) {
      const decision = await sandboxedDecision(box, command, { deny: ["Edit(./a.txt)"] });
      expect(decision.decision, `${command}: ${decision.reason}`).toBe("allow");
    }
  });
});

test("a Read deny rule holds against $(< file), bash's $(cat file)", async () => {
  const box = sandbox();
  const decision = await sandboxedDecision(box, 'echo "$(< secrets/token)"', {
    deny: ["Read(./secrets/**)"],
  });
  expect(decision.decision, decision.reason).toBe("deny");
});
