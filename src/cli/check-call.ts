/**
 * The permission decision for one call, as `toolrt check` and `toolrt hook` make it: the same
 * `buildRequest` + `decide` as real execution. Kept apart from the rest of the CLI so a hook call
 * loads only the policy engine (the built-in tools are loaded only for non-Bash calls).
 */
import { analyzeBashSync } from "../bash/analyze.ts";
import { loadBashParser } from "../bash/parser.ts";
import type { BashAnalysis } from "../bash/types.ts";
import { decide } from "../policy/decide.ts";
import type { Policy } from "../policy/policy.ts";
import { buildRequest, factsFromTool } from "../policy/request.ts";
import type { Decision, ToolFacts } from "../policy/types.ts";
import type { ExecutionPlace } from "../exec/processes/sandbox-context.ts";
import { createToolContext } from "../tool/context.ts";
import { type GlobalOptions, permissionModeOf } from "./options.ts";

export interface CheckDeps {
  /** The Bash analyzer; without one a command is judged as one sub-command with no checks. */
  analyzeBash?: (command: string) => BashAnalysis;
}

/** The real analyzer. Its parser loads once per process (`withBashParser`), so analysis is synchronous. */
export const analyzerDeps: CheckDeps = { analyzeBash: analyzeBashSync };

/** Loads the Bash parser before synchronous analysis; a failed load leaves the fail-closed fallback. */
export async function withBashParser(): Promise<void> {
  await loadBashParser();
}

/** The decision for one call, with the facts the tool itself gives when it is a known built-in. */
export async function checkCall(
  tool: string,
  input: unknown,
  policy: Policy,
  globals: GlobalOptions,
  deps: CheckDeps,
  placeOf?: (command: string) => ExecutionPlace,
): Promise<Decision> {
  if (tool === "Bash") {
    return decideBash((input as { command: string }).command, policy, globals, deps, placeOf);
  }
  const call = { tool, input, cwd: globals.cwd, mode: permissionModeOf(globals.mode) };
  return decide(buildRequest(call, await builtinFacts(tool, input, globals)), policy);
}

/**
 * The decision for a Bash command. `placeOf` says where it will run (`toolrt check --sandboxed`,
 * `toolrt hook --sandbox`); without it the command runs on the host.
 */
export function decideBash(
  command: string,
  policy: Policy,
  globals: GlobalOptions,
  deps: CheckDeps,
  placeOf?: (command: string) => ExecutionPlace,
): Decision {
  const bash = deps.analyzeBash?.(command);
  const mode = permissionModeOf(globals.mode);
  const place = placeOf?.(command);
  const request = buildRequest({
    tool: "Bash",
    input: { command },
    cwd: globals.cwd,
    ...(globals.shellDir === undefined ? {} : { dir: globals.shellDir }),
    mode,
    ...(bash ? { bash } : {}),
  });
  const decision = decide(place?.sandboxed ? { ...request, sandbox: place.context } : request, policy);
  if (place && !place.sandboxed) {
    // Asked where it runs: the host. Said so, also to telemetry (`toolrt.sandboxed` false).
    decision.sandbox ??= { sandboxed: false, autoAllowed: false, notAutoAllowed: place.why, needsPerson: [] };
    decision.warnings.push(`not sandboxed: ${place.why}`);
  }
  return decision;
}

async function builtinFacts(name: string, input: unknown, globals: GlobalOptions): Promise<ToolFacts> {
  // Loaded on first use: a Bash check (every hook call for a shell command) never needs the tools.
  const { getAllBaseTools } = await import("../pool/base-tools.ts");
  const tool = getAllBaseTools().find((t) => t.name === name || t.aliases.includes(name));
  if (!tool) return {};
  const ctx = createToolContext({
    cwd: globals.cwd,
    stateDir: globals.stateDir,
    mode: permissionModeOf(globals.mode),
    invokedBy: "cli",
  });
  return factsFromTool(tool, input, ctx);
}
