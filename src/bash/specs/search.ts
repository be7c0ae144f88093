/**
 * Searching: GNU grep 3.8 (getopt_long), ripgrep 13 (clap: long options exact), GNU findutils 4.9
 * find (its own expression grammar: single-dash primaries matched whole).
 */
import type { CommandSpec, OptionSpec, SpecFamily } from "../spec.ts";
import { effect, flags, opt, optionals, recursing, values } from "./build.ts";

const GREP: CommandSpec = {
  summary: "print lines that match patterns",
  numberOption: true,
  options: recursing(
    [
      ...flags("-E --extended-regexp", "-F --fixed-strings", "-G --basic-regexp", "-P --perl-regexp"),
      ...flags("-i -y --ignore-case", "--no-ignore-case", "-w --word-regexp", "-x --line-regexp"),
      ...flags("-z --null-data", "-s --no-messages", "-v --invert-match", "-V --version", "--help"),
      ...flags("-b --byte-offset", "-n --line-number", "--line-buffered", "-H --with-filename"),
      ...flags("-h --no-filename", "-o --only-matching", "-q --quiet --silent", "-a --text", "-I"),
      ...flags("-r --recursive", "-R --dereference-recursive", "-L --files-without-match"),
      ...flags("-l --files-with-matches", "-c --count", "-T --initial-tab", "-Z --null", "-U --binary"),
      ...flags("--no-group-separator"),
      ...values("-m --max-count", "--label", "--binary-files", "-d --directories", "-D --devices"),
      ...values("--include", "--exclude", "--exclude-dir", "-B --before-context", "-A --after-context"),
      ...values("-C --context", "--group-separator"),
      ...optionals("--color --colour"),
      { names: ["-e", "--regexp"], arg: "required", fills: "pattern" },
      opt("-f --file", { role: "read", fills: "pattern", why: "reads patterns from this file" }),
      opt("--exclude-from", { role: "read" }),
    ],
    "-r",
    "-R",
    "-d",
  ),
  // Without files, -r searches the working directory.
  operands: [{ name: "pattern", role: "plain" }, {
    name: "files",
    role: "read",
    optional: true,
    repeat: true,
    implicit: ".",
  }],
  tests: {
    readOnly: ["grep -rn TODO src", "grep -e foo -e bar f", "grep --include=*.ts -r x .", "grep -5 x f"],
    notReadOnly: ["grep --bogus x f", "grep -Q x f"],
    paths: {
      "grep -f ~/.ssh/id_rsa f": ["read:~/.ssh/id_rsa", "read:f"],
      "grep root /etc/passwd": ["read:/etc/passwd"],
      "grep -e x /etc/shadow": ["read:/etc/shadow"],
    },
  },
};

/** ripgrep's `--no-X` negations, which `--help` does not list. */
const RG_NEGATIONS = flags(
  ..."text follow hidden binary crlf fixed-strings glob-case-insensitive ignore-file-case-insensitive invert-match json multiline multiline-dotall one-file-system pcre2 search-zip stats trim block-buffered line-buffered column byte-offset encoding auto-hybrid-regex include-zero max-columns-preview pre sort-files"
    .split(" ").map((n) => `--no-${n}`),
);

const find = findSpec();

export const SEARCH: SpecFamily = {
  grep: GREP,
  egrep: GREP,
  fgrep: GREP,
  rg: {
    summary: "ripgrep: recursively search for a pattern (hidden files and links only when asked)",
    long: "exact",
    options: recursing(
      [
        ...values("-A --after-context", "-B --before-context", "-C --context", "--color", "--colors"),
        ...values("--context-separator", "--dfa-size-limit", "-E --encoding", "--engine"),
        ...values("--field-context-separator", "--field-match-separator", "-g --glob", "--iglob"),
        ...values("-M --max-columns", "-m --max-count", "--max-depth", "--max-filesize", "--path-separator"),
        ...values("--pre-glob", "--regex-size-limit", "-r --replace", "--sort", "--sortr", "-j --threads"),
        ...values("-t --type", "--type-add", "--type-clear", "-T --type-not"),
        ...flags(
          "--auto-hybrid-regex",
          "--binary",
          "--block-buffered",
          "-b --byte-offset",
          "-s --case-sensitive",
        ),
        ...flags("--column", "--no-context-separator", "-c --count", "--count-matches", "--crlf", "--debug"),
        ...flags("-l --files-with-matches", "--files-without-match", "-F --fixed-strings", "-L --follow"),
        ...flags("--glob-case-insensitive", "-h --help", "--heading", "-. --hidden", "-i --ignore-case"),
        ...flags("--ignore-file-case-insensitive", "--include-zero", "-v --invert-match", "--json"),
        ...flags(
          "--line-buffered",
          "-n --line-number",
          "-x --line-regexp",
          "--max-columns-preview",
          "--mmap",
        ),
        ...flags("-U --multiline", "--multiline-dotall", "--no-config", "-I --no-filename", "--no-heading"),
        ...flags("--no-ignore", "--no-ignore-dot", "--no-ignore-exclude", "--no-ignore-files"),
        ...flags("--no-ignore-global", "--no-ignore-messages", "--no-ignore-parent", "--no-ignore-vcs"),
        ...flags(
          "-N --no-line-number",
          "--no-messages",
          "--no-mmap",
          "--no-pcre2-unicode",
          "--no-require-git",
        ),
        ...flags(
          "--no-unicode",
          "--pcre2-unicode",
          "--unicode",
          "-0 --null",
          "--null-data",
          "--one-file-system",
        ),
        ...flags(
          "-o --only-matching",
          "--passthru --passthrough",
          "-P --pcre2",
          "--pcre2-version",
          "-p --pretty",
        ),
        ...flags("-q --quiet", "-S --smart-case", "--stats", "-a --text", "--trim", "-u --unrestricted"),
        ...flags("-V --version", "--vimgrep", "-H --with-filename", "-w --word-regexp", "--sort-files"),
        ...RG_NEGATIONS,
        { names: ["-e", "--regexp"], arg: "required", fills: "pattern" },
        opt("-f --file", { role: "read", fills: "pattern", why: "reads patterns from this file" }),
        opt("--ignore-file", { role: "read" }),
        { names: ["--files", "--type-list"], fills: "pattern" },
        opt("--pre", { role: "program", why: "runs this program on every file searched" }),
        opt("--hostname-bin", { role: "program", why: "runs this program to find the host name" }),
        effect("-z --search-zip", "program", "runs decompression programs on the files it searches"),
      ],
      "-L",
      "-.",
      "-u",
    ),
    operands: [{ name: "pattern", role: "plain" }, {
      name: "files",
      role: "read",
      optional: true,
      repeat: true,
      implicit: ".",
    }],
    tests: {
      readOnly: ["rg -n TODO src", "rg --files", "rg -t ts -g '!*.d.ts' foo", "rg -e a -e b ."],
      notReadOnly: ["rg --pre ./x TODO", "rg -z x", "rg --searc x", "rg --bogus x"],
      paths: { "rg secret ~/.aws": ["read:~/.aws"], "rg --files /etc": ["read:/etc"] },
    },
  },
  find,
};

function findSpec(): CommandSpec {
  const whole = (names: string, more: Partial<OptionSpec> = {}): OptionSpec[] =>
    names.split(" ").map((n) => ({ names: [n], ...more }));
  const newerXY = [..."aBcm"].flatMap((x) => [..."aBcmt"].map((y) => `-newer${x}${y}`));
  return {
    summary: "search for files in a directory hierarchy",
    long: "none",
    cluster: false,
    options: [
      ...flags("-H", "-L", "-P", "-O0", "-O1", "-O2", "-O3"),
      ...values("-D"),
      ...whole("-depth -d -follow -help --help -ignore_readdir_race -mount -noignore_readdir_race -noleaf"),
      ...whole("-version --version -warn -nowarn -xdev -daystart -empty -executable -false -nogroup -nouser"),
      ...whole("-readable -true -writable -ls -print -print0 -prune -quit ( ) ! , -not -a -and -o -or"),
      ...whole(
        "-amin -atime -cmin -context -ctime -fstype -gid -group -ilname -iname -inum -ipath -iregex " +
          "-iwholename -links -lname -mmin -mtime -name -path -perm -regex -size -type -uid -used -user " +
          "-wholename -xtype -maxdepth -mindepth -regextype -printf",
        { arg: "required" },
      ),
      ...whole("-anewer -cnewer -newer -samefile", { arg: "required", role: "read" }),
      ...whole("-files0-from", { arg: "required", role: "read", listsFiles: true }),
      ...newerXY.map((name): OptionSpec => ({
        names: [name],
        arg: "required",
        role: name.endsWith("t") ? "plain" : "read",
      })),
      ...whole("-exec -execdir -ok -okdir", {
        until: [";", "+"],
        role: "program",
        why: "executes commands or modifies files — cannot be auto-allowed by a Bash(find:*) prefix rule",
      }),
      ...whole("-fls -fprint -fprint0", {
        arg: "required",
        role: "write",
        noPrefixRule: true,
        why: "executes commands or modifies files — cannot be auto-allowed by a Bash(find:*) prefix rule",
      }),
      {
        names: ["-fprintf"],
        values: ["write", "plain"],
        noPrefixRule: true,
        why: "executes commands or modifies files — cannot be auto-allowed by a Bash(find:*) prefix rule",
      },
      {
        names: ["-delete"],
        role: "write",
        noPrefixRule: true,
        changes: { roots: "write" },
        why: "executes commands or modifies files — cannot be auto-allowed by a Bash(find:*) prefix rule",
      },
    ],
    operands: [{ name: "roots", role: "read", optional: true, repeat: true, implicit: "." }],
    tests: {
      readOnly: ["find . -name '*.ts' -type f", "find src -maxdepth 2 '(' -name a -o -name b ')' -print"],
      notReadOnly: ["find . -delete", "find . -exec rm {} ;", "find . -fprint out", "find . -bogus"],
      paths: { "find / -name x": ["read:/"], "find -name x": ["read:."] },
    },
  };
}
