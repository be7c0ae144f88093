/**
 * The facts object `when` conditions read (documented in policy/README.md):
 *
 * ```
 * { tool, input, cwd, additionalDirs, mode, home, readOnly,
 *   agent:   { depth, type },                       // type null for the main agent
 *   path:    "/abs/file" | null, paths: [...],       // the path being judged, and all of the call's
 *   command: { name, argv, prefix, text, workLoss: [ids] } | null,  // Bash: the sub-command judged
 *   bash:    { checks: [ids], catastrophic: [ids], workLoss: [ids], parse, readOnly, prefix } | null }
 * ```
 * Built lazily: a policy without `when` never pays for it.
 */
import type { CommandTarget } from "./decide.ts";
import type { DecisionRequest } from "./types.ts";

export interface CallFacts {
  call(): Record<string, unknown>;
  forCommand(index: number): Record<string, unknown>;
  forPath(index: number): Record<string, unknown>;
}

export function factsOf(request: DecisionRequest, home: string, commands: CommandTarget[]): CallFacts {
  let base: Record<string, unknown> | undefined;
  const call = () =>
    base ??= {
      tool: request.tool,
      input: request.input,
      cwd: request.cwd,
      additionalDirs: request.additionalDirs,
      mode: request.mode,
      home,
      readOnly: request.readOnly,
      agent: { depth: request.agent.depth, type: request.agent.type ?? null },
      path: request.paths[0]?.path ?? null,
      paths: request.paths.map((p) => p.path),
      command: null,
      bash: request.bash
        ? {
          checks: request.bash.checks.map((c) => c.id),
          catastrophic: request.bash.catastrophic.map((c) => c.id),
          workLoss: [...new Set(request.bash.workLoss.map((w) => w.id))],
          parse: request.bash.parse,
          readOnly: request.bash.readOnly,
          prefix: request.bash.prefix,
        }
        : null,
    };
  return {
    call,
    forCommand: (index) => {
      const command = commands[index]!;
      const single = commands.length === 1 ? request.bash?.prefix : undefined;
      return {
        ...call(),
        command: {
          name: command.argv[0] ?? "",
          argv: command.argv,
          prefix: single ?? commandPrefix(command.argv),
          text: command.text,
          workLoss: command.workLoss,
        },
      };
    },
    forPath: (index) => ({ ...call(), path: request.paths[index]!.path }),
  };
}

/** A sub-command's prefix: its name and, when the next word looks like a subcommand, that word. */
function commandPrefix(argv: string[]): string {
  const [name = "", next] = argv;
  return next !== undefined && /^[a-z][a-z0-9_-]*$/.test(next) ? `${name} ${next}` : name;
}
