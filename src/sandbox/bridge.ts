/**
 * The in-sandbox half of the network channel (`toolrt sandbox-bridge --fd N -- CMD...`): listens on
 * the namespace's 127.0.0.1 for HTTP and SOCKS clients, carries each connection to the host over
 * descriptor N, and runs CMD (without N) as its child, exiting with its status.
 */
import { createServer, type Server } from "node:net";
import { Channel } from "./channel.ts";
import { FrameType, StreamKind } from "./mux.ts";
import { BRIDGE_PORTS } from "./network.ts";
import { exitStatus } from "./exit-status.ts";

export async function runBridge(fd: number, argv: string[]): Promise<number> {
  const channel = new Channel(fd);
  void channel.run();
  let next = 1;
  const serve = (kind: number) =>
    createServer((socket) => {
      const stream = next++;
      channel.send(FrameType.open, stream, new Uint8Array([kind]));
      channel.bind(stream, socket);
    });
  const servers = [serve(StreamKind.http), serve(StreamKind.socks)];
  await Promise.all([listen(servers[0]!, BRIDGE_PORTS.http), listen(servers[1]!, BRIDGE_PORTS.socks)]);
  const child = Bun.spawn(argv, { stdio: ["inherit", "inherit", "inherit"] });
  for (const signal of ["SIGTERM", "SIGINT", "SIGHUP"] as const) {
    process.on(signal, () => child.kill(signal));
  }
  const code = await child.exited;
  for (const server of servers) server.close();
  return exitStatus(code, child.signalCode);
}

function listen(server: Server, port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () => resolve());
  });
}
