/**
 * The program text an awk command line runs: its first operand, or gawk's `-e`/`--source` parts
 * (long names by any abbreviation, as getopt_long takes them); none after `-f FILE`. What the
 * program does is judged by the awk checker of the command specs (`spec-values.ts`).
 *
 * ```ts
 * awkPrograms(["--sou", "BEGIN{print 1}", "f"]); // ["BEGIN{print 1}"]
 * awkPrograms(["-F,", "{print $2}", "data.csv"]); // ["{print $2}"]
 * ```
 */

/** `--sou` is `--source`: any prefix of at least `shortest` letters. */
const abbreviates = (arg: string, full: string, shortest: number) =>
  arg.length >= shortest + 2 && `--${full}`.startsWith(arg);

export function awkPrograms(args: readonly string[]): string[] {
  const programs: string[] = [];
  let programFile = false;
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    const eq = a.startsWith("--") ? a.indexOf("=") : -1;
    const [name, value] = eq === -1 ? [a, undefined] : [a.slice(0, eq), a.slice(eq + 1)];
    if (a === "--" || !a.startsWith("-") || a === "-") {
      const operand = a === "--" ? args[i + 1] : a;
      return programs.length === 0 && !programFile && operand !== undefined ? [operand] : programs;
    }
    if (name === "-e" || abbreviates(name, "source", 2)) programs.push(value ?? args[++i] ?? "");
    else if (name === "-f" || abbreviates(name, "file", 2)) {
      programFile = true;
      if (value === undefined) i++;
    } else if (
      /^-[Fv]$/.test(a) || abbreviates(name, "field-separator", 2) || abbreviates(name, "assign", 1)
    ) {
      if (value === undefined) i++;
    }
  }
  return programs;
}
