/**
 * What git commands do that only the file system and git's configuration can tell, looked up when
 * deciding: whether `git checkout WORD` names a file it would restore (work lost), and whether a
 * subcommand that is not one of git's own is an alias in the configuration git reads (then what it
 * runs is not known to the analysis: opaque, so the sandbox does not stand in for a person), and
 * which program git runs to reach a remote given by name (its URL is in the configuration).
 */
import { spawnSync } from "node:child_process";
import { lstatSync } from "node:fs";
import { urlHelper } from "../bash/helper-programs.ts";
import type { BashAnalysis } from "../bash/types.ts";
import { type ConfigEntry, credentialIn, gitConfigList } from "./git-credentials.ts";

export interface GitFactsDeps {
  /** A path as the command would reach it, absolute; undefined when it cannot be known. */
  resolve: (path: string) => string | undefined;
  /**
   * What git in `dir` runs for a name that is not one of its commands: the alias's value, or
   * `help.autocorrect` when that makes git run the closest command instead; null when neither is
   * set; throws when git cannot tell.
   */
  alias?: (dir: string, name: string) => string | null;
  /** git's configuration as `git config --list` in `dir` prints it (with `scope`, e.g. `--file F`); throws when git cannot tell. */
  config?: (dir: string, gitDir: boolean, scope: readonly string[]) => ConfigEntry[];
  /**
   * The URLs git in `dir` uses for a remote by name (undefined: the default remote; `*`: every
   * remote), `url.*.insteadOf` applied; empty when git cannot tell.
   */
  remoteUrls?: (dir: string, name: string | undefined, push: boolean) => string[];
}

/** The analysis with work loss confirmed by the file system and aliases found in the configuration. */
export function withGitFacts(bash: BashAnalysis, deps: GitFactsDeps): BashAnalysis {
  const confirmed = (bash.workLossIfExists ?? []).filter((w) =>
    w.paths.some((p) => {
      const path = deps.resolve(p);
      return path === undefined || exists(path);
    })
  );
  const aliases = aliasReasons(bash, deps);
  const printed = printedSecrets(bash, deps);
  const helpers = remoteHelpers(bash, deps);
  if (confirmed.length === 0 && aliases.length === 0 && printed.length === 0 && helpers.size === 0) {
    return bash;
  }
  const commands = bash.commands.map((c, i) => {
    const ids = confirmed.filter((w) => w.index === i).map((w) => w.id);
    const secrets = printed.filter((p) => p.index === i).map((p) => p.why);
    const found = helpers.get(i);
    const withHelpers = found ? { ...c, helpers: [...new Set([...(c.helpers ?? []), ...found])] } : c;
    const lost = ids.length === 0
      ? withHelpers
      : { ...withHelpers, workLoss: [...new Set([...(c.workLoss ?? []), ...ids])] };
    return secrets.length === 0
      ? lost
      : { ...lost, readOnly: false, secrets: [...new Set([...(c.secrets ?? []), ...secrets])] };
  });
  return {
    ...bash,
    ...(printed.length > 0 ? { readOnly: false } : {}),
    commands,
    workLoss: [...bash.workLoss, ...confirmed.map(({ id, name, command }) => ({ id, name, command }))],
    opaque: [...new Set([...bash.opaque, ...aliases])],
  };
}

function exists(path: string): boolean {
  try {
    lstatSync(path);
    return true;
  } catch {
    return false;
  }
}

/**
 * The helper programs git runs for remotes given by name, by sub-command: `git fetch sshr` runs
 * ssh when the configuration gives sshr an ssh URL (verified: strace shows execve /usr/bin/ssh).
 */
function remoteHelpers(bash: BashAnalysis, deps: GitFactsDeps): Map<number, string[]> {
  const found = new Map<number, string[]>();
  for (const use of bash.remotes ?? []) {
    for (const written of use.dirs) {
      const dir = deps.resolve(written);
      if (dir === undefined) continue;
      const push = use.service === "git-receive-pack";
      for (const url of (deps.remoteUrls ?? gitRemoteUrls)(dir, use.name, push)) {
        const helper = urlHelper(url, use.service);
        if (helper !== undefined) found.set(use.index, [...(found.get(use.index) ?? []), helper]);
      }
    }
  }
  return found;
}

/**
 * URLs as git in `dir` reads them: `git ls-remote --get-url` (configuration only, no connection,
 * no program run) for the remote, or for each remote `git remote` lists; for a push, its push
 * URLs too (`remote.NAME.pushurl`); for `submodules`, each submodule's URL in the configuration
 * and in `.gitmodules`.
 */
function gitRemoteUrls(dir: string, name: string | undefined, push: boolean): string[] {
  const git = (...args: string[]) => {
    const run = spawnSync("git", ["-C", dir, ...args], {
      encoding: "utf8",
      timeout: 5000,
      stdio: ["ignore", "pipe", "ignore"],
    });
    return run.status === 0 ? run.stdout.split("\n").filter((line) => line !== "") : [];
  };
  if (name === "submodules") {
    // A relative URL (`../lib.git`) is taken from the superproject's default remote.
    const urls = [
      ...git("config", "--get-regexp", "^submodule\\..*\\.url$"),
      ...git("config", "-f", ".gitmodules", "--get-regexp", "^submodule\\..*\\.url$"),
    ].map((line) => line.slice(line.indexOf(" ") + 1));
    return urls.some((url) => /^\.\.?\//.test(url)) ? [...urls, ...git("ls-remote", "--get-url")] : urls;
  }
  const names = name === "*" ? git("remote") : [name];
  return names.flatMap((n) => [
    ...git("ls-remote", "--get-url", ...(n === undefined ? [] : [n])),
    ...(push && n !== undefined ? git("remote", "get-url", "--push", "--all", n) : []),
  ]);
}

function aliasReasons(bash: BashAnalysis, deps: GitFactsDeps): string[] {
  const reasons: string[] = [];
  for (const use of bash.repositories ?? []) {
    if (use.alias === undefined || use.gitDir) continue;
    const dir = deps.resolve(use.dir);
    let value: string | null;
    try {
      if (dir === undefined) throw new Error(`where ${use.dir} leads is not known`);
      value = (deps.alias ?? gitAlias)(dir, use.alias);
    } catch (e) {
      reasons.push(
        `git ${use.alias} is not one of git's own commands and whether the configuration makes it an alias could not be told (${
          (e as Error).message
        })`,
      );
      continue;
    }
    if (value !== null) {
      reasons.push(
        `git ${use.alias} is not one of git's own commands, and the git configuration runs something for it (${value}): what it runs is not analysed`,
      );
    }
  }
  return reasons;
}

/**
 * `alias.NAME` and `help.autocorrect` as git in `dir` reads them (`git config --get-regexp`, which
 * reads configuration only and runs no program). With autocorrect on (`immediate`, a delay, `prompt`)
 * a mistyped `git psuh` runs `git push` (verified, git 2.39).
 */
function gitAlias(dir: string, name: string): string | null {
  const escaped = name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const pattern = `^(alias\\.${escaped}|help\\.autocorrect)$`;
  const run = spawnSync("git", ["-C", dir, "config", "--get-regexp", pattern], {
    encoding: "utf8",
    timeout: 5000,
    stdio: ["ignore", "pipe", "pipe"],
  });
  if (run.error) throw run.error;
  if (run.status === 1) return null;
  if (run.status !== 0) throw new Error(run.stderr.trim() || `git config exited with ${run.status}`);
  const found = run.stdout.trim().split("\n").map((line) => {
    const space = line.indexOf(" ");
    return {
      key: space === -1 ? line : line.slice(0, space),
      value: space === -1 ? "" : line.slice(space + 1),
    };
  });
  const alias = found.findLast((f) => f.key.startsWith("alias."));
  if (alias) return `alias.${name} = ${alias.value}`;
  const autocorrect = found.findLast((f) => f.key === "help.autocorrect")?.value ?? "0";
  return AUTOCORRECT_OFF.test(autocorrect) ? null : `help.autocorrect = ${autocorrect}`;
}

/** help.autocorrect values that only suggest (0, false, off, no, show, never); any other runs a command. */
const AUTOCORRECT_OFF = /^(?:0|false|off|no|show|never|)$/i;

/**
 * Commands that print configuration which holds a credential (`git remote -v` of a remote whose URL
 * has `user:token@`, `git config --list` with an `http.extraheader`): a printed secret, which asks
 * whatever allows the command. When the configuration cannot be read, it may hold one: asks too.
 */
function printedSecrets(bash: BashAnalysis, deps: GitFactsDeps): { index: number; why: string }[] {
  const found: { index: number; why: string }[] = [];
  for (const use of bash.repositories ?? []) {
    if (use.config === undefined) continue;
    const { index, keys, scope } = use.config;
    const dir = deps.resolve(use.dir);
    let entries: ConfigEntry[];
    try {
      if (dir === undefined) throw new Error(`where ${use.dir} leads is not known`);
      entries = (deps.config ?? gitConfigList)(dir, use.gitDir === true, scope);
    } catch (e) {
      found.push({
        index,
        why: `prints git configuration, which may hold credentials, and it could not be read (${
          (e as Error).message
        })`,
      });
      continue;
    }
    const credential = credentialIn(entries, keys);
    if (credential !== undefined) {
      found.push({ index, why: `prints git configuration holding a credential (${credential})` });
    }
  }
  return found;
}
