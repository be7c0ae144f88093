import { describe, expect, test } from "bun:test";
import { JsonRpcConnection, RpcError } from "../../../src/lsp/connection.ts";
import { encodeMessage, MessageDecoder } from "../../../src/lsp/framing.ts";

describe("Content-Length framing", () => {
  test("messages split anywhere, even inside a multi-byte character, come out whole", () => {
    const messages = [{ id: 1, text: "naïve → ünïcödé 🎉" }, { id: 2, text: "second" }];
    const bytes = new Uint8Array([...encodeMessage(messages[0]), ...encodeMessage(messages[1])]);
    for (const cut of [1, 17, 30, 45, bytes.length - 1]) {
      const decoder = new MessageDecoder();
      const out = [...decoder.push(bytes.slice(0, cut)), ...decoder.push(bytes.slice(cut))];
      expect(out, `cut at ${cut}`).toEqual(messages);
    }
  });

  test("the length counts bytes, not characters", () => {
    const text = new TextDecoder().decode(encodeMessage({ s: "é" }));
    expect(text).toStartWith(`Content-Length: ${'{"s":"é"}'.length + 1}\r\n\r\n`);
  });

  test("a header without a length is an error, not a hang", () => {
    expect(() => new MessageDecoder().push(new TextEncoder().encode("X-Nothing: 1\r\n\r\n{}"))).toThrow(
      "without Content-Length",
    );
  });
});

describe("JSON-RPC connection", () => {
  function pair() {
    const sent: any[] = [];
    const decoder = new MessageDecoder();
    const notes: string[] = [];
    const connection = new JsonRpcConnection(
      (bytes) => sent.push(...decoder.push(bytes)),
      (method) => notes.push(method),
      (method) => (method === "workspace/configuration" ? { result: [null] } : undefined),
    );
    const reply = (message: object) => connection.receive(encodeMessage({ jsonrpc: "2.0", ...message }));
    return { connection, sent, notes, reply };
  }

  test("answers resolve their request; errors reject it with the server's message", async () => {
    const { connection, sent, reply } = pair();
    const ok = connection.request("a", {}, 10_000);
    const bad = connection.request("b", {}, 10_000);
    reply({ id: sent[1].id, error: { code: -32600, message: "no such thing" } });
    reply({ id: sent[0].id, result: { fine: true } });
    expect(await ok).toEqual({ fine: true });
    const error = (await bad.catch((e) => e)) as RpcError;
    expect(error).toBeInstanceOf(RpcError);
    expect(error.message).toBe("no such thing");
  });

  test("server requests are answered, unknown ones with method-not-found; notifications are passed on", () => {
    const { sent, notes, reply } = pair();
    reply({ id: 7, method: "workspace/configuration", params: { items: [{}] } });
    reply({ id: 8, method: "custom/thing", params: {} });
    reply({ method: "window/logMessage", params: {} });
    expect(sent).toEqual([
      { jsonrpc: "2.0", id: 7, result: [null] },
      { jsonrpc: "2.0", id: 8, error: { code: -32601, message: "unsupported: custom/thing" } },
    ]);
    expect(notes).toEqual(["window/logMessage"]);
  });

  test("closing fails waiting and later requests with the reason", async () => {
    const { connection } = pair();
    const waiting = connection.request("a", {}, 10_000);
    connection.close(new Error("server exited (code 3)"));
    await expect(waiting).rejects.toThrow("server exited (code 3)");
    await expect(connection.request("b", {}, 10_000)).rejects.toThrow("server exited (code 3)");
  });
});
