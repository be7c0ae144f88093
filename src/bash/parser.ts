/**
 * Loads tree-sitter (WASM) and the bash grammar once per process. Both WASM files are imported as
 * file assets, so they are embedded in the compiled binary and read from there.
 */
import { Language, Parser } from "web-tree-sitter";
import runtimeWasm from "web-tree-sitter/web-tree-sitter.wasm" with { type: "file" };
import bashWasm from "tree-sitter-bash/tree-sitter-bash.wasm" with { type: "file" };

let loading: Promise<Parser | null> | undefined;
let loaded: Parser | null | undefined;
let loadError: string | undefined;

/**
 * Resolves to the bash parser, or null when it cannot be loaded (the analyzer then falls back to a
 * tokenizer whose results can only ever ask). Safe to call many times; loads once.
 */
export function loadBashParser(): Promise<Parser | null> {
  loading ??= load().then((parser) => (loaded = parser));
  return loading;
}

/** The parser if `loadBashParser` already finished, else undefined (not loaded yet) or null (failed). */
export function loadedBashParser(): Parser | null | undefined {
  return loaded;
}

/** Why loading failed, for `toolrt analyze` and logs. */
export function bashParserLoadError(): string | undefined {
  return loadError;
}

async function load(): Promise<Parser | null> {
  try {
    const wasmBinary = await Bun.file(runtimeWasm).bytes();
    await Parser.init({ wasmBinary });
    const language = await Language.load(await Bun.file(bashWasm).bytes());
    const parser = new Parser();
    parser.setLanguage(language);
    return parser;
  } catch (error) {
    loadError = error instanceof Error ? error.message : String(error);
    return null;
  }
}
