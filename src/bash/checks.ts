/**
 * The 23 security checks. Each has a stable id (for logs and `toolrt check --json`), a name and a
 * message that says what was found. A fired check means no prefix rule may auto-allow the command.
 */
import type { CheckHit } from "./types.ts";
import type { QuoteViews } from "./views.ts";

export interface CheckInput {
  raw: string;
  views: QuoteViews;
  /** Effective argv of every command (wrappers removed), nested ones included. */
  argvs: string[][];
  /** tree-sitter reported syntax errors, or the fallback reader found an unterminated quote. */
  malformed: boolean;
}

interface Check {
  id: number;
  name: string;
  /** Returns the message for a hit, or null. */
  test: (input: CheckInput) => string | null;
}

/** Bash's own: the walker follows what runs inside. */
const PROCESS_SUBSTITUTIONS: [RegExp, string][] = [
  [/<\(/, "process substitution <(...)"],
  [/>\(/, "process substitution >(...)"],
];
/** Other shells' (zsh, PowerShell): a bash parser reads them as something else. */
const FOREIGN_SUBSTITUTIONS: [RegExp, string][] = [
  [/=\(/, "zsh process substitution =(...)"],
  [/(?:^|[\s;&|])=[A-Za-z_]/, "zsh equals expansion (=cmd runs the program found on PATH)"],
  [/~\[/, "zsh-style parameter expansion ~[...]"],
  [/\(e:/, "zsh glob qualifier (e:...) runs code"],
  [/\(\+/, "zsh glob qualifier (+...) runs code"],
  [/\}\s*always\s*\{/, "zsh always block"],
  [/<#/, "PowerShell block comment <#"],
];
const SUBSTITUTIONS = [...PROCESS_SUBSTITUTIONS, ...FOREIGN_SUBSTITUTIONS];
const SUBSTITUTIONS_IN_DOUBLE_QUOTES: [RegExp, string][] = [
  [/\$\(/, "$() command substitution"],
  [/\$\{/, "${} parameter substitution"],
  [/\$\[/, "$[] legacy arithmetic expansion"],
  [/`/, "backtick command substitution"],
];

const ZSH_DANGEROUS = new Set([
  "zmodload",
  "sysopen",
  "sysread",
  "syswrite",
  "sysseek",
  "zpty",
  "ztcp",
  "zsocket",
  "zselect",
  "zf_rm",
  "zf_mv",
  "zf_ln",
  "zf_chmod",
  "zf_chown",
  "zf_chgrp",
  "zf_mkdir",
  "zf_rmdir",
  "zf_sync",
]);

const UNICODE_SPACE = /[\u00A0\u1680\u180E\u2000-\u200D\u2028\u2029\u202F\u205F\u2060\u3000\uFEFF]/;
// deno-lint-ignore no-control-regex
const CONTROL = /[\x00-\x08\x0B\x0C\x0E-\x1F\x7F\r]/;
/** Direction overrides and isolates: the text shown is reordered, not the text the shell reads. */
const BIDI = /[\u200E\u200F\u202A-\u202E\u2066-\u2069]/;
/** Lone surrogates or U+FFFD: the command was not valid text (invalid UTF-8 decodes to U+FFFD). */
const INVALID_TEXT = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]|\uFFFD/;

function firstMatch(text: string, patterns: [RegExp, string][]): string | null {
  for (const [pattern, message] of patterns) if (pattern.test(text)) return message;
  return null;
}

const jqArgvs = (input: CheckInput) => input.argvs.filter((argv) => /(^|\/)g?jq$/.test(argv[0] ?? ""));

/** The check table, in id order. */
export const CHECKS: readonly Check[] = [
  {
    id: 1,
    name: "INCOMPLETE_COMMANDS",
    test: ({ raw }) => {
      if (/^\s*(?:&&|\|\||[|;&])/.test(raw)) return "starts with an operator; it looks like a fragment";
      if (/^\t/.test(raw)) return "starts with a tab; it looks like a fragment";
      if (/^\s*-/.test(raw)) return "starts with a flag; the command name is missing";
      if (/(?:&&|\|\||\|)\s*$/.test(raw)) return "ends with an operator; the rest of the command is missing";
      return null;
    },
  },
  {
    id: 2,
    name: "JQ_SYSTEM_FUNCTION",
    test: (input) =>
      jqArgvs(input).some((argv) =>
          argv.some((a) => /(?<![.\w$])(?:system\s*\(|input_filename\b)|\$__prog_args\b/.test(a))
        )
        ? "jq program calls system() or reads process details"
        : null,
  },
  {
    id: 3,
    name: "JQ_FILE_ARGUMENTS",
    test: (input) =>
      jqArgvs(input).some((argv) =>
          argv.some((a) =>
            /^(?:-f|--from-file|--rawfile|--slurpfile|-L|--library-path)(?:=|$)/.test(a) || /^-L./.test(a)
          )
        )
        ? "jq reads its program or data from extra files (-f, --rawfile, --slurpfile, -L)"
        : null,
  },
  {
    id: 4,
    name: "OBFUSCATED_FLAGS",
    test: ({ raw, views }) => {
      if (/\$['"]/.test(views.keepQuoteChars)) {
        return "ANSI-C or locale quoting ($'...' or $\"...\") can hide characters";
      }
      if (/(?:^|\s)-+['"]|(?:^|\s)(['"])-+\1[A-Za-z]/.test(raw)) {
        return "quotes around or inside a flag hide it from simple matching";
      }
      if (views.emptyQuotesInWord) return "empty quotes inside a word hide its real text";
      return null;
    },
  },
  {
    id: 5,
    name: "SHELL_METACHARACTERS",
    test: ({ argvs }) => {
      for (const argv of argvs) {
        if (!/(^|\/)find$/.test(argv[0] ?? "")) continue;
        for (let i = 1; i < argv.length - 1; i++) {
          if (/^-i?(?:name|path|regex|wholename|lname)$/.test(argv[i]!) && /[;&|`]/.test(argv[i + 1]!)) {
            return `shell metacharacters inside the ${argv[i]} pattern`;
          }
        }
      }
      return null;
    },
  },
  {
    id: 6,
    name: "DANGEROUS_VARIABLES",
    test: ({ views }) =>
      /[<>|]\s*\$[A-Za-z_{]|\$[A-Za-z_][A-Za-z0-9_]*\s*[|<>]/.test(views.withDoubleQuotes)
        ? "a variable is used as a pipe end or redirection target"
        : null,
  },
  {
    id: 7,
    name: "NEWLINES",
    test: ({ views }) =>
      /[\n\r][ \t]*[^\s#]/.test(views.fullyUnquoted)
        ? "several lines: each line is a separate command"
        : null,
  },
  {
    id: 8,
    name: "DANGEROUS_PATTERNS_COMMAND_SUBSTITUTION",
    test: ({ views }) =>
      firstMatch(views.withDoubleQuotes, SUBSTITUTIONS_IN_DOUBLE_QUOTES) ??
        firstMatch(views.fullyUnquoted, SUBSTITUTIONS),
  },
  {
    id: 9,
    name: "DANGEROUS_PATTERNS_INPUT_REDIRECTION",
    test: ({ views }) => {
      const u = views.fullyUnquoted;
      if (/<>/.test(u)) return "read-write redirection <> opens a file for writing";
      if (/<\s*\/dev\/(?:tcp|udp)\//.test(views.withDoubleQuotes)) {
        return "input redirected from a network socket";
      }
      if (/<&\s*[^\d\s-]/.test(u)) return "input duplicated from an unusual descriptor";
      return null;
    },
  },
  {
    id: 10,
    name: "DANGEROUS_PATTERNS_OUTPUT_REDIRECTION",
    test: ({ views }) => {
      if (/>\s*\/dev\/(?:tcp|udp)\//.test(views.withDoubleQuotes)) {
        return "output redirected to a network socket";
      }
      if (/>&\s*[^\d\s-]/.test(views.fullyUnquoted)) return "output redirected with >& to a file name";
      return null;
    },
  },
  {
    id: 11,
    name: "IFS_INJECTION",
    test: ({ views }) =>
      /(?:^|[\s;&|(])IFS\+?=|\$\{?IFS\b/.test(views.withDoubleQuotes)
        ? "IFS changes how words are split; the command cannot be judged statically"
        : null,
  },
  {
    id: 12,
    name: "GIT_COMMIT_SUBSTITUTION",
    test: ({ argvs, views }) =>
      argvs.some((argv) => argv[0] === "git" && argv.includes("commit")) &&
        /\$\(|`|\$\{/.test(views.withDoubleQuotes)
        ? "the git commit message runs a command substitution"
        : null,
  },
  {
    id: 13,
    name: "PROC_ENVIRON_ACCESS",
    test: ({ raw }) =>
      /\/proc\/(?:[^/\s]+\/)+environ\b/.test(raw) ? "reads process environments under /proc (secrets)" : null,
  },
  {
    id: 14,
    name: "MALFORMED_TOKEN_INJECTION",
    test: ({ malformed, views }) =>
      malformed || views.unterminatedQuote
        ? "unbalanced quotes or brackets: the shell may read the command differently"
        : null,
  },
  {
    id: 15,
    name: "BACKSLASH_ESCAPED_WHITESPACE",
    test: ({ views }) =>
      /[ \t]/.test(views.escaped)
        ? "backslash-escaped space joins words in a way that is easy to misread"
        : null,
  },
  {
    id: 16,
    name: "BRACE_EXPANSION",
    test: ({ views }) =>
      /\{[^{}\s]*(?:,|\.\.)[^{}\s]*\}/.test(views.fullyUnquoted)
        ? "brace expansion {a,b} creates extra words"
        : null,
  },
  {
    id: 17,
    name: "CONTROL_CHARACTERS",
    test: ({ raw }) =>
      CONTROL.test(raw)
        ? "control characters can hide text from the reader"
        : BIDI.test(raw)
        ? "bidirectional control characters show the text in another order than the shell reads it"
        : INVALID_TEXT.test(raw)
        ? "invalid characters (broken UTF-8): the shell may read different bytes than shown"
        : null,
  },
  {
    id: 18,
    name: "UNICODE_WHITESPACE",
    test: (
      { raw },
    ) => (UNICODE_SPACE.test(raw) ? "invisible or non-ASCII whitespace looks like a space" : null),
  },
  {
    id: 19,
    name: "MID_WORD_HASH",
    test: ({ views }) =>
      /['"})\]]#/.test(views.keepQuoteChars)
        ? "a # right after a quote or bracket: some readers take it for a comment"
        : null,
  },
  {
    id: 20,
    name: "ZSH_DANGEROUS_COMMANDS",
    test: ({ argvs }) => {
      for (const argv of argvs) {
        const name = argv[0] ?? "";
        if (ZSH_DANGEROUS.has(name)) return `zsh builtin '${name}' can bypass security checks`;
        if (name === "emulate" && argv.some((a) => /^-\w*c/.test(a))) {
          return "'emulate -c' evaluates shell code";
        }
      }
      return null;
    },
  },
  {
    id: 21,
    name: "BACKSLASH_ESCAPED_OPERATORS",
    test: ({ views }) =>
      /[;|&<>]/.test(views.escaped)
        ? "a backslash-escaped operator (\\; \\| \\&) reads differently in different shells"
        : null,
  },
  {
    id: 22,
    name: "COMMENT_QUOTE_DESYNC",
    test: ({ views }) =>
      views.comments.some((comment) => /['"`]/.test(comment))
        ? "a comment contains quote characters; readers can disagree where the command ends"
        : null,
  },
  {
    id: 23,
    name: "QUOTED_NEWLINE",
    test: ({ views }) =>
      views.quotedNewlineHash
        ? "a quoted newline followed by a #-line hides text from line-based readers"
        : null,
  },
];

/**
 * Checks about structure the Bash walker follows through (several lines, bash's substitutions,
 * brace expansion, variables in pipes and redirections): a sandbox may stand in for the rules they
 * keep out, once the walk found every command. The others are about text readers disagree on.
 */
const WALKED_CHECKS: ReadonlySet<number> = new Set([6, 7, 8, 12, 16]);

/** Whether this hit is only about structure the walker followed (see WALKED_CHECKS). */
export function walkedCheck(hit: CheckHit, views: QuoteViews): boolean {
  if (!WALKED_CHECKS.has(hit.id)) return false;
  return hit.id !== 8 ||
    (firstMatch(views.fullyUnquoted, FOREIGN_SUBSTITUTIONS) === null && !/\$\[/.test(views.withDoubleQuotes));
}

/** Runs every check; returns the hits in id order. */
export function runChecks(input: CheckInput): CheckHit[] {
  const hits: CheckHit[] = [];
  for (const check of CHECKS) {
    const message = check.test(input);
    if (message !== null) hits.push({ id: check.id, name: check.name, message });
  }
  return hits;
}
