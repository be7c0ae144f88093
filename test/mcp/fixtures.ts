/** Starts the fixture MCP servers of fixtures/mcp/ as stdio configs or as HTTP processes. */
import { join } from "node:path";
import type { McpServerConfig } from "../../src/mcp/config.ts";
import type { McpServerEntry } from "../../src/mcp/config-sources.ts";

export const FIXTURES = join(import.meta.dir, "../../fixtures/mcp");
export type FixtureName =
  | "well-behaved"
  | "crashing"
  | "slow"
  | "hung"
  | "changing"
  | "malformed"
  | "parent"
  | "crash-host"
  | "oauth-server";
export type TransportKind = "stdio" | "http";

export function fixtureArgv(name: FixtureName, args: string[] = []): string[] {
  return [process.execPath, join(FIXTURES, `${name}.ts`), ...args];
}

export function stdioConfig(name: FixtureName, args: string[] = []): McpServerConfig {
  const [command, ...rest] = fixtureArgv(name, args);
  return { type: "stdio", command: command!, args: rest, env: {} };
}

/**
 * Global options and environment for CLI runs in a scratch directory: workspace `ws/`, its own
 * state dir, the servers of `servers.json`, and no managed or user MCP config of the machine.
 */
export function scratchCli(dir: string): { globals: string[]; env: Record<string, string> } {
  return {
    globals: [
      "--cwd",
      join(dir, "ws"),
      "--state-dir",
      join(dir, "state"),
      "--mcp-config",
      join(dir, "servers.json"),
    ],
    env: { TOOLRT_MANAGED_MCP: join(dir, "managed.json"), XDG_CONFIG_HOME: join(dir, "config") },
  };
}

export function entry(name: string, config: McpServerConfig): McpServerEntry {
  return { name, scope: "flag", file: "test", config };
}

/**
 * A fixture serving Streamable HTTP (or WebSocket) in its own process; `restart()` brings it back
 * on the same port.
 */
export class RemoteFixture {
  #process: ReturnType<typeof Bun.spawn> | undefined;
  url = "";

  private constructor(readonly name: FixtureName, readonly args: string[], readonly over: "http" | "ws") {}

  static async start(
    name: FixtureName,
    args: string[] = [],
    over: "http" | "ws" = "http",
  ): Promise<RemoteFixture> {
    const fixture = new RemoteFixture(name, args, over);
    await fixture.#spawn("0");
    return fixture;
  }

  config(headers: Record<string, string> = {}): McpServerConfig {
    return this.over === "ws" ? { type: "ws", url: this.url } : { type: "http", url: this.url, headers };
  }

  async restart(): Promise<void> {
    this.stop();
    await this.#process?.exited;
    await this.#spawn(new URL(this.url).port);
  }

  stop(): void {
    this.#process?.kill();
  }

  async #spawn(port: string): Promise<void> {
    const proc = Bun.spawn(fixtureArgv(this.name, [...this.args, `--${this.over}`, port]), {
      stdout: "pipe",
      stderr: "inherit",
    });
    this.#process = proc;
    const reader = proc.stdout.getReader();
    let text = "";
    while (!text.includes("\n")) {
      const { value, done } = await reader.read();
      if (done) throw new Error(`fixture ${this.name} exited before listening`);
      text += new TextDecoder().decode(value);
    }
    reader.releaseLock();
    this.url = text.split("\n")[0]!.replace(/^listening /, "");
  }
}

/** Both transports for one fixture, for tests that must hold over each. */
export async function withTransport(
  kind: TransportKind,
  name: FixtureName,
  args: string[] = [],
): Promise<{ config: McpServerConfig; http?: RemoteFixture; stop(): void }> {
  if (kind === "stdio") return { config: stdioConfig(name, args), stop: () => {} };
  const http = await RemoteFixture.start(name, args);
  return { config: http.config(), http, stop: () => http.stop() };
}
