/**
 * JSON-RPC 2.0 over the LSP framing, independent of where the bytes go: requests with ids and
 * timeouts, notifications, and answers to the requests a server sends its client.
 */
import { encodeMessage, MessageDecoder } from "./framing.ts";

type Pending = { resolve: (value: unknown) => void; reject: (error: Error) => void; timer: Timer };

export type NotificationHandler = (method: string, params: unknown) => void;
/** Answers a request from the server; returning undefined means "method not found". */
export type ServerRequestHandler = (method: string, params: unknown) => { result: unknown } | undefined;

export class RpcError extends Error {
  constructor(readonly code: number, message: string) {
    super(message);
    this.name = "RpcError";
  }
}

const METHOD_NOT_FOUND = -32601;

export class JsonRpcConnection {
  readonly #write: (bytes: Uint8Array) => void;
  readonly #decoder = new MessageDecoder();
  readonly #pending = new Map<number, Pending>();
  #nextId = 1;
  #closed: Error | undefined;

  constructor(
    write: (bytes: Uint8Array) => void,
    readonly onNotification: NotificationHandler = () => {},
    readonly onRequest: ServerRequestHandler = () => undefined,
  ) {
    this.#write = write;
  }

  /** Feeds bytes read from the server. */
  receive(chunk: Uint8Array): void {
    for (const message of this.#decoder.push(chunk)) this.#dispatch(message as RpcMessage);
  }

  request<T>(method: string, params: unknown, timeoutMs: number): Promise<T> {
    if (this.#closed) return Promise.reject(this.#closed);
    const id = this.#nextId++;
    return new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.#pending.delete(id);
        reject(new Error(`${method} got no answer within ${Math.round(timeoutMs / 1000)} s`));
      }, timeoutMs);
      this.#pending.set(id, { resolve: resolve as (value: unknown) => void, reject, timer });
      this.#send({ jsonrpc: "2.0", id, method, params });
    });
  }

  notify(method: string, params: unknown): void {
    if (!this.#closed) this.#send({ jsonrpc: "2.0", method, params });
  }

  /** Fails every waiting request with `reason`; later requests fail at once. */
  close(reason: Error): void {
    this.#closed ??= reason;
    for (const [id, pending] of this.#pending) {
      clearTimeout(pending.timer);
      pending.reject(reason);
      this.#pending.delete(id);
    }
  }

  #send(message: object): void {
    try {
      this.#write(encodeMessage(message));
    } catch (error) {
      this.close(error instanceof Error ? error : new Error(String(error)));
    }
  }

  #dispatch(message: RpcMessage): void {
    if (message.method !== undefined && message.id !== undefined) return this.#answer(message);
    if (message.method !== undefined) return this.onNotification(message.method, message.params);
    const pending = typeof message.id === "number" ? this.#pending.get(message.id) : undefined;
    if (!pending) return;
    this.#pending.delete(message.id as number);
    clearTimeout(pending.timer);
    if (message.error) pending.reject(new RpcError(message.error.code, message.error.message));
    else pending.resolve(message.result ?? null);
  }

  #answer(message: RpcMessage): void {
    const answer = this.onRequest(message.method!, message.params);
    this.#send(
      answer ? { jsonrpc: "2.0", id: message.id, result: answer.result ?? null } : {
        jsonrpc: "2.0",
        id: message.id,
        error: { code: METHOD_NOT_FOUND, message: `unsupported: ${message.method}` },
      },
    );
  }
}

interface RpcMessage {
  id?: number | string;
  method?: string;
  params?: unknown;
  result?: unknown;
  error?: { code: number; message: string };
}
