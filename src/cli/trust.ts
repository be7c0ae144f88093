/** `toolrt trust [--revoke] [DIR]`: lets (or stops letting) a workspace's own allow rules apply. */
import { statSync } from "node:fs";
import { resolve } from "node:path";
import type { Command } from "commander";
import { setTrust, trustFile } from "../policy/trust.ts";
import { UsageError } from "./errors.ts";
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
      // Revoking works for a directory that is gone; trusting needs one that is there.
      if (!opts.revoke) checkDirectory(workspace);
      const changed = setTrust(globals.stateDir, workspace, opts.revoke === true);
      const state = opts.revoke
        ? `${workspace} is not trusted${changed ? " any more" : ""}: its allow rules are ignored`
        : `${workspace} is trusted${changed ? "" : " already"}: its project and local allow rules apply`;
      console.log(`${state} (recorded in ${trustFile(globals.stateDir)})`);
    });
}

function checkDirectory(workspace: string): void {
  let isDirectory: boolean;
  try {
    isDirectory = statSync(workspace).isDirectory();
  } catch {
    throw new UsageError(
      `cannot trust ${workspace}: no such directory; give the workspace directory to trust`,
    );
  }
  if (!isDirectory) {
    throw new UsageError(
      `cannot trust ${workspace}: it is a file, not a directory; give the workspace directory`,
    );
  }
}
