/**
 * Which model a subagent runs on: the call's `model`, else its definition's, else the parent's.
 * Aliases name the current model of a family; ANTHROPIC_DEFAULT_<FAMILY>_MODEL overrides one
 * (gateways often serve other ids).
 */
const ALIASES: Record<string, string> = {
  sonnet: "claude-sonnet-5-5",
  opus: "claude-opus-5-5",
  haiku: "claude-haiku-5-5",
};

export function resolveModel(
  requested: string | undefined,
  fromDefinition: string | undefined,
  parent: string,
  env: NodeJS.ProcessEnv = process.env,
): string {
  const chosen = requested ?? fromDefinition;
  if (!chosen || chosen === "inherit") return parent;
  const alias = ALIASES[chosen];
  if (!alias) return chosen;
  return env[`ANTHROPIC_DEFAULT_${chosen.toUpperCase()}_MODEL`] || alias;
}
