/**
 * What the oracle runs: the public benign corpus, the adversarial corpus, every spec's own test
 * commands, and variants generated from each spec: every option in several spellings (separate and
 * attached values, abbreviated long names), every value and operand filled with a path inside the
 * workspace, outside it, and a secret. Deterministic: the same specs give the same list.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { CommandSpec, OptionSpec, Role } from "../../src/bash/spec.ts";
import { SPECS } from "../../src/bash/specs/index.ts";

export interface OracleInput {
  command: string;
  source: "benign" | "adversarial" | "spec-test" | "spec-variant";
}

const ROOT = join(import.meta.dir, "../..");

export function corpusInputs(): OracleInput[] {
  const benign = readFileSync(join(ROOT, "fixtures/data/benign-commands.txt"), "utf8").split("\n")
    .filter((l) => l.trim() !== "").map((command) => ({ command, source: "benign" as const }));
  const adversarial = readFileSync(join(ROOT, "fixtures/bash/adversarial.jsonl"), "utf8").split("\n")
    .filter((l) => l !== "").map((l) => ({ command: (JSON.parse(l) as { command: string }).command }))
    .map(({ command }) => ({ command, source: "adversarial" as const }));
  return [...benign, ...adversarial];
}

/** Paths the variants use, relative to the fake home's workspace (the jail's working directory). */
interface VariantPaths {
  inside: string;
  outside: string;
  secret: string;
}

const VARIANT_PATHS: VariantPaths = {
  inside: "README.md",
  outside: "~/notes/todo.txt",
  secret: "~/.aws/credentials",
};

/** Every spec's test commands and generated variants, each once. */
export function specInputs(): OracleInput[] {
  const paths = VARIANT_PATHS;
  const seen = new Set<string>();
  const out: OracleInput[] = [];
  const push = (command: string, source: OracleInput["source"]) => {
    if (seen.has(command)) return;
    seen.add(command);
    out.push({ command, source });
  };
  for (const [name, spec] of Object.entries(SPECS)) {
    for (const { prefix, spec: level, inherited } of levels([name], spec, [])) {
      for (const command of [...(level.tests?.readOnly ?? []), ...(level.tests?.notReadOnly ?? [])]) {
        push(command, "spec-test");
      }
      for (const command of evenly(variants(prefix.join(" "), level, inherited, paths), VARIANTS_PER_LEVEL)) {
        push(command, "spec-variant");
      }
    }
  }
  return out;
}

/**
 * At most this many variants per command or subcommand, spread evenly over its options (git's
 * generated option lists alone would give thousands): every spec is covered, the run stays minutes.
 */
export const VARIANTS_PER_LEVEL = 8;

function evenly<T>(list: T[], most: number): T[] {
  if (list.length <= most) return list;
  return Array.from({ length: most }, (_, i) => list[Math.floor((i * list.length) / most)]!);
}

interface Level {
  prefix: string[];
  spec: CommandSpec;
  inherited: readonly OptionSpec[];
}

function* levels(prefix: string[], spec: CommandSpec, inherited: readonly OptionSpec[]): Generator<Level> {
  yield { prefix, spec, inherited };
  const below = [...inherited, ...(spec.persistent ?? [])];
  for (const [name, sub] of Object.entries(spec.subcommands ?? {})) {
    yield* levels([...prefix, name], sub, below);
  }
}

function variants(
  head: string,
  spec: CommandSpec,
  inherited: readonly OptionSpec[],
  paths: VariantPaths,
): string[] {
  const out: string[] = [head];
  const options = [...(spec.options ?? []), ...(spec.persistent ?? []), ...inherited];
  const longNames = options.flatMap((o) => o.names.filter((n) => n.startsWith("--")).map((n) => n.slice(2)));
  const abbreviable = (spec.long ?? "gnu") === "gnu" || spec.long === "git";
  for (const option of spec.options ?? []) {
    const fills = valueFills(option, paths);
    for (const name of option.names) {
      const spellings = [name];
      if (abbreviable && name.startsWith("--")) {
        const short = uniquePrefix(name.slice(2), longNames);
        if (short !== undefined) spellings.push(`--${short}`);
      }
      for (const spelling of spellings) {
        if ((option.arg ?? "none") === "none") out.push(`${head} ${spelling}`);
        for (const value of fills) {
          const attached = spelling.startsWith("--") ? `${spelling}=${value}` : `${spelling}${value}`;
          if (option.arg === "required" || option.arg === "optional") out.push(`${head} ${attached}`);
          if (option.arg === "required") out.push(`${head} ${spelling} ${value}`);
        }
      }
    }
  }
  for (const path of operandFills(spec, paths)) out.push(`${head} ${path}`);
  return out;
}

/** The values an option is given: paths of every kind when a value is a path, else one plain word. */
function valueFills(option: OptionSpec, paths: VariantPaths): string[] {
  const roles: Role[] = option.values ? [...option.values] : [option.role ?? "plain"];
  if (roles.length > 1) return [roles.map((r) => fillFor(r, paths.inside)).join(" ")];
  return roles[0] === "read" || roles[0] === "write" ? [paths.inside, paths.outside, paths.secret] : ["1"];
}

function fillFor(role: Role, path: string): string {
  return role === "read" || role === "write" ? path : "x";
}

/** Operands: each path kind in the first path slot (or the default "any paths read"). */
function operandFills(spec: CommandSpec, paths: VariantPaths): string[] {
  const slots = spec.operands;
  if (spec.subcommands && !slots) return [];
  const pathSlot = slots === undefined || slots.some((s) => s.role === "read" || s.role === "write");
  if (!pathSlot) return [];
  const before = (slots ?? []).slice(
    0,
    Math.max(0, (slots ?? []).findIndex((s) => s.role === "read" || s.role === "write")),
  )
    .map((s) => s.optional ? undefined : "x").filter((w) => w !== undefined);
  return [paths.inside, paths.outside, paths.secret, "cloud/credentials", "."].map((p) =>
    [...before, p].join(" ")
  );
}

/** The shortest prefix of `name` that no other long name of the spec shares, if shorter than the name. */
function uniquePrefix(name: string, all: readonly string[]): string | undefined {
  for (let n = 1; n < name.length; n++) {
    const prefix = name.slice(0, n);
    if (all.filter((other) => other.startsWith(prefix)).length === 1) return prefix;
  }
  return undefined;
}
