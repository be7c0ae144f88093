/**
 * The LSP tool's costs, with TypeScript's own language server (`tsc --lsp`) on a copy of
 * fixtures/lsp-project:
 * - lsp.server_start: spawn + initialize, a fresh server each run (what the first LSP use pays);
 * - lsp.edit_diagnostics: an Edit through the pipeline without and with the diagnostics enricher,
 *   the difference being the latency diagnostics injection adds to each edit (warm server).
 */
import "./support/isolated-home.ts";
import { cpSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, join } from "node:path";
import type { ResultEnricher } from "../src/exec/pipeline.ts";
import { createSession } from "../src/exec/session.ts";
import { lspServerConfigSchema } from "../src/lsp/config.ts";
import { LspManager } from "../src/lsp/manager.ts";
import { getAllBaseTools } from "../src/pool/base-tools.ts";
import { ToolPool } from "../src/pool/tool-pool.ts";
import { createDiagnosticsEnricher } from "../src/tools/lsp/diagnostics-enricher.ts";
import { report, round, summarize, timeRuns } from "./support/lib.ts";
import { toolOnlyPolicy } from "../test/helpers/tool-only-policy.ts";

const STARTS = 5;
const EDITS = 20;

const root = mkdtempSync(join(tmpdir(), "toolrt-bench-lsp-"));
const cwd = join(root, "ws");
cpSync(join(import.meta.dir, "../fixtures/lsp-project"), cwd, { recursive: true });
const env = {
  ...process.env,
  PATH: [join(import.meta.dir, "../node_modules/.bin"), process.env.PATH].join(delimiter),
};
const spec = {
  name: "typescript",
  owner: "bench",
  config: lspServerConfigSchema.parse({
    command: "tsc",
    args: ["--lsp", "--stdio"],
    extensionToLanguage: { ".ts": "typescript" },
  }),
};
const file = join(cwd, "src/main.ts");

const starts: number[] = [];
for (let i = 0; i < STARTS; i++) {
  const fresh = new LspManager({ rootDir: cwd, env }, [spec]);
  const started = Bun.nanoseconds();
  await fresh.serverFor(file)!.server.connection();
  starts.push((Bun.nanoseconds() - started) / 1e6);
  await fresh.stopAll();
}
const start = summarize(starts);
report("lsp.server_start", { median_ms: round(start.median, 1), min_ms: round(start.min, 1), n: start.n });

const manager = new LspManager({ rootDir: cwd, env }, [spec]);
async function editTimes(enrichers: ResultEnricher[]): Promise<number[]> {
  const pool = new ToolPool(getAllBaseTools(), { mode: "default", denyRules: [] });
  const session = createSession({
    pool,
    policy: toolOnlyPolicy,
    cwd,
    stateDir: join(root, "state"),
    mode: "acceptEdits",
    invokedBy: "cli",
    audit: false,
    enrichers,
  });
  await session.execute({ id: "read", name: "Read", input: { file_path: file } });
  let i = 0;
  // Alternates between two texts so every edit changes the file; the first two warm up.
  return timeRuns(EDITS, async () => {
    const [from, to] = i++ % 2 ? ["add(3, 3)", "add(2, 2)"] : ["add(2, 2)", "add(3, 3)"];
    const outcome = await session.execute({
      id: `e${i}`,
      name: "Edit",
      input: { file_path: file, old_string: from, new_string: to },
    }, { ask: async () => ({ behavior: "allow-once" }) });
    if (outcome.isError) throw new Error(JSON.stringify(outcome.content));
  }, 2);
}
const plain = summarize(await editTimes([]));
const enriched = summarize(await editTimes([createDiagnosticsEnricher(manager)]));
report("lsp.edit_diagnostics", {
  edit_median_ms: round(plain.median, 2),
  edit_with_diagnostics_median_ms: round(enriched.median, 2),
  added_median_ms: round(enriched.median - plain.median, 2),
  n: enriched.n,
});
await manager.stopAll();
rmSync(root, { recursive: true, force: true });
