/**
 * A hook test workspace: a temp project whose Claude Code settings deny force-pushes and edits
 * under secrets/, with its own home, state dir and managed dir, and the hook run inside it.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { AuditEvent } from "../../src/audit/log.ts";
import { analyzeBash } from "../../src/bash/analyze.ts";
import { globalsFrom } from "../../src/cli/options.ts";
import { runHook } from "../../src/hook/run.ts";
import type { HostName } from "../../src/hook/types.ts";

export const CLAUDE_DENY = ["Bash(git push --force:*)", "Edit(./secrets/**)"];

export interface HookWorkspace {
  cwd: string;
  home: string;
  env: Record<string, string>;
  audit: AuditEvent[];
  /** Runs the hook on this stdin text; `$CWD` in it stands for the workspace. */
  run(host: HostName, stdin: string, options?: { sandbox?: boolean }): Promise<string>;
}

export function hookWorkspace(): HookWorkspace {
  const root = mkdtempSync(join(tmpdir(), "toolrt-hook-"));
  const cwd = join(root, "work");
  const home = join(root, "home");
  const stateDir = join(root, "state");
  for (const dir of [cwd, home, stateDir, join(root, "managed"), join(cwd, ".claude")]) {
    mkdirSync(dir, { recursive: true });
  }
  writeFileSync(
    join(cwd, ".claude", "settings.json"),
    JSON.stringify({ permissions: { deny: CLAUDE_DENY } }),
  );
  const env = {
    HOME: home,
    XDG_CONFIG_HOME: join(home, ".config"),
    CLAUDE_CONFIG_DIR: join(home, ".claude"),
    TOOLRT_MANAGED_POLICY: join(root, "managed"),
  };
  const audit: AuditEvent[] = [];
  return {
    cwd,
    home,
    env,
    audit,
    run: (host, stdin, options = {}) =>
      runHook(
        stdin.replaceAll("$CWD", cwd),
        { host, sandbox: options.sandbox === true },
        globalsFrom({ cwd: home, stateDir }),
        { analyzeBash, audit: (event) => audit.push(event), env, self: ["/opt/toolrt/bin/toolrt"] },
      ),
  };
}
