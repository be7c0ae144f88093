/**
 * The execution oracle's full run: every input (benign corpus, adversarial corpus, spec tests and
 * variants) decided as `toolrt check` decides it; every auto-allowed one run for real in a bwrap
 * jail under strace and compared with its analysis (test/oracle/). Prints one JSON line of figures;
 * `--out FILE` also writes the figures with the executed commands and their discrepancies.
 *
 *   bun bench/oracle.ts [--out FILE] [--jobs N] [--timeout MS]
 */
import "./support/isolated-home.ts";
import { rmSync, writeFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { corpusInputs, type OracleInput, specInputs } from "../test/oracle/inputs.ts";
import { makeScratch, unavailable } from "../test/oracle/jail.ts";
import { runOracle } from "../test/oracle/oracle.ts";
import { loadBashParser } from "../src/bash/parser.ts";

const { values } = parseArgs({
  options: {
    out: { type: "string" },
    jobs: { type: "string", default: "2" },
    timeout: { type: "string", default: "10000" },
  },
});

const missing = unavailable();
if (missing) {
  console.log(JSON.stringify({ bench: "oracle", skipped: missing }));
  process.exit(0);
}

await loadBashParser();
const seen = new Set<string>();
const inputs: OracleInput[] = [...corpusInputs(), ...specInputs()].filter((i) =>
  !seen.has(i.command) && seen.add(i.command)
);
const scratch = makeScratch();
const started = Date.now();
try {
  const { figures, executed } = await runOracle({
    scratch,
    inputs,
    jobs: Number(values.jobs),
    timeoutMs: Number(values.timeout),
    onExecuted: (done, i, total) => {
      if (done.discrepancies.length > 0 || i % 100 === 0) {
        console.error(
          `[${i}/${total}] ${done.command}: ${done.discrepancies.map((d) => d.class).join(", ") || "ok"}`,
        );
      }
    },
  });
  const seconds = Math.round((Date.now() - started) / 1000);
  console.log(JSON.stringify({ bench: "oracle", ...figures, seconds }));
  if (values.out) {
    const commands = executed.map((e) => ({
      command: e.command,
      source: e.source,
      exitCode: e.exitCode,
      ...(e.timedOut ? { timedOut: true } : {}),
      ...(e.discrepancies.length > 0 ? { discrepancies: e.discrepancies } : {}),
    }));
    writeFileSync(values.out, `${JSON.stringify({ figures, seconds, commands }, null, 2)}\n`);
  }
} finally {
  rmSync(scratch.root, { recursive: true, force: true });
}
