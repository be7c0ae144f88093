/**
 * Where MCP servers come from and which of them may start. Scopes, highest first for a name
 * defined twice: managed, flag (`--mcp-config`), project (`.mcp.json`), user. The managed file
 * may also allow or deny servers and pre-approve project servers; a project server otherwise
 * needs approval once (`toolrt mcp approve`), so a cloned repository cannot start processes unasked.
 */
import { existsSync, readFileSync } from "node:fs";
import { homedir } from "node:os";
import { join, resolve } from "node:path";
import { z } from "zod";
import { McpApprovals } from "./approvals.ts";
import { McpConfigError, type McpServerConfig, parseServersObject } from "./config.ts";
import { normalizeNamePart } from "./definition-tool.ts";
import { errorMessage } from "../tool/errors.ts";
import { FileProblem, type JsonDocument, parseJsonDocument } from "../policy/json-position.ts";

export type McpScope = "managed" | "flag" | "project" | "user" | "plugin";

export interface McpServerEntry {
  name: string;
  scope: McpScope;
  /** The file that defined it. */
  file: string;
  config: McpServerConfig;
  /** Why the server must not start (policy, approval, `disabled`); undefined when it may. */
  disabledReason?: string;
}

/** MCP servers an enabled plugin brings, in `.mcp.json`'s `mcpServers` shape. */
export interface PluginMcpServers {
  file: string;
  mcpServers: Record<string, unknown>;
}

export interface McpConfigFiles {
  managed: string;
  user: string;
  /** The workspace's `.mcp.json`. */
  project: string;
  flag: string[];
}

export interface LoadedMcpConfig {
  servers: McpServerEntry[];
  /** Servers shadowed by a higher scope, and similar things worth telling the user. */
  notes: string[];
}

/** The default file of each scope; `TOOLRT_MANAGED_MCP` moves the managed one (tests, packaging). */
export function defaultMcpConfigFiles(
  cwd: string,
  flag: readonly string[],
  env: NodeJS.ProcessEnv = process.env,
): McpConfigFiles {
  const managedDir = process.platform === "darwin" ? "/Library/Application Support/toolrt" : "/etc/toolrt";
  const configHome = env.XDG_CONFIG_HOME || join(homedir(), ".config");
  return {
    managed: env.TOOLRT_MANAGED_MCP || join(managedDir, "managed-mcp.json"),
    user: join(configHome, "toolrt", "mcp.json"),
    project: join(cwd, ".mcp.json"),
    flag: flag.map((file) => resolve(cwd, file)),
  };
}

const ServerMatcher = z.union([
  z.string().transform((serverName) => ({ serverName })),
  z.strictObject({ serverName: z.string() }),
  z.strictObject({ serverCommand: z.array(z.string()).min(1) }),
  z.strictObject({ serverUrl: z.string() }),
]);
type ServerMatcher = z.output<typeof ServerMatcher>;

const ManagedPolicy = z.object({
  allowedMcpServers: z.array(ServerMatcher).optional(),
  deniedMcpServers: z.array(ServerMatcher).default([]),
  enableAllProjectMcpServers: z.boolean().default(false),
  enabledMcpjsonServers: z.array(z.string()).default([]),
});
type ManagedPolicy = z.output<typeof ManagedPolicy>;

interface ConfigFile {
  servers: Map<string, McpServerConfig>;
  raw: Record<string, unknown>;
}

/**
 * One config file, strict JSON; every problem names file:line:column. An empty file (or only
 * whitespace) is a file with no servers yet, said in `notes`.
 */
function readConfigFile(file: string, required: boolean, notes: string[]): ConfigFile | undefined {
  if (!existsSync(file)) {
    if (required) throw new McpConfigError(`${file}: no such file`);
    return undefined;
  }
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    throw new McpConfigError(`${file}: ${errorMessage(error)}`);
  }
  if (text.trim() === "") {
    notes.push(`${file} is empty: no MCP servers from it (write {"mcpServers": {}} to say so)`);
    return { servers: new Map(), raw: {} };
  }
  const doc = parseStrictJson(file, text);
  const raw = doc.value;
  if (!raw || typeof raw !== "object" || Array.isArray(raw)) {
    throw new McpConfigError(doc.problemAt([], 'expected an object with "mcpServers"').message);
  }
  const record = raw as Record<string, unknown>;
  return { servers: parseServersObject(record.mcpServers, file, doc), raw: record };
}

function parseStrictJson(file: string, text: string): JsonDocument {
  try {
    return parseJsonDocument(file, text);
  } catch (error) {
    if (error instanceof FileProblem) throw new McpConfigError(error.message);
    throw error;
  }
}

function readManagedPolicy(file: ConfigFile | undefined, path: string): ManagedPolicy {
  const parsed = ManagedPolicy.safeParse(file?.raw ?? {});
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  throw new McpConfigError(`${path}: ${issue.path.join(".")}: ${issue.message}`);
}

/** Reads every scope, resolves names defined twice, and decides which servers may start. */
export function loadMcpConfig(
  files: McpConfigFiles,
  options: { workspace: string; stateDir: string; plugins?: readonly PluginMcpServers[] },
): LoadedMcpConfig {
  const notes: string[] = [];
  const managedFile = readConfigFile(files.managed, false, notes);
  const managed = readManagedPolicy(managedFile, files.managed);
  const layers: { scope: McpScope; file: string; config: ConfigFile | undefined }[] = [
    { scope: "managed", file: files.managed, config: managedFile },
    ...files.flag.map((file) => ({
      scope: "flag" as const,
      file,
      config: readConfigFile(file, true, notes),
    })),
    { scope: "project", file: files.project, config: readConfigFile(files.project, false, notes) },
    { scope: "user", file: files.user, config: readConfigFile(files.user, false, notes) },
    // Enabled plugins' servers come last: any configured server of the same name wins.
    ...(options.plugins ?? []).map((p) => ({
      scope: "plugin" as const,
      file: p.file,
      config: { servers: parseServersObject(p.mcpServers, p.file), raw: {} },
    })),
  ];

  const byName = new Map<string, McpServerEntry>();
  const byNormalized = new Map<string, string>();
  for (const { scope, file, config } of layers) {
    for (const [name, server] of config?.servers ?? []) {
      const winner = byName.get(name);
      if (winner) {
        notes.push(`${name} from ${scope} (${file}) is overridden by ${winner.scope} (${winner.file})`);
        continue;
      }
      const entry: McpServerEntry = { name, scope, file, config: server };
      const clash = byNormalized.get(normalizeNamePart(name));
      if (clash !== undefined) {
        entry.disabledReason = `its name collides with server ${clash} once normalised to ` +
          `${normalizeNamePart(name)}; rename one of them`;
      } else {
        byNormalized.set(normalizeNamePart(name), name);
      }
      byName.set(name, entry);
    }
  }

  const approvals = new McpApprovals(options.stateDir);
  const servers = [...byName.values()];
  for (const entry of servers) {
    entry.disabledReason ??= policyReason(entry, managed) ??
      approvalReason(entry, managed, approvals, options.workspace) ??
      (entry.config.disabled ? `disabled in ${entry.file}` : undefined);
  }
  return { servers, notes };
}

function policyReason(entry: McpServerEntry, managed: ManagedPolicy): string | undefined {
  const denied = managed.deniedMcpServers.find((m) => matches(m, entry));
  if (denied) return `denied by managed policy (deniedMcpServers: ${JSON.stringify(denied)})`;
  const allowList = managed.allowedMcpServers;
  if (entry.scope !== "managed" && allowList && !allowList.some((m) => matches(m, entry))) {
    return "not in the managed policy's allowedMcpServers";
  }
  return undefined;
}

function approvalReason(
  entry: McpServerEntry,
  managed: ManagedPolicy,
  approvals: McpApprovals,
  workspace: string,
): string | undefined {
  if (entry.scope !== "project") return undefined;
  if (managed.enableAllProjectMcpServers || managed.enabledMcpjsonServers.includes(entry.name)) {
    return undefined;
  }
  switch (approvals.stateOf(workspace, entry.name, entry.config)) {
    case "approved":
      return undefined;
    case "not-approved":
      return `project server awaiting approval: run \`toolrt mcp approve ${entry.name}\``;
    case "changed":
      return `project server changed since it was approved: run \`toolrt mcp approve ${entry.name}\` again`;
  }
}

function matches(matcher: ServerMatcher, entry: McpServerEntry): boolean {
  const config = entry.config;
  if ("serverName" in matcher) return matcher.serverName === entry.name;
  if ("serverCommand" in matcher) {
    if (config.type !== "stdio") return false;
    const argv = [config.command, ...config.args];
    return argv.length === matcher.serverCommand.length &&
      argv.every((a, i) => a === matcher.serverCommand[i]);
  }
  // Glob semantics: `*` stays within one path segment (it cannot swallow the host), `**` crosses.
  return config.type !== "stdio" && new Bun.Glob(matcher.serverUrl).match(config.url);
}
