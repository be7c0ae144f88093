/**
 * The search engine used when `rg` is on PATH. It runs with flags that give the built-in engine's
 * walk rules (hidden files searched, `.git` skipped, `.gitignore` honoured inside or outside a git
 * repository, no global or `.ignore` files) and reads `--json` events into the shared hits.
 */
import { stat } from "node:fs/promises";
import { basename, dirname, resolve } from "node:path";
import { ToolError } from "../shared/errors.ts";
import { unknownType } from "./builtin-engine.ts";
import { FILE_TYPES } from "./file-types.ts";
import {
  addHit,
  type LineHit,
  MAX_MATCH_LINES,
  type SearchRequest,
  type SearchResult,
  sortedHits,
} from "./search.ts";

/** `target` is what rg searches, relative to the directory it runs in. */
function ripgrepArgs(request: SearchRequest, target: string): string[] {
  if (request.type !== undefined && !FILE_TYPES[request.type]) throw unknownType(request.type);
  const args = [
    "--json",
    "--no-config",
    "--hidden",
    "--no-require-git",
    "--no-ignore-global",
    "--no-ignore-exclude",
    "--no-ignore-dot",
    "--glob",
    "!.git",
  ];
  if (request.caseInsensitive) args.push("--ignore-case");
  if (request.multiline) args.push("--multiline", "--multiline-dotall");
  if (request.before > 0) args.push("--before-context", String(request.before));
  if (request.after > 0) args.push("--after-context", String(request.after));
  if (request.glob !== undefined) args.push("--glob", request.glob);
  if (request.type !== undefined) args.push("--type", request.type);
  args.push("--regexp", request.pattern, "--", target);
  return args;
}

export async function searchRipgrep(request: SearchRequest, rgPath = "rg"): Promise<SearchResult> {
  // rg matches a --glob containing `/` against paths relative to its working directory, so it runs
  // in the root (or beside a file root) and its paths are resolved back.
  const rootIsFile = (await stat(request.root)).isFile();
  const cwd = rootIsFile ? dirname(request.root) : request.root;
  const child = Bun.spawn([rgPath, ...ripgrepArgs(request, rootIsFile ? basename(request.root) : ".")], {
    cwd,
    stdout: "pipe",
    stderr: "pipe",
    stdin: "ignore",
    signal: request.signal,
  });
  const stderr = new Response(child.stderr).text();
  const perFile = new Map<string, Map<number, LineHit>>();
  let matchLines = 0;
  let capped = false;
  for await (const line of readLines(child.stdout)) {
    matchLines += addEvent(perFile, line, cwd);
    if (matchLines >= MAX_MATCH_LINES) {
      capped = true;
      child.kill();
      break;
    }
  }
  const exitCode = await child.exited;
  // Exit 1 is "no match"; exit 2 with hits means some files could not be read, which rg reports
  // and the search survives.
  if (!capped && exitCode === 2 && perFile.size === 0) {
    const message = (await stderr).trim().split("\n").slice(0, 6).join("\n");
    throw new ToolError(`Search failed: ${message}`);
  }
  request.signal?.throwIfAborted();
  const files = new Map([...perFile].map(([path, hits]) => [path, sortedHits(hits)]));
  return { files, capped };
}

interface RgText {
  text?: string;
}

interface RgEvent {
  type: string;
  data: {
    path?: RgText;
    lines?: RgText;
    line_number?: number;
    submatches?: { match: RgText; start: number }[];
  };
}

/** Adds one JSON event's lines to the hits; returns how many matching lines it added. */
function addEvent(perFile: Map<string, Map<number, LineHit>>, json: string, cwd: string): number {
  const event = JSON.parse(json) as RgEvent;
  if (event.type !== "match" && event.type !== "context") return 0;
  const { path, lines, line_number: first, submatches = [] } = event.data;
  // Paths and lines that are not valid UTF-8 come as base64 `bytes`; they are skipped.
  if (path?.text === undefined || lines?.text === undefined || first === undefined) return 0;
  const file = resolve(cwd, path.text);
  const hits = perFile.get(file) ?? new Map<number, LineHit>();
  perFile.set(file, hits);
  const texts = lines.text.replace(/\n$/, "").split("\n");
  const match = event.type === "match";
  texts.forEach((text, i) => addHit(hits, first + i, text.replace(/\r$/, ""), match));
  for (const sub of submatches) {
    const line = first + countNewlines(lines.text.slice(0, sub.start));
    if (sub.match.text) addHit(hits, line, hits.get(line)!.text, true, sub.match.text);
  }
  return match ? texts.length : 0;
}

function countNewlines(text: string): number {
  return text.split("\n").length - 1;
}

async function* readLines(stream: ReadableStream<Uint8Array>): AsyncGenerator<string> {
  const decoder = new TextDecoder();
  let buffered = "";
  for await (const chunk of stream) {
    buffered += decoder.decode(chunk, { stream: true });
    let newline: number;
    while ((newline = buffered.indexOf("\n")) !== -1) {
      const line = buffered.slice(0, newline);
      buffered = buffered.slice(newline + 1);
      if (line) yield line;
    }
  }
  if (buffered) yield buffered;
}
