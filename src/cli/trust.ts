/** `toolrt trust [--revoke] [DIR]`: lets (or stops letting) a workspace's own allow rules apply. */
import { resolve } from "node:path";
import type { Command } from "commander";
import { setTrust, trustFile } from "../policy/trust.ts";
import { globalsOf } from "./globals.ts";

export function register(program: Command): void {
  program
    .command("trust")
    .description(
      "trust a workspace: allow rules of its .toolrt and .claude files apply (deny and ask always do)",
    )
    .argument("[dir]", "workspace to trust (default: --cwd)")
    .option("--revoke", "stop trusting it")
    .action((dir: string | undefined, opts: { revoke?: boolean }, command: Command) => {
      const globals = globalsOf(command);
      const workspace = resolve(globals.cwd, dir ?? ".");
      const changed = setTrust(globals.stateDir, workspace, opts.revoke === true);
      const state = opts.revoke
        ? `${workspace} is not trusted${changed ? " any more" : ""}: its allow rules are ignored`
        : `${workspace} is trusted${changed ? "" : " already"}: its project and local allow rules apply`;
      console.log(`${state} (recorded in ${trustFile(globals.stateDir)})`);
    });
}
