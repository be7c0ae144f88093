/**
 * Network for a sandboxed run with an allow-list. The host runs the proxy on 127.0.0.1. On Linux the
 * command lives in an empty network namespace, so a bridge inside it (toolrt itself, started by
 * bwrap before the command) listens on the namespace's own loopback and carries every connection
 * over an inherited socketpair to the host, which hands it to the proxy. On macOS the command
 * connects to the host proxy directly, and the SBPL profile allows only its two ports.
 */
import { join } from "node:path";
import { connect } from "node:net";
import { Channel } from "./channel.ts";
import type { SandboxAvailability } from "./detect.ts";
import { type Denial, type HostAsker, startProxy } from "./proxy.ts";
import { StreamKind } from "./mux.ts";

/** Ports the bridge listens on inside the sandbox's private network namespace. */
export const BRIDGE_PORTS = { http: 3128, socks: 1080 } as const;

export interface NetworkSession {
  /** Proxy variables for the command's environment. */
  env: Record<string, string>;
  /** The host proxy's HTTP and SOCKS ports (what macOS commands connect to, and all they may). */
  hostPorts: number[];
  denials: Denial[];
  /** The in-sandbox argv prefix that runs the bridge on descriptor `fd`, then the command. */
  bridgeCommand(fd: number): string[];
  /** Starts carrying frames on the host end of the channel. */
  attachChannel(fd: number): void;
  stop(): void;
}

function proxyEnv(httpUrl: string, socksUrl: string): Record<string, string> {
  const env: Record<string, string> = {};
  for (const name of ["HTTP_PROXY", "HTTPS_PROXY"]) env[name] = env[name.toLowerCase()] = httpUrl;
  env.ALL_PROXY = env.all_proxy = socksUrl;
  env.NO_PROXY = env.no_proxy = "";
  return env;
}

export async function startNetwork(
  allowNet: string[],
  availability: SandboxAvailability,
  askHost?: HostAsker,
): Promise<NetworkSession> {
  const proxy = await startProxy(allowNet, askHost ? { askHost } : {});
  const direct = availability.available && availability.kind === "sandbox-exec";
  const ports = direct ? { http: proxy.httpPort, socks: proxy.socksPort } : BRIDGE_PORTS;
  return {
    env: proxyEnv(`http://127.0.0.1:${ports.http}`, `socks5h://127.0.0.1:${ports.socks}`),
    hostPorts: [proxy.httpPort, proxy.socksPort],
    denials: proxy.denials,
    bridgeCommand: (fd) => [...toolrtCommand(), "sandbox-bridge", "--fd", String(fd), "--"],
    attachChannel: (fd) => {
      const channel = new Channel(
        fd,
        (_stream, kind) =>
          connect({ host: "127.0.0.1", port: kind === StreamKind.socks ? proxy.socksPort : proxy.httpPort }),
      );
      void channel.run();
    },
    stop: () => proxy.close(),
  };
}

/** How to start this program again: the compiled binary alone, or bun with the CLI's entry file. */
function toolrtCommand(): string[] {
  const compiled = import.meta.dir.startsWith("/$bunfs") || import.meta.dir.includes("~BUN");
  return compiled ? [process.execPath] : [process.execPath, join(import.meta.dir, "..", "cli", "main.ts")];
}
