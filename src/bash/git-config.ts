/**
 * git configuration a command line sets for itself: `-c key=value`, `--config-env=key=VAR`, the
 * `GIT_CONFIG_COUNT`/`GIT_CONFIG_KEY_n`/`GIT_CONFIG_VALUE_n` environment, and variables that make
 * git read other configuration files (`GIT_CONFIG_GLOBAL`, `HOME`). Configuration names the
 * programs git runs (editors, pagers, ssh, filters, hooks, aliases), so deny and ask rules and the
 * work-loss table must see them: a key whose value is a shell command is read as one, a key known
 * to run nothing passes, and any other key makes the command opaque. Reviewed data with examples
 * (`test/bash/git-config.test.ts`). Pure.
 */
import type { Word } from "./command.ts";
import { resolveGit } from "./git.ts";

/** One setting as git will see it; `value` is undefined when it is known only at run time. */
export interface GitSetting {
  key: string;
  value: string | undefined;
  /** Where it came from, for messages (`-c`, `--config-env`, `GIT_CONFIG_KEY_0`). */
  from: string;
}

export interface KeyEntry {
  /** Lower-cased key; `*` stands for one subsection name (`diff.*.command`) or a whole last part. */
  pattern: string;
  why: string;
}

/** Keys whose value never names a program, a file git reads, or a repository: any value is harmless. */
export const HARMLESS_KEYS: readonly KeyEntry[] = [
  { pattern: "user.name", why: "identity" },
  { pattern: "user.email", why: "identity" },
  { pattern: "author.*", why: "identity" },
  { pattern: "committer.*", why: "identity" },
  { pattern: "color.*", why: "output colours" },
  { pattern: "color.*.*", why: "output colours" },
  { pattern: "column.*", why: "output layout" },
  { pattern: "advice.*", why: "hints printed" },
  { pattern: "core.quotepath", why: "how paths are printed" },
  { pattern: "core.autocrlf", why: "line endings" },
  { pattern: "core.safecrlf", why: "line endings" },
  { pattern: "core.eol", why: "line endings" },
  { pattern: "core.abbrev", why: "length of object names printed" },
  { pattern: "core.filemode", why: "whether the executable bit is tracked" },
  { pattern: "core.whitespace", why: "what diff marks as whitespace errors" },
  { pattern: "init.defaultbranch", why: "name of the first branch" },
  { pattern: "diff.renames", why: "rename detection" },
  { pattern: "diff.algorithm", why: "diff algorithm" },
  { pattern: "diff.colormoved", why: "output colours" },
  { pattern: "diff.noprefix", why: "output format" },
  { pattern: "diff.mnemonicprefix", why: "output format" },
  { pattern: "diff.context", why: "output format" },
  { pattern: "log.date", why: "output format" },
  { pattern: "log.decorate", why: "output format" },
  { pattern: "log.abbrevcommit", why: "output format" },
  { pattern: "merge.conflictstyle", why: "conflict markers" },
  { pattern: "pull.rebase", why: "how pull integrates (pull itself is judged)" },
  { pattern: "pull.ff", why: "how pull integrates (pull itself is judged)" },
  { pattern: "push.default", why: "which branch push sends (push itself is judged)" },
  { pattern: "fetch.prune", why: "remote-tracking refs fetch removes" },
  { pattern: "rerere.enabled", why: "reuse of conflict resolutions" },
  { pattern: "status.short", why: "output format" },
  { pattern: "status.branch", why: "output format" },
  { pattern: "status.showuntrackedfiles", why: "output format" },
  { pattern: "gc.auto", why: "when housekeeping runs (it runs no configured program)" },
  { pattern: "maintenance.auto", why: "when housekeeping runs" },
  { pattern: "protocol.version", why: "wire protocol version" },
  { pattern: "safe.directory", why: "which repositories' owners git accepts" },
];

/**
 * Keys whose value is a shell command git runs (sometimes with arguments appended): the value is
 * read as a script of its own, so rules and the work-loss table see what it runs. `true`/`false`
 * values of the boolean-or-command keys (`pager.log=false`) read as the builtins of that name.
 */
export const COMMAND_KEYS: readonly KeyEntry[] = [
  { pattern: "core.editor", why: "the editor for messages" },
  { pattern: "sequence.editor", why: "the editor for rebase todo lists" },
  { pattern: "core.pager", why: "the pager" },
  { pattern: "pager.*", why: "the pager of one command" },
  { pattern: "core.sshcommand", why: "the ssh program for remotes" },
  { pattern: "core.askpass", why: "the password prompt" },
  { pattern: "core.fsmonitor", why: "the file system monitor hook, run by status, diff, add ..." },
  { pattern: "core.gitproxy", why: "the proxy command for git:// remotes" },
  { pattern: "core.alternaterefscommand", why: "lists the refs of alternates" },
  { pattern: "diff.external", why: "the external diff program" },
  { pattern: "diff.*.command", why: "a diff driver" },
  { pattern: "diff.*.textconv", why: "a text conversion filter" },
  { pattern: "merge.*.driver", why: "a merge driver" },
  { pattern: "filter.*.clean", why: "a clean filter" },
  { pattern: "filter.*.smudge", why: "a smudge filter" },
  { pattern: "filter.*.process", why: "a long-running filter" },
  { pattern: "gpg.program", why: "the signing program" },
  { pattern: "gpg.*.program", why: "the signing program of one format" },
  { pattern: "remote.*.uploadpack", why: "the upload-pack program of a remote" },
  { pattern: "remote.*.receivepack", why: "the receive-pack program of a remote" },
  { pattern: "uploadpack.packobjectshook", why: "runs instead of pack-objects" },
  { pattern: "man.*.cmd", why: "a man viewer" },
  { pattern: "browser.*.cmd", why: "a web browser" },
  { pattern: "difftool.*.cmd", why: "a diff tool" },
  { pattern: "mergetool.*.cmd", why: "a merge tool" },
  { pattern: "sendemail.sendmailcmd", why: "the program that sends mail" },
  { pattern: "sendemail.tocmd", why: "a recipient command" },
  { pattern: "sendemail.cccmd", why: "a recipient command" },
  { pattern: "credential.helper", why: "a credential helper (`!cmd` or git-credential-NAME)" },
  { pattern: "credential.*.helper", why: "a credential helper" },
];

/** Signing switches: harmless off; on, they run gpg (gpg.program). */
const SIGNING_KEYS = new Set(["commit.gpgsign", "tag.gpgsign", "log.showsignature", "push.gpgsign"]);
const OFF = /^(?:false|no|off|0|)$/i;

/**
 * Variables that make git read configuration from elsewhere, or its programs and templates: the
 * analysis cannot see what they hold. `/dev/null` for a config file reads nothing.
 */
const CONFIG_SOURCES = new Set([
  "GIT_CONFIG",
  "GIT_CONFIG_GLOBAL",
  "GIT_CONFIG_SYSTEM",
  "GIT_CONFIG_PARAMETERS",
  "HOME",
  "XDG_CONFIG_HOME",
  "GIT_DIR",
  "GIT_COMMON_DIR",
  "GIT_EXEC_PATH",
  "GIT_TEMPLATE_DIR",
]);
const NOTHING = new Set(["/dev/null"]);

/** Variables whose value is a shell command git runs: read as scripts of their own. */
export const COMMAND_VARIABLES: ReadonlySet<string> = new Set([
  "GIT_EDITOR",
  "GIT_SEQUENCE_EDITOR",
  "GIT_PAGER",
  "PAGER",
  "EDITOR",
  "VISUAL",
  "GIT_SSH_COMMAND",
  "GIT_SSH",
  "GIT_ASKPASS",
  "SSH_ASKPASS",
  "GIT_EXTERNAL_DIFF",
  "GIT_PROXY_COMMAND",
]);

/** Names whose assignment anywhere in a line (`export HOME=x; git st`) changes what git runs. */
export function changesGit(name: string): boolean {
  return CONFIG_SOURCES.has(name) || COMMAND_VARIABLES.has(name) || /^GIT_CONFIG_/.test(name);
}

function matches(pattern: string, key: string): boolean {
  const p = pattern.split(".");
  const k = key.split(".");
  if (p.length !== k.length) return false;
  return p.every((part, i) => part === "*" || part === k[i]);
}

/** `Core.Editor` and `diff.Foo.command` as git compares them: section and key lower-cased. */
export function normalKey(key: string): string {
  const parts = key.split(".");
  if (parts.length < 2) return key.toLowerCase();
  const first = parts[0]!.toLowerCase();
  const last = parts.at(-1)!.toLowerCase();
  return [first, ...parts.slice(1, -1), last].join(".");
}

const entryFor = (list: readonly KeyEntry[], key: string) => list.find((e) => matches(e.pattern, key));

/** What one setting asks of the analysis: nothing, a script to read, or why it is opaque. */
export function judgeSetting(
  setting: GitSetting,
): { harmless: true } | { script: string; why: string } | { opaque: string } {
  const key = normalKey(setting.key);
  const unknownValue =
    `git configuration ${setting.key} (${setting.from}) has a value known only when it runs`;
  if (key.startsWith("alias.")) {
    // A literal alias is expanded where it is used (wrappers.ts); an unknown one is anything.
    return setting.value === undefined ? { opaque: unknownValue } : { harmless: true };
  }
  if (entryFor(HARMLESS_KEYS, key)) return { harmless: true };
  if (SIGNING_KEYS.has(key) && setting.value !== undefined && OFF.test(setting.value)) {
    return { harmless: true };
  }
  const command = entryFor(COMMAND_KEYS, key);
  if (command) {
    if (setting.value === undefined) return { opaque: unknownValue };
    const value = key.startsWith("credential.") && !setting.value.startsWith("!")
      ? setting.value === "" ? "true" : `git credential-${setting.value}`
      : setting.value.replace(/^!/, "");
    return { script: value === "" ? "true" : value, why: `git configuration ${setting.key}: ${command.why}` };
  }
  return {
    opaque:
      `git configuration ${setting.key} (${setting.from}) is not one known to run nothing: it may name a program, a hook directory or a file of configuration`,
  };
}

/**
 * The settings a git command line makes: `-c` and `--config-env` among its global options, and the
 * `GIT_CONFIG_COUNT` pairs of its environment. `env` holds the command's assignments.
 */
export function settingsOf(words: readonly Word[], env: Readonly<Record<string, string>>): {
  settings: GitSetting[];
  opaque: string[];
} {
  const settings: GitSetting[] = [];
  const opaque: string[] = [];
  // The environment first: `-c` overrides it, and the last setting of a key is the one git uses.
  if (Object.hasOwn(env, "GIT_CONFIG_COUNT")) {
    const count = Number(env.GIT_CONFIG_COUNT);
    if (!Number.isInteger(count) || count < 0 || count > 64) {
      opaque.push(`GIT_CONFIG_COUNT=${env.GIT_CONFIG_COUNT} sets git configuration the analysis cannot read`);
    }
    for (let n = 0; n < (Number.isInteger(count) ? Math.min(count, 64) : 0); n++) {
      const key = env[`GIT_CONFIG_KEY_${n}`];
      if (key === undefined) {
        opaque.push(`GIT_CONFIG_KEY_${n} is not set here: the configuration it names is unknown`);
        continue;
      }
      settings.push({ key, value: env[`GIT_CONFIG_VALUE_${n}`], from: `GIT_CONFIG_KEY_${n}` });
    }
  }
  const texts = words.map((w) => w.text);
  const dynamic = new Set(words.filter((w) => w.dynamic).map((w) => w.text));
  const call = resolveGit(texts.slice(1));
  for (let i = 0; i < call.globals.length; i++) {
    const g = call.globals[i]!;
    const isC = g === "-c" || /^-c./.test(g);
    const isEnv = g === "--config-env" || g.startsWith("--config-env=");
    if (!isC && !isEnv) continue;
    const pair = g === "-c" || g === "--config-env" ? call.globals[++i] : g.slice(isC ? 2 : 13);
    if (pair === undefined) continue;
    const eq = pair.indexOf("=");
    const key = eq === -1 ? pair : pair.slice(0, eq);
    if (dynamic.has(pair) && (eq === -1 || /[$`]/.test(key))) {
      opaque.push(`git ${g} ${pair}: the configuration key is known only when it runs`);
      continue;
    }
    if (isC) {
      // `-c key` alone sets the key to true.
      settings.push({
        key,
        value: dynamic.has(pair) ? undefined : eq === -1 ? "true" : pair.slice(eq + 1),
        from: "-c",
      });
    } else {
      const variable = eq === -1 ? "" : pair.slice(eq + 1);
      settings.push({
        key,
        value: Object.hasOwn(env, variable) ? env[variable] : undefined,
        from: `--config-env ${variable}`,
      });
    }
  }
  for (const [name, value] of Object.entries(env)) {
    if (CONFIG_SOURCES.has(name) && !NOTHING.has(value)) {
      opaque.push(
        `${name}=${value} makes git read configuration (aliases, programs) the analysis cannot see`,
      );
    }
  }
  return { settings, opaque };
}

/** The key a `git config` command writes, lower-cased; undefined when it cannot be told. */
export function writtenKey(args: readonly string[]): string | undefined {
  const operands = args.filter((a) => !a.startsWith("-"));
  // `git config set KEY VALUE` (git 2.46) and `git config KEY VALUE`.
  const key = operands[0] === "set" || operands[0] === "unset" ? operands[1] : operands[0];
  return key !== undefined && /^[\w-]+(?:\..+)?\.[\w-]+$/.test(key) ? normalKey(key) : undefined;
}

/** Whether writing this key may change what a later git command runs. */
export function keyMayRun(key: string | undefined): boolean {
  return key === undefined || !entryFor(HARMLESS_KEYS, key);
}
