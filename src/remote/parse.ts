/** Reads a transcript file of any supported format: one JSON object per line. */
import { fromClaudeCode } from "./claude-code.ts";
import { fromCodex } from "./codex.ts";
import { systemNote, type Transcript } from "./transcript.ts";

const CODEX_EVENT = /^(thread|turn|item)\./;

export function parseTranscript(text: string): Transcript {
  const lines: unknown[] = [];
  const problems: string[] = [];
  text.split(/\r?\n/).forEach((line, index) => {
    if (!line.trim()) return;
    try {
      lines.push(JSON.parse(line));
    } catch {
      problems.push(`line ${index + 1} is not JSON and was skipped`);
    }
  });
  const isCodex = lines.some((l) => CODEX_EVENT.test(String((l as { type?: unknown })?.type ?? "")));
  const transcript = isCodex ? fromCodex(lines) : fromClaudeCode(lines);
  transcript.messages.push(...problems.map(systemNote));
  return transcript;
}
