/**
 * Shorthands for writing specs: each option is its spellings in one string (`"-o --output"`).
 *
 * ```ts
 * options: [...flags("-n --numeric-sort", "-r --reverse"), opt("-o --output", { role: "write" })]
 * ```
 */
import type { OptionSpec, Role } from "../spec.ts";

const split = (spellings: string) => spellings.split(" ");

/** Options that take no value and only change the output. */
export function flags(...spellings: string[]): OptionSpec[] {
  return spellings.map((s) => ({ names: split(s) }));
}

/** Options that take a required, inert value (a number, a pattern, a format). */
export function values(...spellings: string[]): OptionSpec[] {
  return spellings.map((s) => ({ names: split(s), arg: "required" }));
}

/** Options whose inert value may only be attached (`--color=WHEN`, `-n5`). */
export function optionals(...spellings: string[]): OptionSpec[] {
  return spellings.map((s) => ({ names: split(s), arg: "optional" }));
}

/** One option with a value of the given role (or a flag with an effect, when `arg` is "none"). */
export function opt(spellings: string, more: Omit<OptionSpec, "names"> & { role: Role }): OptionSpec {
  return { arg: "required", ...more, names: split(spellings) };
}

/** A flag whose giving makes the command write, run or print secrets. */
export function effect(spellings: string, role: Role, why?: string): OptionSpec {
  return { names: split(spellings), role, ...(why ? { why } : {}) };
}

/** `--help` and `--version`, which every GNU tool has. */
export const HELP_VERSION: OptionSpec[] = flags("--help", "--version");

/** An option as a generator read it from a tool's own help: spellings and arity, no role. */
export interface GeneratedOption {
  names: readonly string[];
  arg: "none" | "required" | "optional";
}

/**
 * Generated options with reviewed roles: `roles` maps any spelling of an option to its role (and
 * why); every option not named there is inert.
 */
export function reviewed(
  list: readonly GeneratedOption[],
  roles: Readonly<Record<string, Omit<OptionSpec, "names">>> = {},
): OptionSpec[] {
  return list.map((o) => {
    const review = o.names.map((n) => roles[n]).find((r) => r !== undefined);
    return { names: o.names, arg: o.arg, ...review };
  });
}

/**
 * Marks the options (any spelling in `names`) that make the `files` operands be read with
 * everything beneath them, hidden files and links included (`grep -r`, `rg --hidden`).
 */
export function recursing(options: OptionSpec[], ...names: string[]): OptionSpec[] {
  return options.map((o) =>
    o.names.some((n) => names.includes(n)) ? { ...o, changes: { ...o.changes, files: "tree" } } : o
  );
}
