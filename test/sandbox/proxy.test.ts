import { afterAll, describe, expect, test } from "bun:test";
import { connect, createServer, type Socket } from "node:net";
import { isHostAllowed } from "../../src/sandbox/host-allow.ts";
import { startProxy } from "../../src/sandbox/proxy.ts";

describe("isHostAllowed", () => {
  const list = ["registry.npmjs.org", "*.github.com", "127.0.0.1:8080", "[::1]"];
  const cases: Array<[string, number, boolean]> = [
    ["registry.npmjs.org", 443, true],
    ["REGISTRY.npmjs.org", 80, true],
    ["evil-registry.npmjs.org", 443, false],
    ["api.github.com", 443, true],
    ["github.com", 443, false],
    ["xgithub.com", 443, false],
    ["127.0.0.1", 8080, true],
    ["127.0.0.1", 8081, false],
    ["::1", 22, true],
    ["[::1]", 22, true],
    ["localhost", 8080, false],
  ];
  for (const [host, port, expected] of cases) {
    test(`${host}:${port} -> ${expected}`, () => expect(isHostAllowed(host, port, list)).toBe(expected));
  }
});

/** A loopback server that answers every connection with "ok <first line>". */
const upstream = createServer((s) => s.once("data", (d) => s.end(`ok ${d.toString().split("\r\n")[0]}\n`)));
await new Promise<void>((r) => upstream.listen(0, "127.0.0.1", r));
const upstreamPort = (upstream.address() as { port: number }).port;
const proxy = await startProxy([`127.0.0.1:${upstreamPort}`]);
afterAll(() => {
  proxy.close();
  upstream.close();
});

/** Sends `steps` in order (each after the previous reply), returns everything received. */
function talk(port: number, steps: Array<string | Uint8Array>): Promise<Buffer> {
  return new Promise((resolve) => {
    const socket: Socket = connect({ host: "127.0.0.1", port });
    let received = Buffer.alloc(0);
    let step = 0;
    const next = () => step < steps.length && socket.write(steps[step++]!);
    socket.on("connect", next);
    socket.on("data", (d: Buffer) => {
      received = Buffer.concat([received, d]);
      next();
    });
    socket.on("close", () => resolve(received));
    socket.on("error", () => resolve(received));
    setTimeout(() => socket.destroy(), 3000);
  });
}

describe("proxy on loopback", () => {
  test("HTTP CONNECT to an allowed host tunnels", async () => {
    const out = await talk(proxy.httpPort, [
      `CONNECT 127.0.0.1:${upstreamPort} HTTP/1.1\r\n\r\n`,
      "PING\r\n",
    ]);
    expect(out.toString()).toContain("200 Connection Established");
    expect(out.toString()).toContain("ok PING");
  });
  test("absolute-URI GET to an allowed host is forwarded in origin form", async () => {
    const out = await talk(proxy.httpPort, [
      `GET http://127.0.0.1:${upstreamPort}/x?y=1 HTTP/1.1\r\nHost: h\r\n\r\n`,
    ]);
    expect(out.toString()).toContain("ok GET /x?y=1 HTTP/1.1");
  });
  test("HTTP to a host off the list is refused with 403 and recorded", async () => {
    const out = await talk(proxy.httpPort, [`GET http://localhost:${upstreamPort}/ HTTP/1.1\r\n\r\n`]);
    expect(out.toString()).toStartWith("HTTP/1.1 403");
    expect(out.toString()).toContain(`localhost:${upstreamPort} is blocked`);
    expect(proxy.denials).toContainEqual({ host: "localhost", port: upstreamPort, via: "http" });
  });
  test("CONNECT to an allowed host on another port is refused", async () => {
    const out = await talk(proxy.httpPort, [`CONNECT 127.0.0.1:1 HTTP/1.1\r\n\r\n`]);
    expect(out.toString()).toStartWith("HTTP/1.1 403");
  });
  const portBytes = [upstreamPort >> 8, upstreamPort & 255];
  test("SOCKS5 CONNECT to an allowed IPv4 address tunnels", async () => {
    const out = await talk(proxy.socksPort, [
      new Uint8Array([5, 1, 0]),
      new Uint8Array([5, 1, 0, 1, 127, 0, 0, 1, ...portBytes]),
      "PING\r\n",
    ]);
    expect([...out.subarray(0, 4)]).toEqual([5, 0, 5, 0]);
    expect(out.toString()).toContain("ok PING");
  });
  test("SOCKS5 CONNECT by name to a host off the list gets 'not allowed by ruleset'", async () => {
    const name = new TextEncoder().encode("localhost");
    const out = await talk(proxy.socksPort, [
      new Uint8Array([5, 1, 0]),
      new Uint8Array([5, 1, 0, 3, name.length, ...name, ...portBytes]),
    ]);
    expect([...out.subarray(0, 4)]).toEqual([5, 0, 5, 2]);
    expect(proxy.denials).toContainEqual({ host: "localhost", port: upstreamPort, via: "socks" });
  });
});

describe("a host not on the list is put to a person once", () => {
  test("yes: both connections go through, the person was asked once", async () => {
    const asked: string[] = [];
    const asking = await startProxy([], {
      askHost: async (host, port) => {
        asked.push(`${host}:${port}`);
        return true;
      },
    });
    try {
      const connect = `CONNECT 127.0.0.1:${upstreamPort} HTTP/1.1\r\n\r\n`;
      const [a, b] = await Promise.all([
        talk(asking.httpPort, [connect, "ONE\r\n"]),
        talk(asking.httpPort, [connect, "TWO\r\n"]),
      ]);
      expect(a.toString()).toContain("ok ONE");
      expect(b.toString()).toContain("ok TWO");
      expect(asked).toEqual([`127.0.0.1:${upstreamPort}`]);
      expect(asking.denials).toEqual([]);
    } finally {
      asking.close();
    }
  });

  test("no (or a failing asker): refused and recorded as a denial naming the host", async () => {
    for (const askHost of [async () => false, () => Promise.reject(new Error("no terminal"))]) {
      const asking = await startProxy([], { askHost });
      try {
        const out = await talk(asking.httpPort, [
          `GET http://127.0.0.1:${upstreamPort}/x HTTP/1.1\r\nHost: a\r\n\r\n`,
        ]);
        expect(out.toString()).toContain("403 Forbidden");
        expect(out.toString()).toContain(`network access to 127.0.0.1:${upstreamPort} is blocked`);
        expect(asking.denials).toEqual([{ host: "127.0.0.1", port: upstreamPort, via: "http" }]);
      } finally {
        asking.close();
      }
    }
  });
});
