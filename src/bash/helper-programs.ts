/**
 * Programs a command runs to reach another host, named so that deny and ask rules meet them:
 * `git ls-remote h:x`, `git clone ssh://h/x`, `scp h:x .`, `sftp h` and `rsync -a h:x .` all run
 * ssh (verified with strace: execve /usr/bin/ssh), so `Bash(ssh:*)` holds for them as for
 * `ssh h`. A git remote given by name (`git fetch sshr`) is looked up in the repository's
 * configuration when deciding (`src/policy/git-facts.ts`); this module says which names to look up
 * and how a URL is reached. Pure.
 *
 * ```ts
 * urlHelper("h:x", "git-upload-pack");        // "ssh h git-upload-pack 'x'"
 * urlHelper("https://h/x", "git-upload-pack"); // undefined
 * ```
 */
import type { Judged } from "./command.ts";
import { factOf } from "./catastrophic.ts";
import { resolveGit } from "./git.ts";
import { VALUE_LETTERS } from "./ssh.ts";
import { shellQuote } from "../tool/shell-quote.ts";

/** A git remote given by name (or the default one), whose URL the configuration holds. */
export interface RemoteName {
  /** Where git runs (`git -C`), relative to the command's directory. */
  dir: string;
  /**
   * The remote's name; undefined for the default remote, `*` for every remote (`fetch --all`),
   * `submodules` for the URLs of the submodules (`submodule update`).
   */
  name?: string;
  /** The program git runs on the other side: it names the helper (`git-receive-pack` for push). */
  service: string;
}

export interface HelperPrograms {
  /** Helper command lines as rules see them (`ssh h git-upload-pack 'x'`). */
  texts: string[];
  /** Remotes named, to be looked up when deciding. */
  remotes: RemoteName[];
}

/**
 * How git reaches a URL: ssh for `ssh://`, `git+ssh://`, `ssh+git://` and the scp-like `[user@]host:path`
 * (a colon before any slash, not `::`, which is a remote helper's), with the service it runs there.
 */
export function urlHelper(url: string, service: string): string | undefined {
  const ssh = /^(?:ssh|git\+ssh|ssh\+git):\/\/(?:[^@/]*@)?(\[[^\]]*\]|[^:/]*)(?::\d*)?(\/.*)?$/i.exec(url);
  if (ssh) return `ssh ${ssh[1]!.replace(/^\[|\]$/g, "")} ${service} ${shellQuote(ssh[2] ?? "/")}`;
  const scp = /^(?:[^@/:]*@)?(\[[^\]]*\]|[^:/]+):(?!:)(.*)$/.exec(url);
  if (!scp || /^[a-z][a-z0-9+.-]*:\/\//i.test(url)) return undefined;
  return `ssh ${scp[1]!.replace(/^\[|\]$/g, "")} ${service} ${shellQuote(scp[2]!)}`;
}

/** A word that names a git remote rather than a URL or a path: no `/`, `:` or leading `.`. */
const REMOTE_NAME = /^[^\-./:~][^/:]*$/;

/** git subcommands that talk to a remote: where the remote is, and the service run there. */
const GIT_REMOTES: Readonly<Record<string, { service: string; at: "operand" | "remote-option" }>> = {
  clone: { service: "git-upload-pack", at: "operand" },
  fetch: { service: "git-upload-pack", at: "operand" },
  pull: { service: "git-upload-pack", at: "operand" },
  "ls-remote": { service: "git-upload-pack", at: "operand" },
  "fetch-pack": { service: "git-upload-pack", at: "operand" },
  push: { service: "git-receive-pack", at: "operand" },
  "send-pack": { service: "git-receive-pack", at: "operand" },
  archive: { service: "git-upload-archive", at: "remote-option" },
};

/** The helper programs one judged command runs. */
export function helperPrograms(j: Judged): HelperPrograms {
  const fact = factOf(j);
  const out: HelperPrograms = { texts: [], remotes: [] };
  if (fact.is("git")) gitHelpers(fact.args, out);
  else if (fact.is("scp")) remoteShell(fact.args, out, VALUE_LETTERS.scp!, "ssh");
  else if (fact.is("sftp")) sftpHelper(fact.args, out);
  else if (fact.is("rsync")) rsyncHelper(fact.args, j.command.env, out);
  return out;
}

function gitHelpers(args: string[], out: HelperPrograms): void {
  const call = resolveGit(args);
  const sub = call.subcommand?.toLowerCase();
  // `submodule add URL` clones it; `submodule update` fetches or clones each submodule's URL.
  if (sub === "submodule") {
    const words = call.args.filter((a) => !a.startsWith("-"));
    if (words[0] === "add") {
      const text = words[1] === undefined ? undefined : urlHelper(words[1], "git-upload-pack");
      if (text !== undefined) out.texts.push(text);
    } else if (words[0] === "update") {
      out.remotes.push({ dir: call.start, name: "submodules", service: "git-upload-pack" });
    }
    return;
  }
  const where = sub === undefined ? undefined : GIT_REMOTES[sub];
  if (!where) return;
  const options = call.args.filter((a) => a.startsWith("-"));
  // fetch and pull also fetch the submodules whose commits changed (fetch.recurseSubmodules=on-demand).
  if (sub === "fetch" || sub === "pull") {
    out.remotes.push({ dir: call.start, name: "submodules", service: where.service });
  }
  let target: string | undefined;
  if (where.at === "remote-option") {
    const i = call.args.findIndex((a) => a === "--remote" || a.startsWith("--remote="));
    if (i === -1) return;
    target = call.args[i]!.includes("=") ? call.args[i]!.slice("--remote=".length) : call.args[i + 1];
  } else {
    target = firstOperand(call.args);
  }
  if (target === undefined) {
    // `git fetch --all` fetches from every remote; a bare `git fetch` from the default one.
    const all = options.some((o) => /^--(?:all|multiple)$/.test(o));
    if (sub !== "clone") {
      out.remotes.push({ dir: call.start, ...(all ? { name: "*" } : {}), service: where.service });
    }
    return;
  }
  const text = urlHelper(target, where.service);
  if (text !== undefined) out.texts.push(text);
  else if (REMOTE_NAME.test(target) && sub !== "clone") {
    out.remotes.push({ dir: call.start, name: target, service: where.service });
  }
}

/** The first word that is not an option (git's value-taking options of these commands are attached). */
function firstOperand(args: readonly string[]): string | undefined {
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === "--") return args[i + 1];
    if (VALUE_OPTIONS.has(a)) i++;
    else if (!a.startsWith("-")) return a;
  }
  return undefined;
}

/** Options of clone, fetch, pull, push and ls-remote that take the next word as their value. */
const VALUE_OPTIONS = new Set([
  "-o",
  "--origin",
  "-b",
  "--branch",
  "-u",
  "--upload-pack",
  "--receive-pack",
  "--exec",
  "--depth",
  "--reference",
  "--reference-if-able",
  "--separate-git-dir",
  "--template",
  "-c",
  "--config",
  "-j",
  "--jobs",
  "--server-option",
  "--filter",
  "--shallow-since",
  "--shallow-exclude",
  "--deepen",
  "--negotiation-tip",
  "--refmap",
  "--push-option",
  "--repo",
  "--sort",
]);

/** `host:path` operands (scp, rsync): each is reached through the remote shell. */
function remoteShell(
  args: readonly string[],
  out: HelperPrograms,
  /** Its options that take a value (`ssh.ts`); `-S` names the program run instead of ssh. */
  valueLetters: string,
  shell: string,
): void {
  let program = shell;
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === "--") {
      args.slice(i + 1).forEach((op) => addHost(op, program, out));
      return;
    }
    if (a.startsWith("-") && a.length > 1) {
      const letter = a.slice(1).split("").findIndex((c) => valueLetters.includes(c));
      if (letter !== -1) {
        const value = a.length > letter + 2 ? a.slice(letter + 2) : args[++i];
        if (a[letter + 1] === "S" && value !== undefined) program = value;
      }
      continue;
    }
    addHost(a, program, out);
  }
}

/** scp-like `[user@]host:path` (not `host::module`, not a path with a slash before the colon). */
function addHost(word: string, program: string, out: HelperPrograms): void {
  const m = /^(?:scp:\/\/)?(?:[^@/:]*@)?(\[[^\]]*\]|[^:/]+):(?!:)/.exec(word);
  if (m && !/^[a-z][a-z0-9+.-]*:\/\//i.test(word.replace(/^scp:\/\//, ""))) {
    out.texts.push(`${program} ${m[1]!.replace(/^\[|\]$/g, "")}`);
  }
}

/** sftp always runs ssh (`-S` names another program, `-D` a local sftp server instead). */
function sftpHelper(args: readonly string[], out: HelperPrograms): void {
  let program: string | undefined = "ssh";
  let host: string | undefined;
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a.length === 2 && a[0] === "-" && VALUE_LETTERS.sftp!.includes(a[1]!)) {
      const value = args[++i];
      if (a === "-S" && value !== undefined) program = value;
      if (a === "-D") program = undefined;
    } else if (!a.startsWith("-") && host === undefined) host = a.replace(/^sftp:\/\//, "");
  }
  if (program !== undefined && host !== undefined) {
    out.texts.push(`${program} ${host.replace(/^[^@]*@/, "").replace(/[:/].*$/s, "")}`);
  }
}

/** rsync reaches `host:path` through its remote shell: `-e`/`--rsh`, else RSYNC_RSH, else ssh. */
function rsyncHelper(args: readonly string[], env: Record<string, string>, out: HelperPrograms): void {
  let shell = env.RSYNC_RSH ?? "ssh";
  const operands: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    // `-e CMD`, `-eCMD`, `-avze CMD` (a cluster of flags ending in e), `--rsh=CMD`, `--rsh CMD`.
    const rsh = /^--rsh(?:=(.*))?$/s.exec(a) ?? /^-[a-zA-Z]*?e(.+)?$/s.exec(a);
    if (rsh) shell = rsh[1] ?? args[++i] ?? shell;
    else if (!a.startsWith("-")) operands.push(a);
  }
  for (const op of operands) addHost(op, shell, out);
}
