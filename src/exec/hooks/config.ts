/** Which configured hooks run for an event and a tool. */
import type { CommandHandler, HookEvent, HooksConfig } from "../../policy/hooks-schema.ts";

export type { CommandHandler, HookEvent, HooksConfig };

export const DEFAULT_HOOK_TIMEOUT_SECONDS = 600;

/**
 * Matcher semantics: empty, `*` or absent match every tool; a matcher made only of name characters
 * is a list of exact names separated by `|` or `,`; anything else is an unanchored regular expression.
 */
function matcherMatches(matcher: string | undefined, toolName: string): boolean {
  if (matcher === undefined || matcher === "" || matcher === "*") return true;
  if (/^[A-Za-z0-9_ ,|-]+$/.test(matcher)) {
    return matcher.split(/[|,]/).map((name) => name.trim()).includes(toolName);
  }
  try {
    return new RegExp(matcher).test(toolName);
  } catch {
    return false;
  }
}

/** The handlers for one event and tool, identical commands run once. */
export function handlersFor(config: HooksConfig, event: HookEvent, toolName: string): CommandHandler[] {
  const seen = new Set<string>();
  const handlers: CommandHandler[] = [];
  for (const group of config[event] ?? []) {
    if (!matcherMatches(group.matcher, toolName)) continue;
    for (const handler of group.hooks) {
      const key = `${handler.command}\0${handler.timeout ?? ""}`;
      if (seen.has(key)) continue;
      seen.add(key);
      handlers.push(handler);
    }
  }
  return handlers;
}
