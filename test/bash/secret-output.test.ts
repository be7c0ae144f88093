/**
 * Regression file for secrets printed by read-only commands (class E): each form printed an
 * exported dummy secret in real bash 5.2. They are not read-only (a person approves them, or an
 * allow rule does), and the decision says why. Secret-looking names are the sandbox's scrub list.
 */
import { describe, expect, test } from "bun:test";
import { analyzeBash } from "../../src/bash/analyze.ts";
import { printedSecrets, secretMessage, secretVariable } from "../../src/bash/secret-output.ts";
import { DEFAULT_SECRET_ENV_PATTERNS } from "../../src/sandbox/env.ts";

const PRINTS = [
  "env",
  "env -0",
  "printenv",
  "printenv GITHUB_TOKEN",
  "set",
  "declare -p",
  "typeset -px",
  "export",
  "export -p",
  "ps e",
  "ps eww",
  "ps auxe",
  "ps -E",
  "jq -n env",
  "jq -n '$ENV.AWS_SECRET_ACCESS_KEY'",
  "jq -n 'env | keys'",
  // jq 1.6 reads `$` and the name as two tokens: blanks, tabs, newlines and comments between them.
  "jq -n '$ ENV.GITHUB_TOKEN'",
  "jq -n '$ ENV'",
  "jq -n '$\tENV'",
  "jq -n '$\n  ENV'",
  "jq -n '$ # comment\nENV.GITHUB_TOKEN'",
  "awk 'BEGIN{print ENVIRON[\"AWS_SECRET_ACCESS_KEY\"]}'",
  "gawk 'BEGIN{for (k in ENVIRON) print k, ENVIRON[k]}'",
  'echo "$AWS_SECRET_ACCESS_KEY"',
  "echo $OPENAI_API_KEY",
  "echo x$GITHUB_TOKEN",
  "printf '%s' \"$DB_PASSWORD\"",
  'cat <<< "$NPM_TOKEN"',
];

describe("secrets printed by read-only commands", () => {
  test("none is read-only, and each says why", async () => {
    for (const command of PRINTS) {
      const a = await analyzeBash(command);
      expect(a.readOnly, command).toBe(false);
      const why = [...a.commands.flatMap((c) => c.reasons ?? []), ...a.checks.map((c) => c.message)];
      expect(why.length, command).toBeGreaterThan(0);
    }
  });
  test("harmless variables and ordinary forms stay read-only", async () => {
    for (
      const command of [
        "echo $HOME $PATH",
        "ps aux",
        "ps -ef",
        "ps -C node -o pid,etime",
        "jq '.env' package.json",
        "awk '{print $1}' f",
      ]
    ) {
      expect((await analyzeBash(command)).readOnly, command).toBe(true);
    }
  });
});

describe("the one list of secret-looking names", () => {
  test("is the sandbox's scrub list", () => {
    expect(DEFAULT_SECRET_ENV_PATTERNS).toContain(secretVariable("GITHUB_TOKEN")!);
    expect(secretVariable("AWS_SECRET_ACCESS_KEY")).toBe("*SECRET*");
    expect(secretVariable("SSH_AUTH_SOCK")).toBe("SSH_AUTH_SOCK");
    expect(secretVariable("HOME")).toBeUndefined();
  });
  test("messages name the variable and the pattern", () => {
    expect(secretMessage("GITHUB_TOKEN")).toBe(
      "prints $GITHUB_TOKEN, whose name looks like a secret (*TOKEN*)",
    );
    expect(secretMessage("FOO")).toBe("prints $FOO, which may hold a secret");
    expect(printedSecrets("cat", [], [{ op: "<<<", target: "$NPM_TOKEN" }])).toEqual([
      "cat <<< prints $NPM_TOKEN, whose name looks like a secret (*TOKEN*)",
    ]);
    expect(printedSecrets("env", ["-0"], [])).toEqual([
      "env prints the whole environment, which holds secrets",
    ]);
    expect(printedSecrets("set", ["-e"], [])).toEqual([]);
  });
});
