/**
 * bash 5.2 builtins that may run without asking. Builtins parse options with bash's internal
 * getopt: short options only, clustered; `--` ends them. Words bash evaluates (variable names with
 * subscripts, arithmetic) carry the roles `varname`, `assign` or `arith`.
 */
import type { CommandSpec, SpecFamily } from "../spec.ts";
import { flags, opt } from "./build.ts";

const ANYTHING = [{ role: "plain", repeat: true, optional: true }] as const;

const CD: CommandSpec = {
  summary: "change the working directory (later relative paths move with it)",
  long: "none",
  options: flags("-L", "-P", "-e", "-@"),
  // `cd -` goes to $OLDPWD, which is not known here.
  operands: [{ role: "read", optional: true, implicit: "~", pattern: "^(?!-$)" }],
  tests: { readOnly: ["cd src", "cd"], notReadOnly: ["cd -", "cd a b"], paths: { "cd /etc": ["read:/etc"] } },
};

const TEST: CommandSpec = {
  summary: "evaluate a conditional expression (file operators only look at metadata)",
  long: "none",
  unknownOptionsAreOperands: true,
  dashDash: false,
  operands: [{ role: "plain", repeat: true, optional: true, check: "test-expression" }],
  tests: {
    readOnly: ["test -f package.json", "test -v HOME", "test -n x", "test a = b"],
    notReadOnly: ["test -v 'a[$(id)]'", "[ -v 'x[`id`]' ]"],
    paths: {
      "test -e ~/.ssh/id_rsa": ["read:~/.ssh/id_rsa"],
      "test -L /etc/x": ["read:/etc/x"],
      "test a -nt /etc/b": ["read:a", "read:/etc/b"],
      "test ! -s .env": ["read:.env"],
    },
  },
};

export const BUILTINS: SpecFamily = {
  cd: CD,
  pushd: {
    ...CD,
    summary: "push a directory on the stack and go there",
    options: flags("-n"),
    tests: undefined,
  },
  popd: {
    summary: "pop the directory stack",
    long: "none",
    options: flags("-n"),
    operands: [{ role: "plain", optional: true, pattern: "^[+-]\\d+$" }],
    tests: { readOnly: ["popd"], notReadOnly: ["popd x"] },
  },
  dirs: {
    summary: "show the directory stack",
    long: "none",
    options: flags("-c", "-l", "-p", "-v"),
    operands: [{ role: "plain", optional: true, pattern: "^[+-]\\d+$" }],
    tests: { readOnly: ["dirs -v"], notReadOnly: ["dirs x"] },
  },
  pwd: {
    summary: "print the working directory",
    long: "none",
    options: flags("-L", "-P"),
    operands: [],
    tests: { readOnly: ["pwd", "pwd -P"], notReadOnly: ["pwd -q"] },
  },
  echo: {
    summary: "print its arguments (only -n, -e, -E clusters are options; anything else is printed)",
    long: "none",
    unknownOptionsAreOperands: true,
    dashDash: false,
    permute: false,
    options: flags("-n", "-e", "-E"),
    operands: ANYTHING,
    tests: { readOnly: ["echo hello", "echo -n x", "echo --help", "echo $HOME"], notReadOnly: [] },
  },
  printf: {
    summary: "print formatted text (-v assigns a variable instead)",
    long: "none",
    options: [opt("-v", { role: "assign", why: "assigns the output to a shell variable" })],
    operands: [{ role: "plain" }, { role: "plain", repeat: true, optional: true }],
    tests: {
      readOnly: ["printf '%s\\n' a b", "printf -- '-x\\n'"],
      notReadOnly: ["printf -v x '%s' y", "printf -v 'a[$(id)]' x"],
    },
  },
  test: TEST,
  "[": TEST,
  true: {
    summary: "do nothing, successfully",
    long: "none",
    unknownOptionsAreOperands: true,
    operands: ANYTHING,
  },
  false: {
    summary: "do nothing, unsuccessfully",
    long: "none",
    unknownOptionsAreOperands: true,
    operands: ANYTHING,
  },
  ":": {
    summary: "do nothing (its words are still expanded)",
    long: "none",
    unknownOptionsAreOperands: true,
    operands: ANYTHING,
  },
  type: {
    summary: "how a name would be interpreted",
    long: "none",
    options: flags("-a", "-f", "-p", "-P", "-t"),
    operands: ANYTHING,
    tests: { readOnly: ["type ls", "type -a python"], notReadOnly: ["type -q x"] },
  },
  command: {
    summary: "command -v / -V: how a name would be interpreted (other forms run it: see the wrappers)",
    long: "none",
    options: flags("-v", "-V", "-p"),
    operands: ANYTHING,
    tests: { readOnly: ["command -v git"], notReadOnly: [] },
  },
  help: {
    summary: "help on builtins",
    long: "none",
    options: flags("-d", "-m", "-s"),
    operands: ANYTHING,
    tests: { readOnly: ["help cd"], notReadOnly: ["help -q"] },
  },
};
