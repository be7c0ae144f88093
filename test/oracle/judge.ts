/**
 * Compares what an auto-allowed command did (its trace and output) with what toolrt claimed about
 * it: read-only, inside the workspace, running only the programs the analysis names, no secrets.
 */
import { basename } from "node:path";
import type { BashAnalysis } from "../../src/bash/types.ts";
import { covered, EXECS, NETWORK, type PathAllowance, READS, WRITES } from "./allowances.ts";
import { CANARY, type RunResult, type Scratch } from "./jail.ts";
import { parseTrace } from "./trace.ts";

export const CLASSES = ["write", "exec", "outside-read", "secret-read", "secret-output", "network"] as const;
export type DiscrepancyClass = (typeof CLASSES)[number];

export interface Discrepancy {
  class: DiscrepancyClass;
  detail: string;
}

/**
 * The programs the analysis says the command runs: every simple command's argv[0], and the command
 * a wrapper runs (`timeout 5 ls` runs ls: the first word of the rule text, wrappers stripped).
 */
export function namedPrograms(analysis: BashAnalysis): Set<string> {
  const words = analysis.commands.flatMap((c) => [c.argv[0] ?? "", c.ruleText.split(" ")[0] ?? ""]);
  return new Set(words.map((w) => basename(w)).filter((n) => n !== ""));
}

export function judge(analysis: BashAnalysis, run: RunResult, scratch: Scratch): Discrepancy[] {
  const named = namedPrograms(analysis);
  const found = new Map<string, Discrepancy>();
  const add = (cls: DiscrepancyClass, detail: string) =>
    found.set(`${cls} ${detail}`, { class: cls, detail });
  const forNamed = (list: readonly PathAllowance[]) =>
    list.filter((a) => a.commands === undefined || a.commands.some((c) => named.has(c))).flatMap((a) =>
      a.paths
    );
  const readsAllowed = forNamed(READS);
  const writesAllowed = forNamed(WRITES);
  const connecting = NETWORK.filter((a) => a.commands.some((c) => named.has(c)));
  const connects = (family: string) => connecting.some((a) => !a.localOnly || family === "AF_UNIX");
  const inWorkspace = (path: string) =>
    path === scratch.workspace || path.startsWith(`${scratch.workspace}/`);
  // The first program is the `bash -c` the jail runs the command with.
  let shellSeen = false;
  for (const event of parseTrace(run.trace)) {
    switch (event.kind) {
      case "exec": {
        if (!shellSeen) {
          shellSeen = true;
          continue;
        }
        const program = basename(event.path);
        if (!named.has(program) && !execAllowed(program, named)) {
          add("exec", `${event.path} (${event.argv.join(" ")})`);
        }
        break;
      }
      case "read":
        if (isSecret(event.path, scratch)) add("secret-read", event.path);
        else if (
          !inWorkspace(event.path) && !covered(event.path, readsAllowed, scratch.home, scratch.workspace)
        ) {
          add("outside-read", event.path);
        }
        break;
      case "write":
        if (!covered(event.path, writesAllowed, scratch.home, scratch.workspace)) {
          add("write", `${event.call} ${event.path}`);
        }
        break;
      case "connect":
        if (connects(event.family)) break;
        if (event.family === "AF_INET" || event.family === "AF_INET6") add("network", event.address);
        else if (event.family === "AF_UNIX" && !event.address.includes('"/var/run/nscd/socket"')) {
          add("network", event.address);
        }
        break;
    }
  }
  if (run.stdout.includes(CANARY) || run.stderr.includes(CANARY)) add("secret-output", canaryLine(run));
  return [...found.values()];
}

function execAllowed(program: string, named: Set<string>): boolean {
  return EXECS.some((a) =>
    named.has(a.command) &&
    a.programs.some((p) => p.endsWith("*") ? program.startsWith(p.slice(0, -1)) : program === p)
  );
}

/**
 * The dummy secrets and anything under their directories. (Processes' environments hold secrets
 * too, but `ps` reads them for every listing; printing them is caught as `secret-output`.)
 */
function isSecret(path: string, scratch: Scratch): boolean {
  return scratch.secrets.some((secret) => path === secret) ||
    [".ssh", ".aws", ".config/gh"].some((dir) => path.startsWith(`${scratch.home}/${dir}/`));
}

function canaryLine(run: RunResult): string {
  const line = `${run.stdout}\n${run.stderr}`.split("\n").find((l) => l.includes(CANARY)) ?? "";
  return line.slice(0, 160);
}
