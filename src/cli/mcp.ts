/**
 * `toolrt mcp list|login|logout|approve`: configured MCP servers, their state, OAuth logins, and
 * approvals of project servers.
 */
import { createInterface } from "node:readline";
import type { Command } from "commander";
import { McpApprovals } from "../mcp/approvals.ts";
import { describeServerConfig, expandServerConfig, McpConfigError } from "../mcp/config.ts";
import { defaultMcpConfigFiles, loadMcpConfig, type PluginMcpServers } from "../mcp/config-sources.ts";
import type { McpManager, McpServerStatus } from "../mcp/manager.ts";
import { loginToServer } from "../mcp/oauth/login.ts";
import { OAuthStore } from "../mcp/oauth/store.ts";
import { createMcpManager } from "../mcp/setup.ts";
import { ConfigError, UsageError } from "./errors.ts";
import { globalsOf } from "./globals.ts";
import { type GlobalOptions } from "./options.ts";

/** The workspace's MCP manager; a broken config file is a ConfigError (exit 2). */
export function openMcp(globals: GlobalOptions, plugins: readonly PluginMcpServers[] = []): McpManager {
  const { manager, notes } = asConfigError(() =>
    createMcpManager({
      cwd: globals.cwd,
      stateDir: globals.stateDir,
      configFiles: globals.mcpConfig,
      plugins,
    })
  );
  for (const note of notes) process.stderr.write(`toolrt: ${note}\n`);
  return manager;
}

export function register(program: Command): void {
  const mcp = program.command("mcp").description("configured MCP servers");

  mcp.command("list")
    .description(
      "connect to each configured server and show its state, tool count, and why a failed one failed",
    )
    .option("--json", "machine-readable output")
    .action(async (opts: { json?: boolean }, command: Command) => {
      const manager = openMcp(globalsOf(command));
      const statuses = await manager.connectAll();
      await manager.close();
      if (opts.json) console.log(JSON.stringify(statuses, null, 2));
      else for (const line of humanLines(statuses)) console.log(line);
    });

  mcp.command("login")
    .description(
      "log in to a remote MCP server with OAuth (authorization code with PKCE); tokens go to the state dir",
    )
    .argument("<name>", "a configured http or sse server")
    .option("--port <port>", "the port of the redirect listener on 127.0.0.1 (default: any free port)", "0")
    .action(async (name: string, opts: { port: string }, command: Command) => {
      const globals = globalsOf(command);
      const server = remoteServer(globals, name);
      const port = Number(opts.port);
      if (!/^\d+$/.test(opts.port) || port > 65535) {
        throw new UsageError(`--port expects a port number, got ${opts.port}`);
      }
      const pasted = pastedLine();
      try {
        const file = await loginToServer({
          stateDir: globals.stateDir,
          server: name,
          url: server.url,
          port,
          pastedRedirect: pasted.line,
          onAuthorizationUrl: (url, redirectUrl) => {
            console.log(
              `Open this URL in a browser to let toolrt use ${name}:\n\n  ${url}\n\n` +
                `Waiting for the redirect to ${redirectUrl}. If the browser runs on another machine, ` +
                `paste here the address it was sent to.`,
            );
            openInBrowser(url);
          },
        });
        console.log(`logged in to ${name}; tokens saved in ${file}`);
      } finally {
        pasted.stop();
      }
    });

  mcp.command("logout")
    .description("forget the OAuth tokens and client registration stored for a remote MCP server")
    .argument("<name>", "a configured http or sse server")
    .action((name: string, _opts: unknown, command: Command) => {
      const globals = globalsOf(command);
      const server = remoteServer(globals, name);
      const store = new OAuthStore(globals.stateDir, name, server.url);
      console.log(
        store.remove() ? `logged out of ${name} (removed ${store.file})` : `no stored login for ${name}`,
      );
    });

  mcp.command("approve")
    .description("approve (or --revoke) servers of the workspace's .mcp.json; without names, show them")
    .argument("[names...]", "server names")
    .option("--all", "every server of .mcp.json")
    .option("--revoke", "withdraw the approval")
    .action((names: string[], opts: { all?: boolean; revoke?: boolean }, command: Command) => {
      const globals = globalsOf(command);
      const files = defaultMcpConfigFiles(globals.cwd, []);
      const { servers } = asConfigError(() =>
        loadMcpConfig(files, { workspace: globals.cwd, stateDir: globals.stateDir })
      );
      const project = servers.filter((s) => s.scope === "project");
      const approvals = new McpApprovals(globals.stateDir);
      if (names.length === 0 && !opts.all) {
        if (project.length === 0) console.log(`no servers in ${files.project}`);
        for (const s of project) {
          const state = approvals.stateOf(globals.cwd, s.name, s.config);
          console.log(`${s.name}  ${state}  ${describeServerConfig(s.config)}`);
        }
        return;
      }
      const unknown = names.filter((n) => !project.some((s) => s.name === n));
      if (unknown.length > 0) throw new UsageError(`not a server of ${files.project}: ${unknown.join(", ")}`);
      for (const s of project.filter((s) => opts.all || names.includes(s.name))) {
        if (opts.revoke) approvals.revoke(globals.cwd, s.name);
        else approvals.approve(globals.cwd, s.name, s.config);
        console.log(`${opts.revoke ? "revoked" : "approved"} ${s.name}: ${describeServerConfig(s.config)}`);
      }
    });
}

/** A configured remote server by name; OAuth is for http and sse servers only. */
function remoteServer(globals: GlobalOptions, name: string): { url: string } {
  const files = defaultMcpConfigFiles(globals.cwd, globals.mcpConfig);
  const { servers } = asConfigError(() =>
    loadMcpConfig(files, { workspace: globals.cwd, stateDir: globals.stateDir })
  );
  const entry = servers.find((s) => s.name === name);
  if (!entry) {
    const known = servers.map((s) => s.name).join(", ") || "none";
    throw new UsageError(`no MCP server named ${name} (configured: ${known})`);
  }
  const { value, missing } = expandServerConfig(entry.config, process.env);
  if (value.type === "stdio" || value.type === "ws") {
    throw new UsageError(`${name} is a ${value.type} server; OAuth is for http and sse servers`);
  }
  if (missing.length > 0) {
    throw new UsageError(`${name}'s URL needs environment variables: ${missing.join(", ")}`);
  }
  return { url: value.url };
}

/**
 * Opens the URL with `$BROWSER` when it is set (a command line; `%s` marks where the URL goes, else
 * it comes last), as other command-line tools do; otherwise the printed URL is all there is.
 */
function openInBrowser(url: string): void {
  const browser = process.env.BROWSER?.trim();
  if (!browser) return;
  const words = browser.split(/\s+/);
  const argv = words.includes("%s") ? words.map((w) => (w === "%s" ? url : w)) : [...words, url];
  try {
    Bun.spawn(argv, { stdio: ["ignore", "ignore", "ignore"] });
  } catch (error) {
    console.error(`toolrt: could not start $BROWSER (${browser}): ${(error as Error).message}`);
  }
}

/** The first line typed on a terminal, if any: a pasted redirect address. */
function pastedLine(): { line: Promise<string> | undefined; stop(): void } {
  if (!process.stdin.isTTY) return { line: undefined, stop: () => {} };
  const rl = createInterface({ input: process.stdin });
  const line = new Promise<string>((resolve) => rl.once("line", resolve));
  return { line, stop: () => rl.close() };
}

function asConfigError<T>(load: () => T): T {
  try {
    return load();
  } catch (error) {
    throw error instanceof McpConfigError ? new ConfigError(error.message) : error;
  }
}

function humanLines(statuses: readonly McpServerStatus[]): string[] {
  if (statuses.length === 0) return ["no MCP servers configured"];
  const width = Math.max(...statuses.map((s) => s.name.length));
  return statuses.flatMap((s) => [
    `${s.name.padEnd(width)}  ${s.status.padEnd(10)} ${String(s.toolCount).padStart(3)} tools  ` +
    `${s.scope}  ${s.target}`,
    ...(s.reason
      ? [`${" ".repeat(width)}  why: ${s.reason.split("\n").join(`\n${" ".repeat(width + 7)}`)}`]
      : []),
    ...s.problems.map((p) => `${" ".repeat(width)}  problem: ${p}`),
  ]);
}
