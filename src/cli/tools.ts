/** `toolrt tools [--json] [--all] [--mode MODE]`: the assembled pool in the order the model sees it. */
import { styleText } from "node:util";
import type { Command } from "commander";
import { describeTool, type ToolDescription } from "../pool/describe.ts";
import { globalsOf } from "./globals.ts";
import { openDefaultSession } from "./runtime.ts";

export function register(program: Command): void {
  program
    .command("tools")
    .description("list the tools a model would get, in order")
    .option("--json", "machine-readable output")
    .option("--all", "include deferred tools")
    .action(async (opts: { json?: boolean; all?: boolean }, command: Command) => {
      const globals = globalsOf(command);
      const { pool, close } = await openDefaultSession(globals, "cli");
      await close();
      const listed = pool.current.tools.map((tool) =>
        describeTool(tool, pool.current.deferral.get(tool.name)!)
      ).filter((t) => opts.all || !t.deferred);
      if (opts.json) {
        console.log(JSON.stringify(listed, null, 2));
        return;
      }
      for (const line of humanLines(listed, globals.color)) console.log(line);
      for (const h of pool.current.hidden) console.log(`hidden: ${h.name} (${h.reason})`);
      for (const c of pool.current.clashes) {
        console.log(`clash: ${c.name} from ${c.dropped.kind} dropped; ${c.kept.kind} keeps the name`);
      }
    });
}

function humanLines(tools: ToolDescription[], color: boolean): string[] {
  const width = Math.max(0, ...tools.map((t) => t.name.length));
  return tools.map((t) => {
    const flags = [
      t.readOnly ? "read-only" : "",
      t.concurrencySafe ? "parallel" : "",
      t.origin === "builtin" ? "" : t.server ? `${t.origin}:${t.server}` : t.origin,
      t.deferred ? `deferred: ${t.deferReason}` : alwaysLoaded(t) ? `always loaded: ${t.deferReason}` : "",
    ].filter(Boolean).join(", ");
    const name = color ? styleText("bold", t.name.padEnd(width)) : t.name.padEnd(width);
    const summary = t.description.split("\n")[0] ?? "";
    return `${name}  ${summary}${flags ? `  [${flags}]` : ""}`;
  });
}

/** Loaded on turn one by a setting or its own mark, where it would otherwise wait behind ToolSearch. */
function alwaysLoaded(t: ToolDescription): boolean {
  return t.alwaysLoad || t.deferReason.startsWith("settings alwaysLoad");
}
