/**
 * The hook's own command line, read without the rest of the CLI so a hook call starts fast:
 * `hook`, then any of `--host H` (or `--host=H`) and `--sandbox`, each at most once. Anything else
 * goes through the full command line.
 */
import { type HookInvocation, HOSTS } from "./types.ts";

/** `toolrt hook --resident-helper`: the resident helper a hook call starts (resident/). */
export const HELPER_ARGV = ["hook", "--resident-helper"] as const;

export function fastHookInvocation(argv: readonly string[]): HookInvocation | undefined {
  if (argv[0] !== "hook") return undefined;
  let host: string | undefined;
  let sandbox = false;
  for (let i = 1; i < argv.length; i++) {
    const word = argv[i]!;
    if (word === "--sandbox" && !sandbox) sandbox = true;
    else if (word.startsWith("--host=") && host === undefined) host = word.slice("--host=".length);
    else if (word === "--host" && host === undefined && i + 1 < argv.length) host = argv[++i];
    else return undefined;
  }
  host ??= "claude-code";
  return (HOSTS as readonly string[]).includes(host)
    ? { host: host as HookInvocation["host"], sandbox }
    : undefined;
}

export function isHelperCommand(argv: readonly string[]): boolean {
  return argv.length === HELPER_ARGV.length && HELPER_ARGV.every((word, i) => argv[i] === word);
}
