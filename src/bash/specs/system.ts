/**
 * System information and documentation: coreutils 9.1 (id, uname, whoami, groups, nproc, date, seq,
 * printenv), procps-ng 4 (ps, free, uptime), net-tools hostname, glibc locale/getconf, man-db 2.11
 * (argp), which, util-linux whereis, and tldr clients (options exact: several implementations).
 */
import type { CommandSpec, SpecFamily } from "../spec.ts";
import { effect, flags, HELP_VERSION, opt, optionals, values } from "./build.ts";

const NONE: CommandSpec["operands"] = [];
const NAMES = [{ role: "plain", repeat: true, optional: true }] as const;

/**
 * iproute2's `ip`: objects and their listing verbs only (every other verb changes the network).
 * ip matches objects and verbs by any prefix, the first in its own order winning; only prefixes
 * that resolve to the listed words whatever that order are spelled here (no `s`, which some
 * objects read as `save` or `set`).
 */
const IP_FILTERS: CommandSpec["operands"] = [{ role: "plain", optional: true, repeat: true }];
const ipVerbs = (verbs: string): Record<string, CommandSpec> => {
  const [first, ...aliases] = verbs.split(" ");
  return {
    [first!]: { summary: "list or show", long: "none", operands: IP_FILTERS, aliases },
    help: { summary: "usage", long: "none", operands: NONE },
  };
};
const ipObject = (summary: string, aliases: string, verbs: Record<string, CommandSpec>): CommandSpec => ({
  summary: `${summary} (no verb: show)`,
  long: "none",
  aliases: aliases.split(" "),
  subcommands: verbs,
  operands: NONE,
});
const LISTING = "show list lst sh";

const IP: CommandSpec = {
  summary: "iproute2 ip: show network configuration (single-dash long options, matched whole)",
  long: "none",
  cluster: false,
  permute: false,
  options: [
    ...flags("-4", "-6", "-s -stats -statistics", "-d -details", "-h -human -human-readable", "-iec"),
    ...flags("-j -json", "-p -pretty", "-o -oneline", "-r -resolve", "-c -color", "-br -brief", "-a -all"),
    ...flags("-t -timestamp", "-ts -tshort", "-N -Numeric", "-V -Version"),
    ...values("-n -netns", "-f -family"),
  ],
  subcommands: {
    address: ipObject("addresses", "a ad addr", ipVerbs(LISTING)),
    link: ipObject("links", "l li lin", ipVerbs(LISTING)),
    maddress: ipObject("multicast addresses", "m ma maddr", ipVerbs(LISTING)),
    neighbor: ipObject("neighbours", "n ne nei neigh neighbour", {
      ...ipVerbs(LISTING),
      get: { summary: "one entry", long: "none", operands: IP_FILTERS, aliases: ["g"] },
    }),
    netconf: ipObject("per-device configuration", "netc netco netcon", ipVerbs(`${LISTING} s`)),
    route: ipObject("routes", "r ro rou rout", {
      ...ipVerbs(`${LISTING} l`),
      get: { summary: "the route to an address", long: "none", operands: IP_FILTERS, aliases: ["g"] },
    }),
    rule: ipObject("routing rules", "ru rul", ipVerbs(LISTING)),
    stats: ipObject("statistics", "st sta stat", ipVerbs("show")),
    tuntap: ipObject("tun and tap devices", "tunt tunta", ipVerbs(LISTING)),
  },
  tests: {
    readOnly: ["ip a", "ip -brief l", "ip route get 1.1.1.1", "ip r l dev eth0", "ip -4 netconf", "ip n"],
    notReadOnly: [
      "ip link set eth0 down",
      "ip route add default via 192.0.2.1",
      "ip address flush dev eth0",
      "ip -b cmds.txt",
      "ip -batch cmds.txt",
      "ip netns exec x sh",
      "ip r s",
      "ip monitor",
    ],
  },
};

export const SYSTEM: SpecFamily = {
  ip: IP,
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
      opt("-d --date", { role: "plain", check: "date-string" }),
      ...values("--rfc-3339"),
      ...optionals("-I --iso-8601"),
      opt("-f --file", { role: "read" }),
      opt("-r --reference", { role: "read" }),
      opt("-s --set", { role: "unchecked", why: "sets the system clock" }),
      ...HELP_VERSION,
    ],
    operands: [{ role: "plain", optional: true, pattern: "^\\+" }],
    tests: {
      readOnly: ["date", "date +%Y-%m-%d", "date -u -d @0"],
      notReadOnly: [
        "date -s now",
        "date --s=now",
        "date 010100002030",
        `date -d 'TZ="/home/u/.aws/credentials" now'`,
        `date --date='TZ="x" 2020-01-01'`,
      ],
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
    effect: "unchecked",
    effectWhy: "formats the page with groff and its helpers, and may write its cat-page cache",
    options: [
      ...flags(
        "-d --debug",
        "-D --default",
        "-K --global-apropos",
      ),
      // Searching the index or printing where a page is formats nothing.
      ...flags(
        "-f --whatis",
        "-k --apropos",
        "-w --where --path",
        "--location",
        "-W --where-cat --location-cat",
      )
        .map((o) => ({ ...o, readMode: true })),
      ...flags(
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
      readOnly: ["man -k socket", "man -f ls", "man -w ls"],
      notReadOnly: ["man ls", "man 5 crontab", "man -P sh ls", "man --pag=sh ls"],
    },
  },
  tldr: {
    summary: "simplified manual pages (several clients: only the options they share, exact)",
    long: "exact",
    options: [
      ...flags("-l --list", "-1 --single-column", "-r --raw"),
      ...flags("-v --version", "-h --help").map((o) => ({ ...o, readMode: true })),
      ...values("-p --platform", "-L --language"),
      effect("-u --update", "write", "downloads pages into its cache"),
      effect("-c --clear-cache", "write", "deletes its cache"),
    ],
    operands: NAMES,
    effect: "service",
    effectWhy:
      "the Python and Node clients fetch a page missing from their cache from the pages' server, sending its name",
    tests: {
      readOnly: ["tldr --version", "tldr tar", "tldr -p linux ls"],
      notReadOnly: ["tldr --update", "tldr -u"],
    },
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
