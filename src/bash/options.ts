/** Splits a command's arguments into options and operands, honouring `--` and clustered flags. */

export interface OptionSpec {
  /** Short options that take a value (`-n 5`, `-n5`). */
  short?: string;
  /** Long options that take a value (`--output FILE`, `--output=FILE`), without the dashes. */
  long?: readonly string[];
  /** Options are only recognised before the first operand (tar-style positional commands do not). */
  optionsFirst?: boolean;
}

export interface Option {
  /** `-x` or `--name` */
  name: string;
  value?: string;
}

export interface ParsedArgs {
  options: Option[];
  operands: string[];
}

/** Parses `args` (the words after the command name). */
export function parseArgs(args: readonly string[], spec: OptionSpec = {}): ParsedArgs {
  const options: Option[] = [];
  const operands: string[] = [];
  const short = spec.short ?? "";
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === "--") {
      operands.push(...args.slice(i + 1));
      break;
    }
    if (arg === "-" || !arg.startsWith("-") || (spec.optionsFirst && operands.length > 0)) {
      operands.push(arg);
      continue;
    }
    if (arg.startsWith("--")) {
      const eq = arg.indexOf("=");
      const name = eq === -1 ? arg : arg.slice(0, eq);
      if (eq !== -1) options.push({ name, value: arg.slice(eq + 1) });
      else if (spec.long?.includes(name.slice(2)) && i + 1 < args.length) {
        options.push({ name, value: args[++i]! });
      } else options.push({ name });
      continue;
    }
    for (let j = 1; j < arg.length; j++) {
      const letter = arg[j]!;
      if (short.includes(letter)) {
        const rest = arg.slice(j + 1);
        const value = rest !== "" ? rest : args[++i];
        options.push(value === undefined ? { name: `-${letter}` } : { name: `-${letter}`, value });
        break;
      }
      options.push({ name: `-${letter}` });
    }
  }
  return { options, operands };
}

/** Does the parse hold one of these options (`-f`, `--force`)? */
export function hasOption(parsed: ParsedArgs, ...names: string[]): boolean {
  return parsed.options.some((o) => names.includes(o.name));
}

/** Values given to one of these options. */
export function optionValues(parsed: ParsedArgs, ...names: string[]): string[] {
  return parsed.options.filter((o) => names.includes(o.name) && o.value !== undefined).map((o) => o.value!);
}
