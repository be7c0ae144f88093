/**
 * npm's command names as npm itself reads them (npm 11, `lib/utils/cmd-list.js`): aliases, then any
 * unique start of a command or alias name (`npm publ` is `npm publish`), with options allowed
 * before the command (`npm --registry=x publish`). Deny and ask rules are matched against the
 * command as npm will run it, so `Bash(npm publish:*)` holds for every spelling.
 */

const COMMANDS = (
  "access adduser approve-scripts audit bugs cache ci completion config dedupe deny-scripts deprecate " +
  "diff dist-tag docs doctor edit exec explain explore find-dupes fund get help help-search init " +
  "install install-ci-test install-scripts install-test link ll login logout ls org outdated owner pack " +
  "ping pkg prefix profile prune publish query rebuild repo restart root run sbom search set shrinkwrap " +
  "stage star stars start stop team test token trust undeprecate uninstall unpublish unstar update " +
  "version view whoami"
).split(" ");

const ALIASES: Readonly<Record<string, string>> = {
  author: "owner",
  home: "docs",
  issues: "bugs",
  info: "view",
  show: "view",
  find: "search",
  add: "install",
  unlink: "uninstall",
  remove: "uninstall",
  rm: "uninstall",
  r: "uninstall",
  un: "uninstall",
  rb: "rebuild",
  list: "ls",
  ln: "link",
  create: "init",
  i: "install",
  it: "install-test",
  cit: "install-ci-test",
  u: "update",
  up: "update",
  c: "config",
  s: "search",
  se: "search",
  tst: "test",
  t: "test",
  ddp: "dedupe",
  v: "view",
  "run-script": "run",
  "clean-install": "ci",
  "clean-install-test": "install-ci-test",
  x: "exec",
  why: "explain",
  la: "ll",
  verison: "version",
  ic: "ci",
  innit: "init",
  in: "install",
  ins: "install",
  inst: "install",
  insta: "install",
  instal: "install",
  isnt: "install",
  isnta: "install",
  isntal: "install",
  isntall: "install",
  "install-clean": "ci",
  "isntall-clean": "ci",
  hlep: "help",
  "dist-tags": "dist-tag",
  upgrade: "update",
  udpate: "update",
  rum: "run",
  sit: "install-ci-test",
  urn: "run",
  ogr: "org",
  "add-user": "adduser",
};

const NAMES = [...COMMANDS, ...Object.keys(ALIASES)];

/**
 * Commands that do what another command does, as npm 11 runs them (`lib/commands/`): a rule about
 * the other command holds for them too. `install-test` installs then runs the test script;
 * `test`, `start`, `stop` and `restart` run the package script of that name as `npm run` does
 * (`restart` runs stop, restart and start); `ci` and `update` install packages with their install
 * scripts.
 */
export const NPM_PERFORMS: Readonly<Record<string, readonly (readonly string[])[]>> = {
  "install-test": [["install"], ["test"], ["run", "test"]],
  "install-ci-test": [["ci"], ["install"], ["test"], ["run", "test"]],
  ci: [["install"]],
  update: [["install"]],
  test: [["run", "test"]],
  start: [["run", "start"]],
  stop: [["run", "stop"]],
  restart: [["run", "restart"], ["run", "stop"], ["run", "start"]],
};

/** The command npm runs for this word, or undefined when it names none (or several). */
export function npmCommand(word: string): string | undefined {
  const exact = NAMES.includes(word) ? word : undefined;
  const starts = NAMES.filter((n) => n.startsWith(word));
  const name = exact ?? (word !== "" && starts.length === 1 ? starts[0] : undefined);
  return name === undefined ? undefined : ALIASES[name] ?? name;
}

/**
 * `npm ...` as the command it may run: every word that could be the command (the first one not an
 * option, or one after an option that may have taken the word before it as its value), named in
 * full, and as each command it performs (`npm it` is also `npm install`). Empty for anything else.
 */
export function npmCommandTexts(words: readonly string[]): string[] {
  if (words[0] !== "npm") return [];
  const texts: string[] = [];
  for (let i = 1; i < words.length; i++) {
    const word = words[i]!;
    if (word.startsWith("-")) continue;
    const command = npmCommand(word);
    if (command !== undefined) {
      for (const performed of [[command], ...(NPM_PERFORMS[command] ?? [])]) {
        texts.push(["npm", ...performed, ...words.slice(i + 1)].join(" "));
      }
    }
    // nopt may have taken this word as the value of an option before it; otherwise it is the command.
    if (!words[i - 1]!.startsWith("-") || words[i - 1]!.includes("=")) break;
  }
  return texts;
}
