/**
 * Text filters of GNU coreutils (9.1) and util-linux: every option from `--help`, long options by
 * getopt_long's unique prefix. Operands are files read unless said otherwise.
 */
import type { SpecFamily } from "../spec.ts";
import { effect, flags, HELP_VERSION, opt, optionals, values } from "./build.ts";

const FILES0 = opt("--files0-from", {
  role: "read",
  listsFiles: true,
  why: "reads the list of files to process",
});
const CHECKSUM = {
  summary: "print or check a message digest",
  options: [
    ...flags("-b --binary", "--tag", "-t --text", "-z --zero", "--ignore-missing", "--quiet", "--status"),
    ...flags("--strict", "-w --warn"),
    effect("-c --check", "unchecked", "reads the files named inside the checksum list"),
    ...HELP_VERSION,
  ],
  tests: { readOnly: ["sha256sum a b"], notReadOnly: ["sha256sum -c sums", "sha256sum --che sums"] },
} as const;

export const TEXT: SpecFamily = {
  cat: {
    summary: "print files",
    options: [
      ...flags("-A --show-all", "-b --number-nonblank", "-e", "-E --show-ends", "-n --number"),
      ...flags("-s --squeeze-blank", "-t", "-T --show-tabs", "-u", "-v --show-nonprinting"),
      ...HELP_VERSION,
    ],
    tests: {
      readOnly: ["cat -n README.md", "cat --show-a a b"],
      notReadOnly: ["cat --bogus f", "cat -Q f"],
      paths: { "cat ~/.aws/credentials": ["read:~/.aws/credentials"] },
    },
  },
  head: {
    summary: "print the first lines of files",
    numberOption: true,
    options: [
      ...values("-c --bytes", "-n --lines"),
      ...flags("-q --quiet --silent", "-v --verbose", "-z --zero-terminated"),
      ...HELP_VERSION,
    ],
    tests: { readOnly: ["head -n 5 f", "head -5 f", "head --li=3 f"], notReadOnly: ["head --x f"] },
  },
  tail: {
    summary: "print the last lines of files",
    numberOption: true,
    options: [
      ...values("-c --bytes", "-n --lines", "--max-unchanged-stats", "--pid", "-s --sleep-interval"),
      ...flags("-f", "-F", "-q --quiet --silent", "--retry", "-v --verbose", "-z --zero-terminated"),
      ...optionals("--follow"),
      ...HELP_VERSION,
    ],
    tests: {
      readOnly: ["tail -n 20 log.txt", "tail -f log", "tail --follow=name log"],
      notReadOnly: ["tail -X f"],
    },
  },
  wc: {
    summary: "count lines, words and bytes",
    options: [
      ...flags("-c --bytes", "-m --chars", "-l --lines", "-L --max-line-length", "-w --words"),
      ...optionals("--total"),
      FILES0,
      ...HELP_VERSION,
    ],
    tests: {
      readOnly: ["wc -l a b"],
      notReadOnly: [],
      paths: {
        "wc --files0=/etc/list": ["read:/etc/list", "read:(the files /etc/list names)"],
        "wc -c --files0-from=-": ["read:(the files its input names)"],
      },
    },
  },
  cut: {
    summary: "print selected parts of lines",
    options: [
      ...values("-b --bytes", "-c --characters", "-d --delimiter", "-f --fields", "--output-delimiter"),
      ...flags("-n", "--complement", "-s --only-delimited", "-z --zero-terminated"),
      ...HELP_VERSION,
    ],
    tests: {
      readOnly: ["cut -d: -f1 data.txt"],
      notReadOnly: ["cut -x f"],
      paths: { "cut -f1 ~/.aws/credentials": ["read:~/.aws/credentials"] },
    },
  },
  tr: {
    summary: "translate or delete characters of standard input",
    options: [
      ...flags("-c -C --complement", "-d --delete", "-s --squeeze-repeats", "-t --truncate-set1"),
      ...HELP_VERSION,
    ],
    operands: [{ role: "plain" }, { role: "plain", optional: true }],
    tests: { readOnly: ["tr a-z A-Z", "tr -d '\\r'"], notReadOnly: ["tr a b c"] },
  },
  uniq: {
    summary: "report or omit repeated lines",
    options: [
      ...flags(
        "-c --count",
        "-d --repeated",
        "-D",
        "-i --ignore-case",
        "-u --unique",
        "-z --zero-terminated",
      ),
      ...values("-f --skip-fields", "-s --skip-chars", "-w --check-chars"),
      ...optionals("--all-repeated", "--group"),
      ...HELP_VERSION,
    ],
    operands: [{ role: "read", optional: true }, { role: "write", optional: true }],
    tests: {
      readOnly: ["uniq -c in.txt"],
      notReadOnly: ["uniq in.txt out.txt"],
      paths: { "uniq a /tmp/b": ["read:a", "write:/tmp/b"] },
    },
  },
  sort: {
    summary: "sort lines",
    options: [
      ...flags("-b --ignore-leading-blanks", "-d --dictionary-order", "-f --ignore-case"),
      ...flags("-g --general-numeric-sort", "-i --ignore-nonprinting", "-M --month-sort"),
      ...flags("-h --human-numeric-sort", "-n --numeric-sort", "-R --random-sort", "-r --reverse"),
      ...flags("-V --version-sort", "-c", "-C", "--debug", "-m --merge", "-s --stable", "-u --unique"),
      ...flags("-z --zero-terminated"),
      ...optionals("--check"),
      ...values(
        "--sort",
        "--batch-size",
        "-k --key",
        "-S --buffer-size",
        "-t --field-separator",
        "--parallel",
      ),
      opt("--random-source", { role: "read" }),
      opt("--compress-program", {
        role: "program",
        why: "compresses temporary files with the program named",
      }),
      FILES0,
      opt("-o --output", { role: "write", why: "writes the sorted output to this file" }),
      opt("-T --temporary-directory", { role: "write", why: "writes temporary files in this directory" }),
      ...HELP_VERSION,
    ],
    tests: {
      readOnly: ["sort -u names.txt", "sort -t, -k2 -n data.csv", "sort --rev f"],
      notReadOnly: ["sort -o out f", "sort --outp=/tmp/x f", "sort --compress-p=sh f", "sort -of f"],
      paths: { "sort --output /tmp/x f": ["write:/tmp/x", "read:f"] },
    },
  },
  nl: {
    summary: "number lines",
    options: [
      ...values("-b --body-numbering", "-d --section-delimiter", "-f --footer-numbering"),
      ...values("-h --header-numbering", "-i --line-increment", "-l --join-blank-lines"),
      ...values(
        "-n --number-format",
        "-s --number-separator",
        "-v --starting-line-number",
        "-w --number-width",
      ),
      ...flags("-p --no-renumber"),
      ...HELP_VERSION,
    ],
    tests: { readOnly: ["nl -ba f"], notReadOnly: ["nl -q f"] },
  },
  od: {
    summary: "dump files in octal and other formats",
    options: [
      ...flags(
        "-v --output-duplicates",
        "--traditional",
        "-a",
        "-b",
        "-c",
        "-d",
        "-f",
        "-i",
        "-l",
        "-o",
        "-s",
        "-x",
      ),
      ...values("-A --address-radix", "--endian", "-j --skip-bytes", "-N --read-bytes", "-t --format", "-S"),
      ...optionals("--strings", "-w --width"),
      ...HELP_VERSION,
    ],
    tests: { readOnly: ["od -c f", "od -An -tx1 f"], notReadOnly: ["od -Q f"] },
  },
  fold: {
    summary: "wrap lines",
    numberOption: true,
    options: [...flags("-b --bytes", "-s --spaces"), ...values("-w --width"), ...HELP_VERSION],
    tests: { readOnly: ["fold -w 80 f"], notReadOnly: ["fold -x f"] },
  },
  tac: {
    summary: "print files last line first",
    options: [...flags("-b --before", "-r --regex"), ...values("-s --separator"), ...HELP_VERSION],
    tests: { readOnly: ["tac log"], notReadOnly: ["tac -q log"] },
  },
  rev: {
    summary: "reverse lines (util-linux)",
    options: [...flags("-h --help", "-V --version", "-0 --zero")],
    tests: { readOnly: ["rev f"], notReadOnly: ["rev -x f"] },
  },
  expand: {
    summary: "convert tabs to spaces",
    numberOption: true,
    options: [...flags("-i --initial"), ...values("-t --tabs"), ...HELP_VERSION],
    tests: { readOnly: ["expand -t 4 f"], notReadOnly: ["expand -q f"] },
  },
  unexpand: {
    summary: "convert spaces to tabs",
    numberOption: true,
    options: [...flags("-a --all", "--first-only"), ...values("-t --tabs"), ...HELP_VERSION],
    tests: { readOnly: ["unexpand -a f"], notReadOnly: ["unexpand -q f"] },
  },
  paste: {
    summary: "merge lines of files",
    options: [...flags("-s --serial", "-z --zero-terminated"), ...values("-d --delimiters"), ...HELP_VERSION],
    tests: { readOnly: ["paste -d, a b", "paste -sd+ f"], notReadOnly: ["paste -q a"] },
  },
  join: {
    summary: "join lines of two files on a common field",
    options: [
      ...values("-a", "-e", "-j", "-o", "-t", "-v", "-1", "-2"),
      ...flags("-i --ignore-case", "--check-order", "--nocheck-order", "--header", "-z --zero-terminated"),
      ...HELP_VERSION,
    ],
    operands: [{ role: "read" }, { role: "read" }],
    tests: { readOnly: ["join -t, a.csv b.csv"], notReadOnly: ["join a b c", "join -q a b"] },
  },
  fmt: {
    summary: "reformat paragraphs",
    numberOption: true,
    options: [
      ...flags("-c --crown-margin", "-s --split-only", "-t --tagged-paragraph", "-u --uniform-spacing"),
      ...values("-p --prefix", "-w --width", "-g --goal"),
      ...HELP_VERSION,
    ],
    tests: { readOnly: ["fmt -w 72 f"], notReadOnly: ["fmt -q f"] },
  },
  comm: {
    summary: "compare two sorted files line by line",
    options: [
      ...flags("-1", "-2", "-3", "--check-order", "--nocheck-order", "--total", "-z --zero-terminated"),
      ...values("--output-delimiter"),
      ...HELP_VERSION,
    ],
    operands: [{ role: "read" }, { role: "read" }],
    tests: { readOnly: ["comm -12 a b"], notReadOnly: ["comm a b c"] },
  },
  column: {
    summary: "format input into columns (util-linux)",
    options: [
      ...flags("-t --table", "-d --table-noheadings", "-e --table-header-repeat", "-L --keep-empty-lines"),
      ...flags("-J --json", "-x --fillrows", "-h --help", "-V --version"),
      ...values("-n --table-name", "-O --table-order", "-N --table-columns", "-l --table-columns-limit"),
      ...values("-E --table-noextreme", "-H --table-hide", "-R --table-right", "-T --table-truncate"),
      ...values("-W --table-wrap", "-r --tree", "-i --tree-id", "-p --tree-parent", "-c --output-width"),
      ...values("-o --output-separator", "-s --separator"),
    ],
    tests: { readOnly: ["column -t -s, data.csv"], notReadOnly: ["column -q f"] },
  },
  base64: {
    summary: "encode or decode base64",
    options: [...flags("-d --decode", "-i --ignore-garbage"), ...values("-w --wrap"), ...HELP_VERSION],
    operands: [{ role: "read", optional: true }],
    tests: { readOnly: ["base64 -d data.b64", "base64 f"], notReadOnly: ["base64 a b"] },
  },
  md5sum: CHECKSUM,
  sha1sum: CHECKSUM,
  sha224sum: CHECKSUM,
  sha256sum: CHECKSUM,
  sha384sum: CHECKSUM,
  sha512sum: CHECKSUM,
  b2sum: { ...CHECKSUM, options: [...CHECKSUM.options, ...values("-l --length")] },
  cksum: {
    summary: "checksum files",
    options: [
      ...flags("--tag", "--untagged", "-z --zero", "--ignore-missing", "--quiet", "--status", "--strict"),
      ...flags("-w --warn", "--debug", "--base64", "--raw"),
      ...values("-a --algorithm", "-l --length"),
      effect("-c --check", "unchecked", "reads the files named inside the checksum list"),
      ...HELP_VERSION,
    ],
    tests: { readOnly: ["cksum f"], notReadOnly: ["cksum -c sums"] },
  },
  strings: {
    summary: "print the printable strings in files (binutils)",
    numberOption: true,
    responseFiles: true,
    options: [
      ...flags("-a --all", "-d --data", "-f --print-file-name", "-w --include-all-whitespace", "-o"),
      ...flags("-h --help", "-v -V --version"),
      ...values(
        "-n --bytes",
        "-t --radix",
        "-T --target",
        "-e --encoding",
        "-s --output-separator",
        "-U --unicode",
      ),
    ],
    tests: {
      readOnly: ["strings -n 8 a.out", "strings -- a.out"],
      notReadOnly: ["strings -q a.out", "strings @args", "strings a.out @.env", "strings -- @args"],
      paths: {
        "strings @.env": ["read:.env", "read:@.env"],
        "strings -a @/tmp/x": ["read:/tmp/x", "read:@/tmp/x"],
      },
    },
  },
  diff: {
    summary: "compare files line by line",
    options: [
      ...flags("--normal", "-q --brief", "-s --report-identical-files", "-c", "-u", "-e --ed", "-n --rcs"),
      ...flags("-y --side-by-side", "--left-column", "--suppress-common-lines", "-p --show-c-function"),
      ...flags("-t --expand-tabs", "-T --initial-tab", "--suppress-blank-empty", "-r --recursive"),
      ...flags("--no-dereference", "-N --new-file", "--unidirectional-new-file", "--ignore-file-name-case"),
      ...flags("--no-ignore-file-name-case", "-i --ignore-case", "-E --ignore-tab-expansion"),
      ...flags("-Z --ignore-trailing-space", "-b --ignore-space-change", "-w --ignore-all-space"),
      ...flags("-B --ignore-blank-lines", "-a --text", "--strip-trailing-cr", "-d --minimal"),
      ...flags("--speed-large-files", "--help", "-v --version"),
      ...values("-C", "-U", "-W --width", "-F --show-function-line", "--tabsize", "-x --exclude"),
      ...values("-I --ignore-matching-lines", "-D --ifdef", "--label", "--line-format", "--horizon-lines"),
      ...values(
        "--old-group-format",
        "--new-group-format",
        "--unchanged-group-format",
        "--changed-group-format",
      ),
      ...values(
        "--old-line-format",
        "--new-line-format",
        "--unchanged-line-format",
        "--palette",
        "-S --starting-file",
      ),
      ...optionals("--context", "--unified", "--color"),
      opt("-X --exclude-from", { role: "read" }),
      opt("--from-file", { role: "read" }),
      opt("--to-file", { role: "read" }),
      effect("-l --paginate", "program", "passes the output through pr"),
    ],
    tests: {
      readOnly: ["diff -u a b", "diff -ru dir1 dir2", "diff --unified=5 a b"],
      notReadOnly: ["diff -l a b", "diff --pag a b"],
      paths: { "diff a /etc/passwd": ["read:a", "read:/etc/passwd"] },
    },
  },
  cmp: {
    summary: "compare two files byte by byte",
    options: [
      ...flags("-b --print-bytes", "-l --verbose", "-s --quiet --silent", "--help", "-v --version"),
      ...values("-i --ignore-initial", "-n --bytes"),
    ],
    operands: [{ role: "read" }, { role: "read", optional: true }, { role: "plain", optional: true }, {
      role: "plain",
      optional: true,
    }],
    tests: { readOnly: ["cmp a b"], notReadOnly: ["cmp -q a b"] },
  },
};
