/**
 * Language server declarations in the shape Claude Code plugins use (`lspServers` in plugin.json or
 * a `.lsp.json` file): `{"<name>": {"command", "args", "extensionToLanguage": {".ts": "typescript"}}}`.
 */
import { z } from "zod";

export const lspServerConfigSchema = z.object({
  command: z.string().min(1),
  args: z.array(z.string()).default([]),
  extensionToLanguage: z.record(
    z.string().regex(/^\.[^\s/\\]+$/, 'an extension starts with a dot, e.g. ".ts"'),
    z.string().min(1),
  ).refine((map) => Object.keys(map).length > 0, "name at least one extension"),
  env: z.record(z.string(), z.string()).optional(),
  initializationOptions: z.unknown().optional(),
  /** Answered to the server's `workspace/configuration` requests. */
  settings: z.unknown().optional(),
  /** Milliseconds to wait for the answer to `initialize`. */
  startupTimeout: z.number().int().positive().optional(),
  restartOnCrash: z.boolean().default(true),
  maxRestarts: z.number().int().min(0).default(3),
});

export const lspServersSchema = z.record(z.string().min(1), lspServerConfigSchema);

export type LspServerConfig = z.infer<typeof lspServerConfigSchema>;

/** A declared server with where it came from, ready to start. */
export interface LspServerSpec {
  name: string;
  /** The plugin that declared it, or `settings`. */
  owner: string;
  config: LspServerConfig;
  /** The plugin directory: a relative `command` is looked up there. */
  root?: string;
}

export const DEFAULT_STARTUP_TIMEOUT_MS = 30_000;
