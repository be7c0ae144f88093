/**
 * Tools that run shell commands. Policy judges each of them as `Bash` — the same rules, the same
 * analysis — so a second way to run a command is never a way around a Bash rule.
 */

export const SHELL_TOOLS: ReadonlySet<string> = new Set(["Bash", "ExecCommand"]);

/** The shell command a call runs, or undefined when the tool runs none. */
export function shellCommandOf(toolName: string, input: unknown): string | undefined {
  if (!SHELL_TOOLS.has(toolName) || typeof input !== "object" || input === null) return undefined;
  const record = input as { command?: unknown; cmd?: unknown };
  const command = toolName === "Bash" ? record.command : record.cmd;
  return typeof command === "string" ? command : undefined;
}
