/**
 * Hook configuration in Claude Code's shape, as policy files carry it:
 * `{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "...", "timeout": 600}]}]}}`
 */
import { z } from "zod";

export const HOOK_EVENTS = ["PreToolUse", "PostToolUse", "PostToolUseFailure"] as const;
export type HookEvent = (typeof HOOK_EVENTS)[number];

const commandHandler = z.object({
  type: z.literal("command"),
  command: z.string().min(1),
  /** Seconds; Claude Code's default is 600. */
  timeout: z.number().positive().optional(),
  statusMessage: z.string().optional(),
});

const matcherGroup = z.object({
  matcher: z.string().optional(),
  hooks: z.array(commandHandler),
});

export const hooksConfigSchema = z.partialRecord(z.enum(HOOK_EVENTS), z.array(matcherGroup));

export type HooksConfig = z.infer<typeof hooksConfigSchema>;
export type CommandHandler = z.infer<typeof commandHandler>;

/** Several configs as one: each event's matcher groups, config after config. */
export function mergeHooks(configs: Iterable<HooksConfig | undefined>): HooksConfig {
  const merged: HooksConfig = {};
  for (const config of configs) {
    for (const [event, groups] of Object.entries(config ?? {}) as [HookEvent, HooksConfig[HookEvent]][]) {
      merged[event] = [...(merged[event] ?? []), ...(groups ?? [])];
    }
  }
  return merged;
}
