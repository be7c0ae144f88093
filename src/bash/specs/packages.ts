/**
 * Package managers and toolchains: their read-only subcommands, and `--version`/`--help` of
 * everything else. npm (nopt) and pip (optparse) expand abbreviated options, so only exact
 * spellings of the listed options are accepted (an abbreviation asks); the others are exact anyway.
 */
import type { CommandSpec, OptionSpec, SpecFamily } from "../spec.ts";
import { effect, flags, opt, values } from "./build.ts";

const ANY = [{ role: "plain", optional: true, repeat: true }] as const;
const NONE: CommandSpec["operands"] = [];
const ro = (summary: string, options: OptionSpec[] = [], more: Partial<CommandSpec> = {}): CommandSpec => ({
  summary,
  options,
  operands: ANY,
  ...more,
});

/** npm configs that make npm run another program, wherever they are given. */
const NPM_PROGRAMS: OptionSpec[] = [
  opt("--script-shell --shell", { role: "program", why: "runs scripts with this shell" }),
  opt("--node-options", { role: "program", why: "passes options (--require, --import) to node" }),
  opt("--userconfig --globalconfig", {
    role: "program",
    why: "loads npm configuration, which can name programs",
  }),
];
const NPM_COMMON: OptionSpec[] = [
  ...flags("--json", "-a --all", "-l --long", "-p --parseable", "-g --global", "--ws --workspaces", "--prod"),
  ...flags("--production", "--dev", "--include-workspace-root", "--no-color", "--color", "-s --silent"),
  ...flags("-q --quiet", "--offline", "--prefer-offline", "--unicode", "-h --help"),
  ...values(
    "--depth",
    "-w --workspace",
    "--include",
    "--omit",
    "--loglevel",
    "--tag",
    "--before",
  ),
  ...values(
    "--filter",
    "--format",
    "-F",
    "--ignore",
    "--author",
    "--searchlimit",
    "--audit-level",
  ),
  opt("--prefix -C", { role: "read", why: "works in the project at this folder" }),
  ...flags(
    "-D --dev-only",
    "--no-optional",
    "-r --recursive",
    "--long",
    "--compatible",
    "--top",
    "-P --prod",
  ),
  ...NPM_PROGRAMS,
  opt("--registry", { role: "network", why: "sends the query to the host it names" }),
];

/** Subcommands that send the project's dependency list to the registry. */
const SENDS_DEPENDENCIES: Partial<CommandSpec> = {
  effect: "network",
  effectWhy: "sends the project's dependency list to the registry",
};

/** Subcommands that query the registry the configuration names (a project `.npmrc` may name any host). */
const ASKS_REGISTRY: Partial<CommandSpec> = {
  effect: "service",
  effectWhy:
    "queries the registry its configuration names (a project .npmrc may name any host), sending what it is given",
};

const JS_READS: Record<string, CommandSpec> = {
  ls: ro("installed packages", [], { aliases: ["list", "ll", "la"] }),
  view: ro("registry information", [], { aliases: ["info", "show", "v"], ...ASKS_REGISTRY }),
  outdated: ro("outdated packages", [], SENDS_DEPENDENCIES),
  root: ro("node_modules folder", [], { operands: NONE }),
  prefix: ro("prefix folder", [], { operands: NONE }),
  why: ro("why a package is installed", [], { aliases: ["explain"] }),
  audit: ro("vulnerability report", [], SENDS_DEPENDENCIES),
  search: ro("search the registry", [], { aliases: ["s", "se", "find"], ...ASKS_REGISTRY }),
  help: ro("help", [], {
    operands: [{ role: "unchecked", optional: true, why: "shows the page by running man" }],
  }),
  whoami: ro("logged-in user", [], { operands: NONE, ...ASKS_REGISTRY }),
  ping: ro("ping the registry", [], { operands: NONE, ...ASKS_REGISTRY }),
  doctor: ro("environment checks", [], {
    effect: "write",
    effectWhy: "verifies npm's cache, rewriting its index, and runs git and node to check them",
  }),
  fund: ro("funding information"),
  config: {
    summary: "configuration (get and list only)",
    subcommands: { get: ro("read a value"), list: ro("list values", [], { aliases: ["ls"] }) },
  },
  pkg: { summary: "package.json (get only)", subcommands: { get: ro("read fields") } },
};

const js = (summary: string): CommandSpec => ({
  summary,
  long: "exact",
  permute: false,
  persistent: NPM_COMMON,
  options: flags("-v --version"),
  subcommands: JS_READS,
  tests: {
    readOnly: [
      "npm view react",
      "npm info react version",
      "npm v react",
      "npm search x",
      "npm ping",
      "npm whoami",
      "npm ls",
      "npm why react",
      "npm config get registry",
      "npm pkg get name",
    ],
    notReadOnly: [
      "npm install left-pad",
      "npm audit fix",
      "npm audit",
      "npm outdated",
      "npm ls --script-shell=sh",
      "npm view x --registry=https://x.example",
      "npm help ls",
      "npm doctor",
    ],
    paths: {
      "npm ls --prefix /tmp/other": ["read:/tmp/other"],
      "npm ls -C ../other": ["read:../other"],
    },
  },
});

const PIP_GLOBAL: OptionSpec[] = [
  ...flags(
    "-v --verbose",
    "-q --quiet",
    "--isolated",
    "--no-color",
    "-h --help",
  ),
  ...flags("--no-input", "--require-virtualenv", "-V --version"),
  ...values("--timeout", "--retries"),
  opt("--python", { role: "program", why: "re-runs pip under the interpreter it names" }),
  opt("--proxy", { role: "network", why: "connects through the host it names" }),
  opt("--cert --client-cert", { role: "read" }),
  opt("--log", { role: "write", why: "appends a log to this file" }),
  { names: ["--disable-pip-version-check"], readMode: true },
];
const pip: CommandSpec = {
  summary: "pip (optparse expands abbreviations: only exact spellings here)",
  long: "exact",
  permute: false,
  persistent: PIP_GLOBAL,
  subcommands: {
    list: ro("installed packages", [
      effect("-o --outdated", "network", "sends the installed packages' names to the package index"),
      effect("-u --uptodate", "network", "sends the installed packages' names to the package index"),
      ...flags("-e --editable", "-l --local", "--user", "--pre"),
      ...flags("--not-required", "--exclude-editable", "--include-editable"),
      ...values("--format", "--exclude", "--path"),
    ], {
      operands: NONE,
      effect: "network",
      effectWhy:
        "asks the package index whether pip is current, with the credentials in ~/.netrc (not with --disable-pip-version-check)",
    }),
    show: ro("package details", flags("-f --files")),
    freeze: ro("installed packages as requirements", [
      ...flags("-l --local", "--user", "--all", "--exclude-editable"),
      ...values("--path", "--exclude"),
    ], { operands: NONE }),
    check: ro("dependency check", [], { operands: NONE }),
    help: ro("help"),
  },
  tests: {
    readOnly: ["pip list --disable-pip-version-check", "pip show requests", "pip freeze"],
    notReadOnly: [
      "pip install x",
      "pip check --log out",
      "pip list",
      "pip list --outdated",
      "pip list -o",
      "pip freeze --proxy http://x.example:3128",
      "pip --python ./fakepy freeze",
      "pip --python=./fakepy show pip",
      "pip --version --python ./fakepy",
      "pip -V --python=./fakepy",
      "pip --python /usr/bin/python3 check",
      "pip --pyth ./fakepy help",
      "pip --py=./fakepy freeze",
    ],
    paths: { "pip freeze --cert ~/.ssh/id_rsa": ["read:~/.ssh/id_rsa"] },
  },
};

/** `tool --version` / `tool --help` (and the listed spellings) print and do nothing else. */
const versionOnly = (summary: string, spellings: string): CommandSpec => ({
  summary,
  long: "exact",
  cluster: false,
  effect: "unchecked",
  effectWhy: "runs code or a build without --version or --help",
  options: flags(...spellings.split(" ")).map((o) => ({ ...o, readMode: true })),
  operands: NONE,
});
const VERSION = "--version -V --help -h";
/** Tools where one of those spellings means something else: npx takes -V as a config and runs a shell. */
const VERSION_SPELLINGS: Readonly<Record<string, string>> = { npx: "--version --help -h" };
// java and javac are not here: every JVM start writes /tmp/hsperfdata_USER.
const VERSION_TOOLS = (
  "node npx deno python python3 pip3 tsc make cmake gcc clang ruby perl php rustc"
).split(" ");
/** Of those, the ones that read `@FILE` as more arguments (seen with gcc, rustc and tsc; clang's documented). */
const RESPONSE_FILE_TOOLS = new Set(["tsc", "gcc", "clang", "rustc"]);

export const PACKAGES: SpecFamily = {
  npm: js("npm"),
  pnpm: js("pnpm"),
  yarn: js("yarn"),
  bun: js("bun"),
  pip,
  uv: {
    summary: "uv (read-only subcommands)",
    long: "exact",
    permute: false,
    options: flags("-V --version", "-h --help"),
    subcommands: {
      pip: {
        summary: "uv pip",
        subcommands: {
          list: pip.subcommands!.list!,
          show: pip.subcommands!.show!,
          freeze: pip.subcommands!.freeze!,
        },
      },
      help: ro("help"),
      version: ro("version", [...flags("--short"), ...values("--output-format")], { operands: NONE }),
    },
  },
  go: {
    summary: "go (read-only subcommands; Go flag parsing: single-dash names matched whole)",
    long: "exact",
    cluster: false,
    permute: false,
    subcommands: {
      version: ro("version", flags("-m", "-v", "-json"), {
        operands: [{ role: "read", optional: true, repeat: true }],
      }),
      env: ro("environment", [
        ...flags("-json", "-changed"),
        opt("-w -u", { role: "write", why: "changes go's environment file" }),
      ]),
      help: ro("help"),
    },
    tests: { readOnly: ["go env GOPATH", "go version"], notReadOnly: ["go env -w GOFLAGS=-x", "go run ."] },
  },
  cargo: {
    summary: "cargo (read-only subcommands)",
    long: "exact",
    permute: false,
    options: flags("-V --version", "-h --help", "--list"),
    subcommands: {
      version: ro("version", [
        effect("-v --verbose", "unchecked", "runs lsb_release and getconf to describe the system"),
      ], {
        operands: NONE,
      }),
      help: ro("help", [], {
        operands: [{ role: "unchecked", optional: true, why: "shows the page by running man" }],
      }),
    },
    tests: {
      readOnly: ["cargo version", "cargo help"],
      notReadOnly: ["cargo build", "cargo help build", "cargo version -v"],
    },
  },
  rustup: {
    summary: "rustup (help and version only)",
    long: "exact",
    options: flags("-V --version", "-h --help"),
    subcommands: { help: ro("help"), show: ro("installed toolchains", [], { operands: [] }) },
  },
  crontab: {
    summary: "crontab: -l lists (anything else installs or removes a table)",
    long: "none",
    options: [...flags("-l"), ...values("-u")],
    operands: NONE,
    tests: { readOnly: ["crontab -l"], notReadOnly: ["crontab -r", "crontab file"] },
  },
  ...Object.fromEntries(
    VERSION_TOOLS.map((
      t,
    ) => [t, {
      ...versionOnly(`${t}: version and help only`, VERSION_SPELLINGS[t] ?? VERSION),
      ...(RESPONSE_FILE_TOOLS.has(t) ? { responseFiles: true } : {}),
    }]),
  ),
};
