/**
 * The programs `toolrt sandbox` keeps its command from starting (`sandbox/program-masks.ts`): those
 * `--mask-program` names, as given (`toolrt hook --sandbox` passes its rules' programs so, already
 * without those its line names), and, unless `--policy-rules off`, those the bare-program deny and
 * ask rules of the policy name (policy files, `--policy`, `--deny`/`--ask`), minus each program the
 * command line itself names, which the person running it approved. The policy is loaded, and the
 * line analysed, only when a source of such rules exists (the embedded default has none): a plain
 * run reads no policy.
 */
import { existsSync } from "node:fs";
import { resolve } from "node:path";
import type { LoadOptions } from "../policy/load.ts";
import {
  grantsFile,
  localPolicyFile,
  managedPolicyFiles,
  projectPolicyFile,
  userPolicyFile,
} from "../policy/policy-files.ts";
import type { ProgramMask } from "../sandbox/program-masks.ts";
import { shellQuote } from "../tool/shell-quote.ts";
import { UsageError } from "./errors.ts";

export interface MaskSources {
  /** `--mask-program NAME[=WHY]` values. */
  given: readonly string[];
  /** `--policy-rules`: "on" (default) or "off". */
  policyRules?: string;
  /** Where the policy is read from, as the other commands read it. */
  load: LoadOptions;
}

/** A program name as `--mask-program` takes it: a file name, no path. */
const NAME = /^[^\s/=]+$/;

/** The masks for running `argv`; throws UsageError for a bad flag, Error for a broken policy. */
export async function sandboxMasks(argv: readonly string[], sources: MaskSources): Promise<ProgramMask[]> {
  if (sources.policyRules !== undefined && !["on", "off"].includes(sources.policyRules)) {
    throw new UsageError(`toolrt sandbox: --policy-rules ${sources.policyRules}: expected on or off`);
  }
  const masks = sources.given.map(parseGiven);
  const fromPolicy = sources.policyRules !== "off" && mayHoldRules(sources.load)
    ? await policyMasks(sources.load)
    : [];
  if (fromPolicy.length > 0) masks.push(...await withoutNamed(fromPolicy, argv));
  return masks.filter((m, i) => masks.findIndex((n) => n.program === m.program) === i);
}

/** `masks` without the programs the command line names (as the analyzer reads it). */
async function withoutNamed(masks: ProgramMask[], argv: readonly string[]): Promise<ProgramMask[]> {
  const { analyzeBash } = await import("../bash/analyze.ts");
  const { masksForLine, namedPrograms } = await import("../policy/program-rules.ts");
  return masksForLine(masks, namedPrograms((await analyzeBash(argv.map(shellQuote).join(" "))).commands));
}

function parseGiven(value: string): ProgramMask {
  const at = value.indexOf("=");
  const program = at < 0 ? value : value.slice(0, at);
  if (!NAME.test(program)) {
    throw new UsageError(
      `toolrt sandbox: --mask-program ${value}: expected a program name (curl, or curl=why), not a path`,
    );
  }
  return { program, why: at < 0 ? "--mask-program" : value.slice(at + 1) };
}

/** Whether any source besides the embedded default could hold a rule. Looks at the disk only. */
function mayHoldRules(load: LoadOptions): boolean {
  const env = load.env ?? process.env;
  const cwd = resolve(load.cwd);
  if (load.cliRules?.deny?.length || load.cliRules?.ask?.length) return true;
  if (load.flagFiles?.length || load.claudeSettings) return true;
  if (managedPolicyFiles(env, load.platform ?? process.platform).length > 0) return true;
  const files = [
    userPolicyFile(env),
    projectPolicyFile(cwd),
    localPolicyFile(cwd),
    grantsFile(load.stateDir, cwd),
  ];
  return files.some((file) => existsSync(file));
}

async function policyMasks(load: LoadOptions): Promise<ProgramMask[]> {
  const { loadPolicy } = await import("../policy/load.ts");
  const { programMasks } = await import("../policy/program-rules.ts");
  const { policy, errors, managedErrors } = loadPolicy(load);
  const broken = [...managedErrors, ...errors][0];
  if (broken) {
    throw new Error(
      `the policy could not be read (${broken.message}), so the programs its rules name cannot be ` +
        "kept from running: fix it (see toolrt policy validate) or pass --policy-rules off",
    );
  }
  return programMasks(policy.rules);
}
