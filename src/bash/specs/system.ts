/**
 * System information and documentation: coreutils 9.1 (id, uname, whoami, groups, nproc, date, seq,
 * printenv), procps-ng 4 (ps, free, uptime), net-tools hostname, glibc locale/getconf, man-db 2.11
 * (argp), which, util-linux whereis, and tldr clients (options exact: several implementations).
 */
import type { CommandSpec, SpecFamily } from "../spec.ts";
import { effect, flags, HELP_VERSION, opt, optionals, values } from "./build.ts";

const NONE: CommandSpec["operands"] = [];
const NAMES = [{ role: "plain", repeat: true, optional: true }] as const;

export const SYSTEM: SpecFamily = {
  id: {
    summary: "print user and group ids",
    options: [
      ...flags(
        "-a",
        "-Z --context",
        "-g --group",
        "-G --groups",
        "-n --name",
        "-r --real",
        "-u --user",
        "-z --zero",
      ),
      ...HELP_VERSION,
    ],
    operands: NAMES,
    tests: { readOnly: ["id -un", "id root"], notReadOnly: ["id -q"] },
  },
  uname: {
    summary: "print system information",
    options: [
      ...flags("-a --all", "-s --kernel-name", "-n --nodename", "-r --kernel-release", "-v --kernel-version"),
      ...flags("-m --machine", "-p --processor", "-i --hardware-platform", "-o --operating-system"),
      ...HELP_VERSION,
    ],
    operands: NONE,
    tests: { readOnly: ["uname -a"], notReadOnly: ["uname x", "uname -q"] },
  },
  whoami: {
    summary: "print the user name",
    options: HELP_VERSION,
    operands: NONE,
    tests: { readOnly: ["whoami"], notReadOnly: ["whoami x"] },
  },
  groups: {
    summary: "print group memberships",
    options: HELP_VERSION,
    operands: NAMES,
    tests: { readOnly: ["groups", "groups root"], notReadOnly: ["groups -q"] },
  },
  nproc: {
    summary: "print the number of processors",
    options: [...flags("--all"), ...values("--ignore"), ...HELP_VERSION],
    operands: NONE,
    tests: { readOnly: ["nproc", "nproc --all"], notReadOnly: ["nproc x"] },
  },
  uptime: {
    summary: "how long the system has been running",
    options: flags("-p --pretty", "-h --help", "-s --since", "-V --version", "-r --raw"),
    operands: NONE,
    tests: { readOnly: ["uptime", "uptime -p"], notReadOnly: ["uptime x"] },
  },
  free: {
    summary: "memory usage",
    options: [
      ...flags("-b --bytes", "--kilo", "--mega", "--giga", "--tera", "--peta", "-k --kibi", "-m --mebi"),
      ...flags("-g --gibi", "--tebi", "--pebi", "-h --human", "--si", "-l --lohi", "-t --total", "-L --line"),
      ...flags("-v --committed", "-w --wide", "--help", "-V --version"),
      ...values("-s --seconds", "-c --count"),
    ],
    operands: NONE,
    tests: { readOnly: ["free -h"], notReadOnly: ["free x"] },
  },
  ps: {
    summary: "report processes (procps-ng: UNIX, BSD and GNU option syntaxes; long options exact)",
    long: "exact",
    options: [
      ...flags("-A -e", "-a", "-d", "-N --deselect", "-T", "-r", "-x", "-c", "-f", "-F", "-j", "-l", "-M"),
      ...flags("-y", "-Z --context", "-H --forest", "-n", "-w", "-L", "-m", "-V --version", "--headers"),
      ...flags("--no-headers --no-heading", "--cumulative", "--help"),
      ...values(
        "-C",
        "-G --Group",
        "-g --group",
        "-p --pid",
        "--ppid",
        "-q --quick-pid",
        "-s --sid",
        "-t --tty",
      ),
      ...values("-u --user", "-U --User", "--sort", "--cols --columns --width", "--lines --rows"),
      opt("-o -O --format", { role: "plain", check: "ps-format" }),
    ],
    operands: [{ role: "plain", repeat: true, optional: true, check: "ps-bsd" }],
    tests: {
      readOnly: ["ps aux", "ps -ef", "ps -o pid,cmd -p 1", "ps axu"],
      notReadOnly: ["ps e", "ps eww", "ps auxe", "ps -o pid,environ", "ps --bogus"],
    },
  },
  hostname: {
    summary: "show the host name (net-tools); an operand or -F sets it",
    options: [
      ...flags("-a --alias", "-A --all-fqdns", "-d --domain", "-f --fqdn --long", "-i --ip-address"),
      ...flags("-I --all-ip-addresses", "-s --short", "-y --yp --nis", "-h --help", "-V --version"),
      effect("-b --boot", "unchecked", "sets the host name"),
      opt("-F --file", { role: "unchecked", why: "sets the host name from this file" }),
    ],
    operands: NONE,
    tests: { readOnly: ["hostname", "hostname -f"], notReadOnly: ["hostname newname", "hostname -F f"] },
  },
  locale: {
    summary: "locale information",
    options: [
      ...flags(
        "-a --all-locales",
        "-m --charmaps",
        "-c --category-name",
        "-k --keyword-name",
        "-v --verbose",
      ),
      ...flags("--usage", "-V --version", "-? --help"),
    ],
    operands: NAMES,
    tests: { readOnly: ["locale", "locale -a"], notReadOnly: ["locale -q"] },
  },
  getconf: {
    summary: "configuration values",
    long: "none",
    options: [...values("-v"), ...flags("-a")],
    operands: [{ role: "plain", optional: true }, { role: "plain", optional: true }],
    tests: { readOnly: ["getconf PAGE_SIZE"], notReadOnly: ["getconf a b c"] },
  },
  date: {
    summary: "print the date (an operand without + would set the clock)",
    options: [
      ...flags("--debug", "--resolution", "-R --rfc-email", "-u --utc --universal"),
      ...values("-d --date", "--rfc-3339"),
      ...optionals("-I --iso-8601"),
      opt("-f --file", { role: "read" }),
      opt("-r --reference", { role: "read" }),
      opt("-s --set", { role: "unchecked", why: "sets the system clock" }),
      ...HELP_VERSION,
    ],
    operands: [{ role: "plain", optional: true, pattern: "^\\+" }],
    tests: {
      readOnly: ["date", "date +%Y-%m-%d", "date -u -d @0"],
      notReadOnly: ["date -s now", "date --s=now", "date 010100002030"],
    },
  },
  seq: {
    summary: "print a sequence of numbers",
    numberOption: true,
    options: [...flags("-w --equal-width"), ...values("-f --format", "-s --separator"), ...HELP_VERSION],
    operands: [{ role: "plain" }, { role: "plain", optional: true }, { role: "plain", optional: true }],
    tests: { readOnly: ["seq 10", "seq 1 2 9"], notReadOnly: ["seq 1 2 3 4"] },
  },
  printenv: {
    summary: "print environment variables (all of them without an operand)",
    options: [...flags("-0 --null"), ...HELP_VERSION],
    operands: [{ role: "plain", repeat: true, optional: true, check: "secret-name", implicit: "" }],
    tests: {
      readOnly: ["printenv HOME", "printenv PATH"],
      notReadOnly: ["printenv", "printenv AWS_SECRET_ACCESS_KEY"],
    },
  },
  env: {
    summary: "print the environment (run a command with it: see the wrappers)",
    options: [...flags("-0 --null"), ...HELP_VERSION],
    operands: NONE,
    effect: "secret",
    effectWhy: "prints every environment variable, secrets included",
    tests: { readOnly: [], notReadOnly: ["env", "env -0"] },
  },
  man: {
    summary: "manual pages (man-db: argp, long options by unique prefix)",
    options: [
      ...flags(
        "-d --debug",
        "-D --default",
        "-f --whatis",
        "-k --apropos",
        "-K --global-apropos",
        "-w --where --path",
      ),
      ...flags(
        "--location",
        "-W --where-cat --location-cat",
        "-i --ignore-case",
        "-I --match-case",
        "--regex",
      ),
      ...flags(
        "--wildcard",
        "--names-only",
        "-a --all",
        "--no-subpages",
        "-7 --ascii",
        "--no-hyphenation --nh",
      ),
      ...flags(
        "--no-justification --nj",
        "-t --troff",
        "-Z --ditroff",
        "--usage",
        "-V --version",
        "-? --help",
      ),
      ...values(
        "-R --recode",
        "-L --locale",
        "-m --systems",
        "-M --manpath",
        "-S -s --sections",
        "-e --extension",
      ),
      ...values("-r --prompt", "-E --encoding", "-p --preprocessor"),
      ...optionals("--warnings", "-T --troff-device"),
      effect("-l --local-file", "plain"),
      opt("-C --config-file", { role: "read" }),
      opt("-P --pager", { role: "program", why: "runs this pager" }),
      { names: ["-H", "--html"], arg: "optional", role: "program", why: "runs a browser" },
      { names: ["-X", "--gxditview"], arg: "optional", role: "program", why: "runs gxditview" },
      effect("-u --update", "write", "updates the index caches"),
      effect("-c --catman", "write", "writes cat pages"),
    ],
    operands: NAMES,
    tests: {
      readOnly: ["man ls", "man 5 crontab", "man -k socket"],
      notReadOnly: ["man -P sh ls", "man --pag=sh ls"],
    },
  },
  tldr: {
    summary: "simplified manual pages (several clients: only the options they share, exact)",
    long: "exact",
    options: [
      ...flags("-l --list", "-v --version", "-h --help", "-1 --single-column", "-r --raw"),
      ...values("-p --platform", "-L --language"),
      effect("-u --update", "write", "downloads pages into its cache"),
      effect("-c --clear-cache", "write", "deletes its cache"),
    ],
    operands: NAMES,
    tests: { readOnly: ["tldr tar", "tldr -p linux ls"], notReadOnly: ["tldr --update", "tldr -u"] },
  },
  which: {
    summary: "locate a command on PATH (debianutils)",
    long: "none",
    options: flags("-a", "-s"),
    operands: NAMES,
    tests: { readOnly: ["which node", "which -a python3"], notReadOnly: ["which -q x"] },
  },
  whereis: {
    summary: "locate a command's binary, source and manual (util-linux)",
    long: "none",
    options: [
      ...flags("-b", "-m", "-s", "-u", "-l", "-g", "-h --help", "-V --version"),
      opt("-B -M -S", { role: "read", until: ["-f"] }),
      effect("-f", "plain"),
    ],
    operands: NAMES,
    tests: { readOnly: ["whereis ls", "whereis -bm ls"], notReadOnly: ["whereis -q ls"] },
  },
};
