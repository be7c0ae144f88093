/** `toolrt render [FILE|-]`: a transcript (Claude Code stream-json, Codex JSONL, toolrt's own) for people. */
import { readFileSync } from "node:fs";
import type { Command } from "commander";
import { loadBashParser } from "../bash/parser.ts";
import { getAllBaseTools } from "../pool/base-tools.ts";
import { parseTranscript } from "../remote/parse.ts";
import { renderTranscript } from "../render/transcript.ts";
import { UsageError } from "./errors.ts";
import { globalsOf } from "./globals.ts";

export function register(program: Command): void {
  program
    .command("render")
    .description("render a transcript (Claude Code stream-json, Codex exec --json, or toolrt's own)")
    .argument("[file]", "the JSONL transcript, or - for stdin", "-")
    .option("--verbose", "show whole results instead of their first lines")
    .action(async (file: string, opts: { verbose?: boolean }, command: Command) => {
      const globals = globalsOf(command);
      await loadBashParser(); // shell commands are classified and their exit codes read by the analyzer
      const transcript = parseTranscript(readInput(file));
      const text = renderTranscript(transcript, {
        tools: getAllBaseTools(),
        color: globals.color,
        verbose: opts.verbose === true,
        columns: process.stdout.columns || 100,
      });
      if (text) console.log(text);
    });
}

function readInput(file: string): string {
  try {
    return readFileSync(file === "-" ? 0 : file, "utf8");
  } catch (error) {
    throw new UsageError(`cannot read ${file === "-" ? "stdin" : file}: ${(error as Error).message}`);
  }
}
