/** A sandboxed workspace, home, state dir and managed dir for policy tests. */
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { analyzeBash } from "../../src/bash/analyze.ts";
import { analyzerDeps, checkCall } from "../../src/cli/check-call.ts";
import { globalsFrom } from "../../src/cli/options.ts";
import type { ExecutionPlace } from "../../src/exec/processes/sandbox-context.ts";
import type { BashAnalysis, SimpleCommand } from "../../src/bash/types.ts";
import { decide } from "../../src/policy/decide.ts";
import { type LoadOptions, loadPolicy, type LoadResult } from "../../src/policy/load.ts";
import { buildRequest, type CallDescription } from "../../src/policy/request.ts";
import type { Decision, ToolFacts } from "../../src/policy/types.ts";

export interface Sandbox {
  root: string;
  cwd: string;
  home: string;
  stateDir: string;
  managedDir: string;
  env: Record<string, string>;
  write(path: string, content: unknown): string;
  load(options?: Partial<LoadOptions>): LoadResult;
}

export function sandbox(): Sandbox {
  const root = mkdtempSync(join(tmpdir(), "toolrt-policy-"));
  const dirs = {
    cwd: join(root, "work"),
    home: join(root, "home"),
    stateDir: join(root, "state"),
    managedDir: join(root, "managed"),
  };
  for (const dir of Object.values(dirs)) mkdirSync(dir, { recursive: true });
  const env = {
    HOME: dirs.home,
    XDG_CONFIG_HOME: join(dirs.home, ".config"),
    TOOLRT_MANAGED_POLICY: dirs.managedDir,
  };
  return {
    root,
    ...dirs,
    env,
    write(path, content) {
      const file = path.startsWith("/") ? path : join(root, path);
      mkdirSync(dirname(file), { recursive: true });
      writeFileSync(file, typeof content === "string" ? content : JSON.stringify(content, null, 2));
      return file;
    },
    load(options = {}) {
      return loadPolicy({ cwd: dirs.cwd, stateDir: dirs.stateDir, env, ...options });
    },
  };
}

/** A policy file with the given rules. */
export function rules(...list: Record<string, unknown>[]): { rules: Record<string, unknown>[] } {
  return { rules: list };
}

export function decideIn(
  box: Sandbox,
  loaded: LoadResult,
  call: Omit<CallDescription, "cwd"> & { cwd?: string },
  facts: ToolFacts = {},
): Decision {
  const request = buildRequest({ cwd: box.cwd, home: box.home, ...call }, facts);
  return decide(request, loaded.policy);
}

/**
 * The decision on a Bash command, analyzed by the real parser (load it first), under the box's
 * policy plus `cliRules`; `sandboxed` runs it in a sandbox confining writes to the workspace,
 * network off.
 */
export async function bashDecision(
  box: Sandbox,
  command: string,
  options: { sandboxed: boolean; cliRules?: Record<string, string[]> },
): Promise<Decision> {
  const request = buildRequest({
    tool: "Bash",
    input: { command },
    cwd: box.cwd,
    home: box.home,
    bash: await analyzeBash(command),
  });
  const context = { writable: [box.cwd], allowNet: [], asksForHosts: false, denyRead: [] };
  const loaded = box.load(options.cliRules ? { cliRules: options.cliRules } : {});
  return decide(options.sandboxed ? { ...request, sandbox: context } : request, loaded.policy);
}

/**
 * The decision `toolrt check` gives a Bash command run from `cwd` (the box's workspace unless
 * given), under the box's policy plus `cliRules`; `sandboxed` places it in a sandbox confining
 * writes to `cwd`, network off.
 */
export async function checkedBash(
  box: Sandbox,
  command: string,
  options: { sandboxed: boolean; cliRules?: Record<string, string[]>; cwd?: string },
): Promise<Decision> {
  const cwd = options.cwd ?? box.cwd;
  const policy = box.load({ cwd, cliRules: options.cliRules ?? {} }).policy;
  const globals = { ...globalsFrom({ cwd, stateDir: box.stateDir }), color: false };
  const place: ExecutionPlace = {
    sandboxed: true,
    context: { writable: [cwd], allowNet: [], asksForHosts: false, denyRead: [] },
  };
  return options.sandboxed
    ? await checkCall("Bash", { command }, policy, globals, analyzerDeps, () => place)
    : await checkCall("Bash", { command }, policy, globals, analyzerDeps);
}

export function bashCall(command: string, analysis?: BashAnalysis): Omit<CallDescription, "cwd"> {
  return { tool: "Bash", input: { command }, ...(analysis ? { bash: analysis } : {}) };
}

/** A hand-written analyzer result: `commands` as rule texts, everything else simple and clean. */
export function analysis(
  command: string,
  commands: (string | Partial<SimpleCommand> & { ruleText: string })[],
  extra: Partial<BashAnalysis> = {},
): BashAnalysis {
  return {
    command,
    parse: "simple",
    commands: commands.map((c) => {
      const one = typeof c === "string" ? { ruleText: c } : c;
      return {
        argv: one.ruleText.split(" "),
        env: {},
        redirects: [],
        hasUnsafeEnv: false,
        noAutoAllow: [],
        readOnly: false,
        prefix: null,
        ...one,
      };
    }),
    checks: [],
    readOnly: false,
    classification: "other",
    warnings: [],
    prefix: null,
    suggestions: [],
    paths: [],
    catastrophic: [],
    workLoss: [],
    askReasons: [],
    opaque: [],
    defines: [],
    ...extra,
  };
}

export function writeIn(dir: string, file: string, content: unknown): string {
  const path = join(dir, file);
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, typeof content === "string" ? content : JSON.stringify(content, null, 2));
  return path;
}

/** Runs the real CLI in the sandbox (its workspace, state dir and environment). */
export function runToolrt(
  box: Sandbox,
  args: string[],
  stdin?: string,
): { code: number; out: string; err: string } {
  const main = join(import.meta.dir, "../../src/cli/main.ts");
  const result = Bun.spawnSync([
    process.execPath,
    main,
    "--cwd",
    box.cwd,
    "--state-dir",
    box.stateDir,
    ...args,
  ], {
    env: { ...process.env, ...box.env, NO_COLOR: "1" },
    ...(stdin !== undefined ? { stdin: Buffer.from(stdin) } : {}),
  });
  return { code: result.exitCode, out: result.stdout.toString(), err: result.stderr.toString() };
}
