/** The peer check of resident processes (`peer.ts`): the kernel's uid of the other end of a socket. */
import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { peerIsUid, peerUid } from "../../src/hook/resident/peer.ts";

const linux = process.platform === "linux";
if (!linux) console.warn("skipping the peer credential tests: SO_PEERCRED is Linux's");
const dir = mkdtempSync(join(tmpdir(), "toolrt-peer-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe.if(linux)("peer credentials", () => {
  test("both ends of a connection see this process's uid, and no other", async () => {
    const uid = process.getuid!();
    const socket = join(dir, "s.sock");
    let serverSide: number | null | undefined;
    const server = createServer((connection) => {
      serverSide = peerUid((connection as unknown as { _handle?: { fd?: unknown } })._handle?.fd);
      connection.end("x");
    });
    await new Promise<void>((resolve) => server.listen(socket, resolve));
    const clientSide = await new Promise<{ mine: boolean; other: boolean }>((resolve) => {
      Bun.connect({
        unix: socket,
        socket: {
          open: (s) => {
            const fd = (s as { fd?: unknown }).fd;
            resolve({ mine: peerIsUid(fd, uid), other: peerIsUid(fd, uid + 1) });
          },
          data: (s) => void s.end(),
        },
      });
    });
    await Bun.sleep(50);
    server.close();
    expect(clientSide).toEqual({ mine: true, other: false });
    expect(serverSide).toBe(uid);
  });

  test("no descriptor, or one that is not a socket, is not trusted", () => {
    expect(peerUid(undefined)).toBeNull();
    expect(peerIsUid(undefined, process.getuid!())).toBe(false);
    expect(peerIsUid(0, process.getuid!())).toBe(false); // stdin: not a socket
  });
});
