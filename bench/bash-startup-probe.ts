/**
 * Start-up probe for bench/bash.ts, run in a fresh process (from source or compiled): prints the
 * time of the first analysis, or with `split` the WASM runtime init and grammar load separately.
 */
import { Language, Parser } from "web-tree-sitter";
import runtimeWasm from "web-tree-sitter/web-tree-sitter.wasm" with { type: "file" };
import bashWasm from "tree-sitter-bash/tree-sitter-bash.wasm" with { type: "file" };
import { analyzeBash } from "../src/bash/analyze.ts";

const t0 = performance.now();
if (process.argv[2] === "split") {
  await Parser.init({ wasmBinary: await Bun.file(runtimeWasm).bytes() });
  const t1 = performance.now();
  await Language.load(await Bun.file(bashWasm).bytes());
  console.log(JSON.stringify({ init: t1 - t0, language: performance.now() - t1 }));
} else {
  await analyzeBash(process.argv[2] ?? "echo $(id)");
  console.log(JSON.stringify({ first: performance.now() - t0 }));
}
