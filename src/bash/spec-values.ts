/**
 * Checkers for values whose role depends on what they say: a sed script, an awk program, a jq
 * filter, ps's BSD option words, a git remote, a `test` expression, a variable name. Each is an
 * allowlist: what it does not recognise as only reading is not read-only.
 */
import type { Access } from "./paths.ts";
import type { Check, Role } from "./spec.ts";
import { evaluationRisk as evaluatedRisk } from "./evaluation.ts";
import { secretMessage } from "./secret-output.ts";
import { validateSed } from "./sed.ts";
import { PRINTABLE_VARIABLES } from "./specs/variables.ts";

export interface CheckResult {
  /** Why the value keeps the command from being read-only. */
  problem?: string;
  /** Why the value makes the command print secrets (no allow rule may approve it; see `SimpleCommand.secrets`). */
  secret?: string;
  /** Why the value makes the command run other programs (no prefix rule may cover it). */
  runs?: string;
  /** What `runs` names is not read by the analysis (a command the code computes): rules cannot see it. */
  hidden?: boolean;
  /** Files the value makes the command touch. */
  paths?: Access[];
}

type Checker = (text: string, siblings: readonly string[], index: number) => CheckResult;

const CHECKERS: Record<Check, Checker> = {
  sed: sedScript,
  awk: awkProgram,
  jq: jqFilter,
  "ps-bsd": psBsdWord,
  "ps-format": (text) =>
    /environ/i.test(text) ? { secret: "the format shows processes' environments, which hold secrets" } : {},
  "git-remote": gitRemote,
  "git-config-key": (key, siblings) =>
    siblings.length > 1 && (COMMAND_CONFIG.test(key) || key.startsWith("!"))
      ? { runs: `git config ${key} sets a command git will run` }
      : {},
  "git-format": (format) =>
    /%G/.test(format)
      ? { runs: "the format shows signatures, which runs gpg (gpg.program) to verify them" }
      : {},
  "git-rev": gitRevision,
  "test-expression": testOperand,
  "kube-resource": kubeResource,
  "kube-raw": kubeRawPath,
  "kube-output": kubeOutput,
  "kube-filename": (name) =>
    /^[a-z][a-z0-9+.-]*:\/\//i.test(name)
      ? { problem: "kubectl downloads the manifest at the URL it names" }
      : {},
  "tar-archive": (text) =>
    // GNU tar reads `host:file` (a colon before any slash) through rsh, unless --force-local.
    /^[^/]*:/.test(text)
      ? { runs: "an archive name with a colon is remote: tar runs rsh to reach it", hidden: true }
      : {},
  // `date -d 'TZ="/path" now'` loads /path as a zone file (read as the command's own, any file).
  "date-string": (text) =>
    /TZ\s*=/.test(text) ? { problem: "a TZ= in the date string makes date read the zone file it names" } : {},
  "secret-name": (text) =>
    text === ""
      ? { secret: "prints every environment variable, secrets included" }
      : printableVariable(text)
      ? {}
      : { secret: secretMessage(text) },
};

/** `test`'s unary file operators (`-e FILE`) and binary ones (`A -nt B`): each looks at a file. */
const TEST_FILE_UNARY = /^-[abcdefghkprstuwxGLNOS]$/;
const TEST_FILE_BINARY = /^-(?:nt|ot|ef)$/;

/**
 * A word of a `test` expression: a variable name after `-v`/`-R` is evaluated; a file an operator
 * looks at is read as far as rules and containment go, as `stat` and `ls -d` are (whether
 * `~/.ssh/id_rsa` exists is something only a read rule may reveal). A word that may be either an
 * operand or an operator counts as a file: only more is judged.
 */
function testOperand(text: string, siblings: readonly string[], index: number): CheckResult {
  const before = siblings[index - 1] ?? "";
  const risk = /^-[vR]$/.test(before) ? evaluationRisk(text, "varname") : undefined;
  if (risk) return { runs: risk };
  const file = TEST_FILE_UNARY.test(before) || TEST_FILE_BINARY.test(before) ||
    TEST_FILE_BINARY.test(siblings[index + 1] ?? "");
  return file && text !== "]" ? { paths: [{ path: text, access: "read" }] } : {};
}

/**
 * `kubectl get --raw URI` GETs an API path: one naming Secrets (`/api/v1/namespaces/x/secrets`) prints
 * their values. The server decodes `%73ecrets` and drops the query, so the check does too.
 */
function kubeRawPath(uri: string): CheckResult {
  let path = uri.split(/[?#]/)[0]!;
  try {
    path = decodeURIComponent(path);
  } catch {
    return { problem: "kubectl get --raw: a URI that does not decode" };
  }
  return path.toLowerCase().split("/").includes("secrets")
    ? { secret: "kubectl get --raw of the Secrets API prints their values" }
    : {};
}

/**
 * kubectl's output formats that name a file (`go-template-file=F`, `templatefile=F`, `jsonpath-file=F`,
 * `custom-columns-file=F`) read it and print it back as the template or the column header. The
 * format name is matched without regard to case, as kubectl does.
 */
function kubeOutput(format: string): CheckResult {
  const equals = format.indexOf("=");
  if (equals < 0 || !/file$/i.test(format.slice(0, equals))) return {};
  return { paths: [{ path: format.slice(equals + 1), access: "read" }] };
}

/**
 * `kubectl get` of Secrets prints their values with `-o yaml|json|jsonpath|go-template`: any word
 * naming that kind (`secret`, `secrets/x`, `secret.v1.`, `pods,secrets`) keeps it from being read-only.
 */
function kubeResource(text: string): CheckResult {
  const kinds = text.toLowerCase().split(",").map((part) => part.split("/")[0]!.split(".")[0]!);
  return kinds.some((kind) => kind === "secret" || kind === "secrets")
    ? { secret: "kubectl get of Secrets can print their values" }
    : {};
}

export function checkValue(
  check: Check,
  text: string,
  siblings: readonly string[],
  index: number,
): CheckResult {
  return CHECKERS[check](text, siblings, index);
}

/**
 * Whether bash evaluating this word (a variable name whose subscript is evaluated arithmetically,
 * or an arithmetic expression) may run commands: `test -v 'a[$(id)]'`, `printf -v 'a[$(id)]'`.
 * Returns the reason when it may. The one judgement is `src/bash/evaluation.ts`.
 */
export function evaluationRisk(text: string, role: Role): string | undefined {
  return role === "varname" || role === "assign" || role === "arith" ? evaluatedRisk(text, role) : undefined;
}

/** A variable `echo`/`printenv` may print without asking: a name on the reviewed list. */
export function printableVariable(name: string): boolean {
  return PRINTABLE_VARIABLES.has(name) || /^(?:LC_[A-Z]+|XDG_[A-Z_]+|[0-9?#$!*@_-])$/.test(name);
}

function sedScript(text: string): CheckResult {
  const verdict = validateSed({ scripts: [text], scriptFiles: [], files: [], inPlace: false, quiet: false });
  return {
    ...(verdict.valid ? {} : { problem: "the sed script is not one of the forms known to only read" }),
    ...(verdict.danger ? { runs: verdict.danger } : {}),
    ...(verdict.runs ? { hidden: true } : {}),
    paths: verdict.writes.map((path) => ({ path, access: "write" as const })),
  };
}

/**
 * An awk program only reads when it names none of: system(), getline, the environment, ARGV
 * (which changes the files read), gawk's `@` forms, and no print after the first one redirects
 * (`>`, `|`). Strings are not told apart, so `"|"` after a print is refused too (fail closed).
 */
function awkProgram(program: string): CheckResult {
  const text = program.replace(/\\\r?\n/g, "");
  if (/\bsystem\b|@/.test(text)) {
    return { runs: "the awk program runs commands (system() or gawk's @ forms)", hidden: true };
  }
  if (/\bgetline\b/.test(text)) {
    return /\|/.test(text)
      ? { runs: "the awk program runs a command and reads its output (| getline)", hidden: true }
      : { problem: "the awk program reads files with getline that are not named as operands" };
  }
  const firstPrint = text.search(/\bprintf?\b/);
  if (firstPrint !== -1 && /[>|]/.test(text.slice(firstPrint).replace(/\|\|/g, ""))) {
    return /\|/.test(text.slice(firstPrint).replace(/\|\|/g, ""))
      ? { runs: "the awk program pipes its output to a command", hidden: true }
      : { runs: "the awk program writes files (print >)" };
  }
  if (/\b(?:ENVIRON|PROCINFO|SYMTAB|FUNCTAB)\b/.test(text)) {
    return { secret: "the awk program reads the environment, which holds secrets" };
  }
  if (/\bARG[VC]\b/.test(text)) return { problem: "the awk program changes the files it reads (ARGV)" };
  return {};
}

/** A jq filter can read the environment (`env`, `$ENV`) and load modules; nothing else leaves jq. */
/**
 * `$` and a variable's name are two tokens to jq 1.6: blanks, newlines and `#` comments may stand
 * between them (`$ ENV`, `$<tab>ENV`, `$ # x<newline>ENV` all read the environment).
 */
const JQ_ENV_VARIABLE = /\$(?:\s|#[^\n]*\n)*(?:ENV|__prog_args)\b/;

function jqFilter(filter: string): CheckResult {
  // `env` and `$ENV` read the environment; `.env` is a field of the input.
  if (JQ_ENV_VARIABLE.test(filter) || /(?<![.\w$])env\b/.test(filter)) {
    return { secret: "the jq filter reads the environment, which holds secrets" };
  }
  if (/\b(?:import|include|modulemeta|get_search_list)\b/.test(filter)) {
    return { problem: "the jq filter loads modules from files not named as operands" };
  }
  return {};
}

/** BSD-style ps words (`aux`): `e` shows environments; letters that take a value are not followed. */
function psBsdWord(word: string): CheckResult {
  if (word.includes("e")) {
    return { secret: `ps ${word}: 'e' shows every process's environment, which holds secrets` };
  }
  return /^[acfghjlmnrsuvwxHLSTXZ]+$/.test(word)
    ? {}
    : { problem: `ps ${word}: not a BSD option word known to only read` };
}

/** Config keys whose value git runs as a command (or that load other config). */
const COMMAND_CONFIG =
  /^(?:core\.(?:pager|sshcommand|editor|fsmonitor|hookspath|askpass|gitproxy)|sequence\.editor|diff\.external|diff\..*\.(?:command|textconv)|merge\..*\.driver|filter\..*|credential\..*helper|credential\.helper|gpg\..*program|gpg\.program|include\.path|includeif\..*|alias\..*|pager\..*|interactive\.difffilter|uploadpack\.packobjectshook|remote\..*\.(?:uploadpack|receivepack|vcs)|protocol\..*|http\..*proxy|url\..*)$/i;

/**
 * A revision or path given to git: `REV:PATH` and `:N:PATH` name a file's content in the object
 * store, which is a read of that file for path rules (`git show HEAD:.env` prints `.env`); a bare
 * word may be a path (`git log -p .env`). `:/text` searches commit messages.
 */
function gitRevision(word: string): CheckResult {
  if (word.startsWith(":/") || word.startsWith(":!") || word.startsWith(":(")) return {};
  const colon = word.indexOf(":");
  const path = colon < 0 ? word : word.slice(colon + 1).replace(/^[0-3]:/, "");
  return path === "" ? {} : { paths: [{ path, access: "read" }] };
}

function gitRemote(remote: string): CheckResult {
  if (/^(?:ext|fd)::/.test(remote)) {
    return {
      runs: `git's ${remote.slice(0, remote.indexOf("::") + 2)} transport runs a command`,
      hidden: true,
    };
  }
  if (/^(?:[/.~]|file:\/\/)/.test(remote)) {
    return { paths: [{ path: remote.replace(/^file:\/\//, ""), access: "read" }] };
  }
  return {};
}
