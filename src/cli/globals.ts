/** The global options as commander parses them; their meaning and defaults live in options.ts. */
import { type Command, Option } from "commander";
import { type GlobalOptions, globalsFrom, PERMISSION_MODES, POOL_ONLY_MODES } from "./options.ts";

const collect = (value: string, previous: string[] = []) => [...previous, value];

export function addGlobalOptions(program: Command): Command {
  return program
    .option("--cwd <dir>", "workspace root (default: current directory)")
    .option(
      "--state-dir <dir>",
      "persisted results, audit log, grants (default: $TOOLRT_HOME or ~/.local/state/toolrt)",
    )
    .option("--policy <file>", "policy file (repeatable; the 'flag' source)", collect)
    .option("--allow <rule>", "allow rule (repeatable; the 'cli' source)", collect)
    .option("--ask <rule>", "ask rule (repeatable; the 'cli' source)", collect)
    .option("--deny <rule>", "deny rule (repeatable; the 'cli' source)", collect)
    .addOption(
      new Option("--mode <mode>", "permission mode, or a pool mode (simple, coordinator)")
        .choices([...PERMISSION_MODES, ...POOL_ONLY_MODES]).default("default"),
    )
    .option("--no-color", "plain output without ANSI colour")
    .option("--mcp-config <file>", "MCP servers in .mcp.json shape (repeatable)", collect)
    .option("--claude-settings", "also read permission rules from Claude Code's settings files")
    .option("--debug", "show stack traces on errors");
}

/** Reads the global options as seen from any subcommand. */
export function globalsOf(command: Command): GlobalOptions {
  return globalsFrom(command.optsWithGlobals());
}
