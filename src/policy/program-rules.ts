/**
 * Deny and ask rules that name a bare program (`Bash(curl:*)`, `Bash(curl)`, `Bash(rm *)`), as the
 * programs the sandbox keeps from running (`sandbox/program-masks.ts`), minus those the approved
 * command line names itself. Subcommand rules (`Bash(git push:*)`) are not among them: masking git
 * would block all of git. Rules with a `when` condition hold only sometimes, so they are not
 * either. Pure.
 */
import type { SimpleCommand } from "../bash/types.ts";
import type { ProgramMask } from "../sandbox/program-masks.ts";
import type { CompiledRule } from "./compile-rule.ts";

/** A program name as a bare rule pattern writes it: a word with no wildcard or quoting. */
const PROGRAM = /^[^\s*?[\]'"\\$`]+$/;

/** The program each bare-program deny or ask rule for Bash names, the first rule per program. */
export function programMasks(rules: readonly CompiledRule[]): ProgramMask[] {
  const found = new Map<string, ProgramMask>();
  // Deny rules first: the stub names the strongest rule.
  const strict = [
    ...rules.filter((r) => r.meta.effect === "deny"),
    ...rules.filter((r) => r.meta.effect === "ask"),
  ];
  for (const rule of strict) {
    const program = bareProgram(rule);
    if (program === undefined || found.has(program)) continue;
    const { effect, rule: text, source, file } = rule.meta;
    found.set(program, { program, why: `the ${effect} rule ${text} (${source}: ${file})` });
  }
  return [...found.values()];
}

/** The program a Bash rule names when its pattern is that program alone, with or without arguments. */
export function bareProgram(rule: CompiledRule): string | undefined {
  if (rule.scope !== "command" || !rule.command || rule.when !== undefined) return undefined;
  if (!rule.coversTool("Bash")) return undefined;
  const [body, ...rest] = rule.command.globs;
  if (body === undefined || (rest.length > 0 && rest[0] !== `${body} *`)) return undefined;
  if (!PROGRAM.test(body)) return undefined;
  const name = body.slice(body.lastIndexOf("/") + 1);
  return name === "" ? undefined : name;
}

/**
 * The programs a command line names itself, as the analysis reads it: each command's program,
 * the program its rule text starts with (`timeout 5 curl x` names timeout and curl), and the
 * helpers it runs (`git fetch h:x` runs ssh: approved, it keeps ssh).
 */
export function namedPrograms(
  commands: readonly Pick<SimpleCommand, "argv" | "ruleText" | "helpers">[],
): Set<string> {
  const names = new Set<string>();
  const add = (word: string | undefined) => {
    if (word) names.add(word.slice(word.lastIndexOf("/") + 1));
  };
  for (const command of commands) {
    add(command.argv[0]);
    add(command.ruleText.split(" ")[0]);
    for (const helper of command.helpers ?? []) add(helper.split(" ")[0]);
  }
  return names;
}

/** The masks a run keeps: every one but the programs its approved line names. */
export function masksForLine(masks: readonly ProgramMask[], named: ReadonlySet<string>): ProgramMask[] {
  return masks.filter((m) => !named.has(m.program));
}
