/** The SBPL well-formedness check: each way a profile can be one sandbox-exec rejects. */
import { describe, expect, test } from "bun:test";
import { checkSbpl, parseSbpl, SBPL_MAX_STRING_BYTES } from "../../src/sandbox/sbpl-check.ts";
import { sbplString } from "../../src/sandbox/sbpl.ts";

const ok = '(version 1)\n(deny default (with message "t"))\n(allow file-read* (subpath (param "ROOT")))\n';

describe("checkSbpl", () => {
  test("a well-formed profile has no problem", () => {
    expect(checkSbpl(ok, ["ROOT"])).toEqual([]);
  });

  test.each(
    [
      ["an unclosed list", "(version 1)\n(allow file-read*\n", [], '2:1: "(" is never closed'],
      ["a stray close", "(version 1))\n", [], '1:12: ")" closes nothing'],
      ["no version first", "(deny default)\n", [], "1:1: the profile must start with (version 1)"],
      ["an unknown operation", "(version 1)\n(allow file-reed*)\n", [], "2:8: unknown operation file-reed*"],
      ["no operation", '(version 1)\n(allow (literal "/x"))\n', [], "2:1: (allow ...) names no operation"],
      [
        "an unknown filter",
        '(version 1)\n(allow file-read* (litteral "/x"))\n',
        [],
        "2:19: unknown filter litteral",
      ],
      [
        "a symbol after a filter",
        '(version 1)\n(allow file-read* (literal "/x") file-write*)\n',
        [],
        "expected a filter list, got a symbol",
      ],
      [
        "something else than allow or deny",
        "(version 1)\n(define x 1)\n",
        [],
        "expected (allow ...) or (deny ...), got (define ...)",
      ],
      [
        "an undefined parameter",
        '(version 1)\n(allow file-read* (subpath (param "X")))\n',
        [],
        "parameter X is used but not defined",
      ],
      ["an unused parameter", ok, ["ROOT", "EXTRA"], "parameter EXTRA is defined but never used"],
      [
        "an escape the generator never writes",
        '(version 1)\n(allow file-read* (literal "a\\nb"))\n',
        [],
        "escape \\n",
      ],
      [
        'a #"..." string',
        '(version 1)\n(allow file-read* (regex #"^/x"))\n',
        [],
        '#"..." strings are not used',
      ],
      [
        "a regex that does not compile",
        '(version 1)\n(allow file-read* (regex "^/x("))\n',
        [],
        "regex does not compile",
      ],
      [
        "a regex not anchored",
        '(version 1)\n(allow file-read* (regex "/x$"))\n',
        [],
        "regex is not anchored",
      ],
      ["an unclosed string", '(version 1)\n(allow file-read* (literal "/x))\n', [], "string is never closed"],
    ] as const,
  )("%s", (_name, text, params, problem) => {
    const problems = checkSbpl(text, params);
    expect(problems.some((p) => p.includes(problem)), JSON.stringify(problems)).toBe(true);
  });

  test("a string over the reader's buffer is rejected, one at the limit is not", () => {
    const at = (bytes: number) =>
      `(version 1)\n(allow file-read* (literal ${sbplString("/" + "é".repeat((bytes - 1) / 2))}))\n`;
    expect(checkSbpl(at(SBPL_MAX_STRING_BYTES - 1))).toEqual([]);
    expect(checkSbpl(at(SBPL_MAX_STRING_BYTES + 1))[0]).toContain(
      `string of ${SBPL_MAX_STRING_BYTES + 1} bytes`,
    );
  });

  test("escaping round-trips: quotes and backslashes in a string are read back as written", () => {
    const written = '/a "b" \\c\\';
    const { forms, problems } = parseSbpl(
      `(version 1)\n(allow file-read* (literal ${sbplString(written)}))\n`,
    );
    expect(problems).toEqual([]);
    expect(JSON.stringify(forms[1])).toContain(JSON.stringify(written));
  });
});
