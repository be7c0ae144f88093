/**
 * `toolrt analyze [--json] [--batch FILE|-] [--batch-format json-lines] '<command>'`: the Bash
 * analyzer alone, no policy. Batch mode writes exactly one JSON object per input line.
 */
import { readFileSync } from "node:fs";
import { styleText } from "node:util";
import { type Command, Option } from "commander";
import { analyzeBashSync } from "../bash/analyze.ts";
import { loadBashParser } from "../bash/parser.ts";
import type { BashAnalysis } from "../bash/types.ts";
import { UsageError } from "./errors.ts";
import { globalsOf } from "./globals.ts";
import { shellQuote } from "../tool/shell-quote.ts";

interface AnalyzeOptions {
  json?: boolean;
  batch?: string;
  batchFormat: "lines" | "json-lines";
}

export function register(program: Command): void {
  program
    .command("analyze")
    .description("analyze a Bash command: structure, security checks, paths, read-only, rule prefix")
    .argument("[command]", "the Bash command (quote it)")
    .option("--json", "machine-readable output")
    .option("--batch <file>", "analyze one command per line of FILE ('-' for standard input)")
    .addOption(
      new Option("--batch-format <format>", "how batch lines are written")
        .choices(["lines", "json-lines"])
        .default("lines"),
    )
    .action(async (commandText: string | undefined, opts: AnalyzeOptions, command: Command) => {
      await loadBashParser();
      if (opts.batch !== undefined) {
        if (commandText !== undefined) {
          throw new UsageError("give either --batch FILE or a command, not both");
        }
        const input = opts.batch === "-" ? await Bun.stdin.text() : readBatchFile(opts.batch);
        process.stdout.write(analyzeBatch(input, opts.batchFormat));
        return;
      }
      if (commandText === undefined) throw new UsageError("missing the command to analyze (or --batch FILE)");
      const analysis = analyzeBashSync(commandText);
      if (opts.json) console.log(JSON.stringify(analysis, null, 2));
      else console.log(humanLines(analysis, globalsOf(command).color).join("\n"));
    });
}

function readBatchFile(path: string): string {
  try {
    return readFileSync(path, "utf8");
  } catch (error) {
    throw new UsageError(
      `cannot read --batch file ${path}: ${(error as NodeJS.ErrnoException).code ?? error}`,
    );
  }
}

/** One JSON line per input line, in order; a line that cannot be analyzed gets `{line, error}`. */
function analyzeBatch(input: string, format: AnalyzeOptions["batchFormat"]): string {
  const lines = input.split("\n");
  if (lines.at(-1) === "") lines.pop();
  let out = "";
  lines.forEach((line, index) => {
    out += JSON.stringify(analyzeLine(line.replace(/\r$/, ""), index + 1, format)) + "\n";
  });
  return out;
}

function analyzeLine(line: string, number: number, format: AnalyzeOptions["batchFormat"]): object {
  let command = line;
  if (format === "json-lines") {
    let parsed: unknown;
    try {
      parsed = JSON.parse(line);
    } catch (error) {
      return { line: number, error: `not a JSON string literal: ${(error as Error).message}` };
    }
    if (typeof parsed !== "string") return { line: number, error: "expected a JSON string literal" };
    command = parsed;
  }
  try {
    return analyzeBashSync(command);
  } catch (error) {
    return { line: number, command, error: `analysis failed: ${(error as Error).message}` };
  }
}

function humanLines(a: BashAnalysis, color: boolean): string[] {
  const bold = (text: string) => (color ? styleText("bold", text) : text);
  const lines = [`${bold("parse")}: ${a.parse}${a.readOnly ? " (read-only)" : ""}, ${a.classification}`];
  for (const c of a.commands) {
    const env = Object.entries(c.env).map(([k, v]) => `${k}=${v} `).join("");
    const redirects = c.redirects.map((r) => ` ${r.op} ${r.target}`).join("");
    const notes = [
      c.readOnly ? "read-only" : "",
      c.via ? `via ${c.via}` : "",
      c.prefix ? `prefix: ${c.prefix}` : "",
    ]
      .filter(Boolean);
    lines.push(
      `  ${env}${c.argv.map(shellQuote).join(" ")}${redirects}${
        notes.length ? `  [${notes.join(", ")}]` : ""
      }`,
    );
    for (const reason of c.noAutoAllow) lines.push(`    no prefix rule can allow this: ${reason}`);
    if (c.hasUnsafeEnv) {
      lines.push("    no prefix rule can allow this: it sets environment variables that change behaviour");
    }
  }
  for (const c of a.catastrophic) lines.push(`${bold("catastrophic")} (${c.id}): ${c.reason}`);
  for (const c of a.checks) lines.push(`${bold("check")} ${c.id} ${c.name}: ${c.message}`);
  for (const reason of a.askReasons) lines.push(`${bold("always asks")}: ${reason}`);
  for (const w of a.warnings) lines.push(`${bold("warning")}: ${w}`);
  for (const p of a.paths) lines.push(`${bold(p.access)}: ${p.path} (${p.command})`);
  if (a.suggestions.length > 0) lines.push(`${bold("suggested rules")}: ${a.suggestions.join(" ")}`);
  return lines;
}
