/**
 * The runtime's egress proxy: HTTP (CONNECT and absolute-URI requests) and SOCKS5 (CONNECT, no
 * auth) on 127.0.0.1, letting through only hosts on the allow-list and recording every denial.
 * With `askHost`, a host not on the list is put to a person (once per host while the proxy runs;
 * the connection waits for the answer); without it, it is denied.
 */
import { connect, createServer, type Server, type Socket } from "node:net";
import { isHostAllowed } from "./host-allow.ts";

export interface Denial {
  host: string;
  port: number;
  via: "http" | "socks";
}

export interface ProxyServer {
  httpPort: number;
  socksPort: number;
  denials: Denial[];
  close(): void;
}

const MAX_HEADER = 64 * 1024;

/** Asks whether a host not on the allow-list may be reached; resolves false for no. */
export type HostAsker = (host: string, port: number) => Promise<boolean>;

export async function startProxy(
  allowList: readonly string[],
  options: { askHost?: HostAsker } = {},
): Promise<ProxyServer> {
  const denials: Denial[] = [];
  const answers = new Map<string, Promise<boolean>>();
  const askOnce = (host: string, port: number): Promise<boolean> => {
    const ask = options.askHost;
    if (!ask) return Promise.resolve(false);
    const key = host.toLowerCase().replace(/^\[(.*)\]$/, "$1");
    let answer = answers.get(key);
    if (!answer) {
      answer = ask(host, port).catch(() => false);
      answers.set(key, answer);
    }
    return answer;
  };
  const allowed: Check = async (host, port, via) => {
    if (isHostAllowed(host, port, allowList) || await askOnce(host, port)) return true;
    denials.push({ host, port, via });
    return false;
  };
  const http = createServer((client) => serveHttp(client, allowed));
  const socks = createServer((client) => serveSocks(client, allowed));
  const [httpPort, socksPort] = await Promise.all([listen(http), listen(socks)]);
  return {
    httpPort,
    socksPort,
    denials,
    close: () => {
      http.close();
      socks.close();
    },
  };
}

function listen(server: Server): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      resolve(typeof address === "object" && address ? address.port : 0);
    });
  });
}

type Check = (host: string, port: number, via: Denial["via"]) => Promise<boolean>;

/** Collects bytes until `complete` says how many belong to the head, then hands over. */
function readHead(
  client: Socket,
  complete: (data: Buffer) => number | null,
  then: (head: Buffer, rest: Buffer) => void,
) {
  let buffered = Buffer.alloc(0);
  const onData = (chunk: Buffer) => {
    buffered = Buffer.concat([buffered, chunk]);
    const size = complete(buffered);
    if (size === null) {
      if (buffered.length > MAX_HEADER) client.destroy();
      return;
    }
    client.off("data", onData);
    client.pause();
    then(buffered.subarray(0, size), buffered.subarray(size));
  };
  client.on("data", onData);
  client.on("error", () => client.destroy());
}

function tunnel(client: Socket, host: string, port: number, first: Buffer, onConnected: () => void) {
  const upstream = connect({ host, port });
  upstream.once("connect", () => {
    onConnected();
    if (first.length) upstream.write(first);
    client.pipe(upstream);
    upstream.pipe(client);
    client.resume();
  });
  upstream.on("error", () => client.destroy());
  client.on("close", () => upstream.destroy());
  upstream.on("close", () => client.destroy());
}

function serveHttp(client: Socket, allowed: Check): void {
  readHead(client, (data) => {
    const end = data.indexOf("\r\n\r\n");
    return end < 0 ? null : end + 4;
  }, (head, rest) => {
    const text = head.toString("latin1");
    const [method = "", target = "", version = "HTTP/1.1"] = (text.split("\r\n")[0] ?? "").split(" ");
    const refuse = (status: string, message: string) =>
      client.end(`HTTP/1.1 ${status}\r\nContent-Type: text/plain\r\nConnection: close\r\n\r\n${message}\n`);
    if (method.toUpperCase() === "CONNECT") {
      const at = target.lastIndexOf(":");
      const host = target.slice(0, at);
      const port = Number(target.slice(at + 1));
      if (at < 0 || !Number.isInteger(port)) {
        return refuse("400 Bad Request", "toolrt sandbox proxy: bad CONNECT target");
      }
      void allowed(host, port, "http").then((ok) =>
        ok
          ? tunnel(
            client,
            host.replace(/^\[(.*)\]$/, "$1"),
            port,
            rest,
            () => client.write("HTTP/1.1 200 Connection Established\r\n\r\n"),
          )
          : refuse("403 Forbidden", deniedText(host, port))
      );
      return;
    }
    let url: URL;
    try {
      url = new URL(target);
    } catch {
      return refuse("400 Bad Request", "toolrt sandbox proxy: only absolute http:// URLs and CONNECT");
    }
    if (url.protocol !== "http:") {
      return refuse("400 Bad Request", "toolrt sandbox proxy: use CONNECT for https");
    }
    const port = Number(url.port || 80);
    const host = url.hostname;
    const requestLine = `${method} ${url.pathname}${url.search} ${version}`;
    const rewritten = Buffer.concat([
      Buffer.from(requestLine, "latin1"),
      head.subarray(head.indexOf("\r\n")),
      rest,
    ]);
    void allowed(host, port, "http").then((ok) =>
      ok
        ? tunnel(client, host.replace(/^\[(.*)\]$/, "$1"), port, rewritten, () => {})
        : refuse("403 Forbidden", deniedText(host, port))
    );
  });
}

function serveSocks(client: Socket, allowed: Check): void {
  readHead(
    client,
    (d) => (d.length >= 2 && d.length >= 2 + d[1]! ? 2 + d[1]! : null),
    (greeting, afterGreeting) => {
      if (greeting[0] !== 5) return client.destroy();
      client.write(Buffer.from([5, 0]));
      if (afterGreeting.length) client.unshift(afterGreeting);
      client.resume();
      readHead(client, socksRequestLength, (request, rest) => {
        const target = parseSocksTarget(request);
        const reply = (code: number) => Buffer.from([5, code, 0, 1, 0, 0, 0, 0, 0, 0]);
        if (!target || request[1] !== 1) return client.end(reply(7)); // command not supported
        void allowed(target.host, target.port, "socks").then((ok) =>
          ok
            ? tunnel(client, target.host, target.port, rest, () => client.write(reply(0)))
            : client.end(reply(2)) // not allowed by ruleset
        );
      });
    },
  );
}

/** Length of a complete SOCKS5 request in `d`, or null while incomplete. */
function socksRequestLength(d: Buffer): number | null {
  if (d.length < 5) return null;
  const addressLength = d[3] === 1 ? 4 : d[3] === 4 ? 16 : d[3] === 3 ? 1 + d[4]! : 0;
  const total = 4 + addressLength + 2;
  return addressLength && d.length >= total ? total : addressLength ? null : 4;
}

function parseSocksTarget(d: Buffer): { host: string; port: number } | null {
  const type = d[3];
  if (type === 1 && d.length >= 10) return { host: [...d.subarray(4, 8)].join("."), port: d.readUInt16BE(8) };
  if (type === 3 && d.length >= 5 + d[4]! + 2) {
    const length = d[4]!;
    return { host: d.subarray(5, 5 + length).toString("latin1"), port: d.readUInt16BE(5 + length) };
  }
  if (type === 4 && d.length >= 22) {
    const groups: string[] = [];
    for (let i = 0; i < 8; i++) groups.push(d.readUInt16BE(4 + i * 2).toString(16));
    return { host: groups.join(":"), port: d.readUInt16BE(20) };
  }
  return null;
}

function deniedText(host: string, port: number): string {
  return `toolrt sandbox: network access to ${host}:${port} is blocked (not in the sandbox's network allow-list)`;
}
