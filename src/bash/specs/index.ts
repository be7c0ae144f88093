/**
 * Every command spec, by command name. A command without a spec is never read-only; one with a
 * spec is read-only only when every word matches it with read-only roles.
 */
import type { CommandSpec, SpecFamily } from "../spec.ts";
import { BUILTINS } from "./builtins.ts";
import { DEV } from "./dev.ts";
import { FILES } from "./files.ts";
import { GIT } from "./git.ts";
import { PACKAGES } from "./packages.ts";
import { SEARCH } from "./search.ts";
import { SYSTEM } from "./system.ts";
import { TEXT } from "./text.ts";
import { TOOLS } from "./tools.ts";

/** The families, named for reports and tests. */
export const FAMILIES: Readonly<Record<string, SpecFamily>> = {
  builtins: BUILTINS,
  dev: DEV,
  files: FILES,
  git: GIT,
  packages: PACKAGES,
  search: SEARCH,
  system: SYSTEM,
  text: TEXT,
  tools: TOOLS,
};

export const SPECS: Readonly<Record<string, CommandSpec>> = Object.assign({}, ...Object.values(FAMILIES));

export function specFor(name: string): CommandSpec | undefined {
  return Object.hasOwn(SPECS, name) ? SPECS[name] : undefined;
}
