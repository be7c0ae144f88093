/**
 * Stable prefixes for rule suggestions: `git commit -m x` → `git commit`, `npm run build` →
 * `npm run`. Shells and wrappers never yield one (`Bash(bash:*)` would allow everything), nor do
 * commands whose second word is a flag or a path.
 */
import type { SimpleCommand } from "./types.ts";

/** Commands that must never become the head of a prefix rule. */
const NEVER_PREFIX = new Set(
  ("sh bash zsh dash ksh mksh ash fish csh tcsh env sudo doas su xargs parallel eval exec nohup timeout time nice " +
    "stdbuf command builtin noglob watch setsid ionice flock chrt taskset source . python python2 python3 node " +
    "perl ruby php lua deno bun npx bunx uvx pipx ssh awk gawk find sed")
    .split(" "),
);
/** Commands whose operands are files or text, never subcommands. */
const NO_SUBCOMMANDS = new Set(
  ("cd ls cat head tail less more wc stat file tree du rm rmdir mkdir touch cp mv ln chmod chown chgrp tee grep egrep " +
    "fgrep rg echo printf diff cmp sort uniq cut tr jq dd truncate shred kill pkill killall open xdg-open which")
    .split(" "),
);
const SUBCOMMAND = /^[a-z][a-z0-9]*(?:[-:][a-z0-9]+)*$/;

/** The two-word prefix of a command's rule text, or null when none is safe to suggest. */
export function commandPrefix(ruleText: string): string | null {
  const [first, second] = ruleText.split(" ");
  if (!first || !second || NEVER_PREFIX.has(first) || NO_SUBCOMMANDS.has(first) || first.includes("/")) {
    return null;
  }
  return SUBCOMMAND.test(second) ? `${first} ${second}` : null;
}

const MAX_SUGGESTIONS = 5;

/**
 * Rules that would allow these commands next time: a prefix rule where one is safe, else the
 * exact command. None for commands that need no rule (read-only) or that no rule could allow.
 */
export function suggestRules(commands: SimpleCommand[]): string[] {
  const out = new Set<string>();
  for (const c of commands) {
    if (c.readOnly || c.hasUnsafeEnv || c.noAutoAllow.length > 0 || c.ruleText === "") continue;
    const head = c.ruleText.split(" ")[0]!;
    if (NEVER_PREFIX.has(head)) continue;
    out.add(c.prefix ? `Bash(${c.prefix}:*)` : `Bash(${c.ruleText})`);
  }
  return [...out].slice(0, MAX_SUGGESTIONS);
}
