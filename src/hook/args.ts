/**
 * The hook's own command line, read without the rest of the CLI so a hook call starts fast:
 * `hook`, `hook --host H` or `hook --host=H`. Anything else goes through the full command line.
 */
import { type HostName, HOSTS } from "./types.ts";

/** `toolrt hook --resident-helper`: the resident helper a hook call starts (resident/). */
export const HELPER_ARGV = ["hook", "--resident-helper"] as const;

export function fastHookHost(argv: readonly string[]): HostName | undefined {
  if (argv[0] !== "hook") return undefined;
  const rest = argv.slice(1);
  if (rest.length === 0) return "claude-code";
  const host = rest.length === 1 && rest[0]!.startsWith("--host=")
    ? rest[0]!.slice("--host=".length)
    : rest.length === 2 && rest[0] === "--host"
    ? rest[1]
    : undefined;
  return (HOSTS as readonly string[]).includes(host ?? "") ? host as HostName : undefined;
}

export function isHelperCommand(argv: readonly string[]): boolean {
  return argv.length === HELPER_ARGV.length && HELPER_ARGV.every((word, i) => argv[i] === word);
}
