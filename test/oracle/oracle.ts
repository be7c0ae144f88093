/**
 * The execution oracle: decides each input as `toolrt check` does (embedded default policy, the
 * scratch workspace as cwd, run on the host, not sandboxed), runs every auto-allowed one for real in
 * the jail, and compares the trace with the analysis. Shared by the bounded test and bench/oracle.ts.
 */
import { join } from "node:path";
import { analyzeBashSync } from "../../src/bash/analyze.ts";
import type { BashAnalysis } from "../../src/bash/types.ts";
import { decide } from "../../src/policy/decide.ts";
import { loadPolicy } from "../../src/policy/load.ts";
import { buildRequest } from "../../src/policy/request.ts";
import type { Decision } from "../../src/policy/types.ts";
import type { OracleInput } from "./inputs.ts";
import { runInJail, type Scratch } from "./jail.ts";
import { CLASSES, type Discrepancy, type DiscrepancyClass, judge } from "./judge.ts";

export interface Decided {
  input: OracleInput;
  decision: Decision["decision"];
  analysis: BashAnalysis;
}

/**
 * Decides commands for the scratch workspace. The fake home is the home `~` means (the process's
 * own is fixed at start-up, so it is passed to the request) and the one policy files are read from.
 */
export function decider(scratch: Scratch): (input: OracleInput) => Decided {
  const { policy } = loadPolicy({
    cwd: scratch.workspace,
    stateDir: join(scratch.root, "state"),
    env: {
      HOME: scratch.home,
      XDG_CONFIG_HOME: join(scratch.home, ".config"),
      TOOLRT_MANAGED_POLICY: join(scratch.root, "managed"),
    },
  });
  return (input) => {
    const analysis = analyzeBashSync(input.command);
    const request = buildRequest({
      tool: "Bash",
      input: { command: input.command },
      cwd: scratch.workspace,
      mode: "default",
      bash: analysis,
      home: scratch.home,
    });
    return { input, decision: decide(request, policy).decision, analysis };
  };
}

export interface Executed {
  command: string;
  source: OracleInput["source"];
  exitCode: number | null;
  timedOut: boolean;
  discrepancies: Discrepancy[];
}

export interface OracleFigures {
  inputs: number;
  decisions: Record<string, number>;
  autoAllowed: number;
  executed: number;
  timedOut: number;
  /** Commands with at least one discrepancy of the class. */
  discrepancies: Record<DiscrepancyClass, number>;
  commandsWithDiscrepancies: number;
  bySource: Record<
    string,
    { inputs: number; autoAllowed: number; executed: number; withDiscrepancies: number }
  >;
}

export interface OracleOptions {
  scratch: Scratch;
  inputs: OracleInput[];
  /** Picks which auto-allowed commands run (all by default). */
  select?: (allowed: Decided[]) => Decided[];
  jobs?: number;
  timeoutMs?: number;
  onExecuted?: (done: Executed, index: number, total: number) => void;
}

export async function runOracle(
  options: OracleOptions,
): Promise<{ figures: OracleFigures; executed: Executed[] }> {
  const decideOne = decider(options.scratch);
  const decided = options.inputs.map(decideOne);
  const allowed = decided.filter((d) => d.decision === "allow");
  const chosen = options.select ? options.select(allowed) : allowed;
  const executed: Executed[] = new Array(chosen.length);
  let next = 0;
  let finished = 0;
  const worker = async (slot: number) => {
    while (next < chosen.length) {
      const index = next++;
      const one = chosen[index]!;
      const run = await runInJail(options.scratch, one.input.command, slot, options.timeoutMs ?? 10_000);
      executed[index] = {
        command: one.input.command,
        source: one.input.source,
        exitCode: run.exitCode,
        timedOut: run.timedOut,
        discrepancies: judge(one.analysis, run, options.scratch),
      };
      options.onExecuted?.(executed[index], ++finished, chosen.length);
    }
  };
  await Promise.all(Array.from({ length: options.jobs ?? 1 }, (_, slot) => worker(slot)));
  return { figures: figuresOf(decided, executed), executed };
}

function figuresOf(decided: Decided[], executed: Executed[]): OracleFigures {
  const decisions: Record<string, number> = {};
  for (const d of decided) decisions[d.decision] = (decisions[d.decision] ?? 0) + 1;
  const discrepancies = Object.fromEntries(CLASSES.map((c) => [c, 0])) as Record<DiscrepancyClass, number>;
  for (const e of executed) for (const c of new Set(e.discrepancies.map((d) => d.class))) discrepancies[c]++;
  const bySource: OracleFigures["bySource"] = {};
  const source = (
    name: string,
  ) => (bySource[name] ??= { inputs: 0, autoAllowed: 0, executed: 0, withDiscrepancies: 0 });
  for (const d of decided) {
    source(d.input.source).inputs++;
    if (d.decision === "allow") source(d.input.source).autoAllowed++;
  }
  for (const e of executed) {
    source(e.source).executed++;
    if (e.discrepancies.length > 0) source(e.source).withDiscrepancies++;
  }
  return {
    inputs: decided.length,
    decisions,
    autoAllowed: decided.filter((d) => d.decision === "allow").length,
    executed: executed.length,
    timedOut: executed.filter((e) => e.timedOut).length,
    discrepancies,
    commandsWithDiscrepancies: executed.filter((e) => e.discrepancies.length > 0).length,
    bySource,
  };
}
