/**
 * One language server process: started on first use, initialized, kept for the session, started
 * again after a crash (up to `maxRestarts`), shut down politely at the end.
 *
 * States: idle → starting → running; running → crashed (the process died) → starting again;
 * any → failed (could not start, or crashed too often; later uses get the reason) or stopped.
 */
import { pathToFileURL } from "node:url";
import { JsonRpcConnection } from "./connection.ts";
import { DEFAULT_STARTUP_TIMEOUT_MS, type LspServerSpec } from "./config.ts";
import { CLIENT_CAPABILITIES, type Diagnostic, type ServerCapabilities } from "./protocol.ts";

type State =
  | { kind: "idle" }
  | { kind: "starting"; ready: Promise<JsonRpcConnection> }
  | { kind: "running"; connection: JsonRpcConnection }
  | { kind: "crashed"; reason: string }
  | { kind: "failed"; reason: string }
  | { kind: "stopped" };

export interface ServerOptions {
  /** Workspace root: the server's cwd and root URI. */
  rootDir: string;
  /** Environment the server inherits (the spec's `env` is laid over it). */
  env: Record<string, string | undefined>;
  /** How long to wait for answers to ordinary requests. */
  requestTimeoutMs: number;
  /** How long to wait for pushed diagnostics after a change, for servers without pull diagnostics. */
  pushWaitMs: number;
}

const STDERR_TAIL_CHARS = 2000;
const SHUTDOWN_GRACE_MS = 2000;

export class LanguageServer {
  #state: State = { kind: "idle" };
  #process: Bun.Subprocess<"pipe", "pipe", "pipe"> | undefined;
  #capabilities: ServerCapabilities = {};
  #restarts = 0;
  #stderrTail = "";
  /** Open documents: URI → the version and text last sent. */
  readonly #documents = new Map<string, { version: number; text: string }>();
  /** Latest pushed diagnostics per URI, and who waits for the next push. */
  readonly #pushed = new Map<string, Diagnostic[]>();
  readonly #pushWaiters = new Map<string, () => void>();

  constructor(readonly spec: LspServerSpec, readonly options: ServerOptions) {}

  get state(): State["kind"] {
    return this.#state.kind;
  }

  /** The connection to a running server, starting (or restarting) it when needed. */
  async connection(): Promise<JsonRpcConnection> {
    const state = this.#state;
    switch (state.kind) {
      case "running":
        return state.connection;
      case "starting":
        return state.ready;
      case "failed":
        throw new Error(state.reason);
      case "stopped":
        throw new Error(`language server ${this.spec.name} was stopped with the session`);
      case "crashed":
        if (!this.spec.config.restartOnCrash || this.#restarts >= this.spec.config.maxRestarts) {
          this.#state = {
            kind: "failed",
            reason: `${state.reason}; not restarted (${this.#restarts} restarts so far)`,
          };
          throw new Error(this.#state.reason);
        }
        this.#restarts++;
        return this.#start();
      case "idle":
        return this.#start();
    }
  }

  async request<T>(method: string, params: unknown): Promise<T> {
    const connection = await this.connection();
    return connection.request<T>(method, params, this.options.requestTimeoutMs);
  }

  /**
   * Tells the server a file's current text (didOpen the first time, didChange with the full text
   * after), then didSave, and returns the diagnostics it reports for the file.
   */
  async syncAndDiagnose(path: string, languageId: string, text: string): Promise<Diagnostic[]> {
    const connection = await this.connection();
    const uri = pathToFileURL(path).href;
    const pushed = this.#nextPush(uri);
    this.#sync(connection, uri, languageId, text);
    connection.notify("textDocument/didSave", { textDocument: { uri }, text });
    if (this.#capabilities.diagnosticProvider) {
      const report = await connection.request<{ items?: Diagnostic[] } | null>(
        "textDocument/diagnostic",
        { textDocument: { uri } },
        this.options.requestTimeoutMs,
      );
      return report?.items ?? [];
    }
    await pushed;
    return this.#pushed.get(uri) ?? [];
  }

  /** Makes sure the server knows the file's current text before a question about a position in it. */
  async ensureOpen(path: string, languageId: string, text: string): Promise<void> {
    this.#sync(await this.connection(), pathToFileURL(path).href, languageId, text);
  }

  #sync(connection: JsonRpcConnection, uri: string, languageId: string, text: string): void {
    const known = this.#documents.get(uri);
    if (known?.text === text) return;
    const version = (known?.version ?? 0) + 1;
    this.#documents.set(uri, { version, text });
    if (!known) {
      connection.notify("textDocument/didOpen", { textDocument: { uri, languageId, version, text } });
      return;
    }
    connection.notify("textDocument/didChange", {
      textDocument: { uri, version },
      contentChanges: [{ text }],
    });
  }

  async stop(): Promise<void> {
    const state = this.#state;
    this.#state = { kind: "stopped" };
    const process = this.#process;
    if (!process) return;
    if (state.kind === "running") {
      try {
        // Both without params: strict servers reject even `null`.
        await state.connection.request("shutdown", undefined, SHUTDOWN_GRACE_MS);
        state.connection.notify("exit", undefined);
      } catch {
        // A server that cannot shut down politely is killed below.
      }
    }
    const exited = await Promise.race([process.exited.then(() => true), Bun.sleep(SHUTDOWN_GRACE_MS)]);
    if (exited !== true) process.kill("SIGKILL");
    if (state.kind === "running") state.connection.close(new Error("stopped"));
  }

  #start(): Promise<JsonRpcConnection> {
    const ready = this.#spawnAndInitialize();
    this.#state = { kind: "starting", ready };
    ready.catch(() => {});
    return ready;
  }

  async #spawnAndInitialize(): Promise<JsonRpcConnection> {
    const { name, config } = this.spec;
    const env = this.#environment();
    const command = config.command;
    const executable = Bun.which(command, {
      PATH: env.PATH ?? "",
      cwd: this.spec.root ?? this.options.rootDir,
    });
    if (!executable) {
      return this.#fail(
        `language server ${name} (plugin ${this.spec.owner}): command "${command}" was not found` +
          ` on PATH; install it or fix "command" in its lspServers entry`,
      );
    }
    this.#documents.clear();
    this.#pushed.clear();
    this.#stderrTail = "";
    let process: Bun.Subprocess<"pipe", "pipe", "pipe">;
    try {
      process = Bun.spawn([executable, ...config.args], {
        cwd: this.options.rootDir,
        env,
        stdin: "pipe",
        stdout: "pipe",
        stderr: "pipe",
      });
    } catch (error) {
      return this.#fail(`language server ${name} could not be started: ${(error as Error).message}`);
    }
    this.#process = process;
    const connection = new JsonRpcConnection(
      (bytes) => {
        process.stdin.write(bytes);
        process.stdin.flush();
      },
      (method, params) => this.#onNotification(method, params),
      (method, params) => this.#onServerRequest(method, params),
    );
    void this.#pump(process.stdout, (chunk) => connection.receive(chunk), connection);
    void this.#pump(process.stderr, (chunk) => this.#keepStderr(chunk));
    void process.exited.then((code) => this.#onExit(process, connection, code));

    const timeoutMs = config.startupTimeout ?? DEFAULT_STARTUP_TIMEOUT_MS;
    try {
      const rootUri = pathToFileURL(this.options.rootDir).href;
      const result = await connection.request<{ capabilities?: ServerCapabilities }>("initialize", {
        processId: globalThis.process.pid,
        clientInfo: { name: "toolrt" },
        rootUri,
        rootPath: this.options.rootDir,
        workspaceFolders: [{ uri: rootUri, name: "workspace" }],
        capabilities: CLIENT_CAPABILITIES,
        initializationOptions: config.initializationOptions,
      }, timeoutMs);
      this.#capabilities = result?.capabilities ?? {};
      connection.notify("initialized", {});
      if (config.settings !== undefined) {
        connection.notify("workspace/didChangeConfiguration", { settings: config.settings });
      }
    } catch (error) {
      process.kill("SIGKILL");
      return this.#fail(
        `language server ${name} did not initialize: ${(error as Error).message}${this.#stderrNote()}`,
      );
    }
    if (this.#state.kind === "starting") this.#state = { kind: "running", connection };
    return connection;
  }

  #fail(reason: string): never {
    this.#state = { kind: "failed", reason };
    throw new Error(reason);
  }

  #onExit(process: Bun.Subprocess, connection: JsonRpcConnection, code: number | null): void {
    if (this.#process !== process) return;
    const reason = `language server ${this.spec.name} exited (code ${code ?? "?"})`;
    connection.close(new Error(reason));
    for (const wake of this.#pushWaiters.values()) wake();
    if (this.#state.kind === "running") {
      this.#state = { kind: "crashed", reason: `${reason}${this.#stderrNote()}` };
    }
  }

  async #pump(
    stream: ReadableStream<Uint8Array>,
    onChunk: (chunk: Uint8Array) => void,
    connection?: JsonRpcConnection,
  ): Promise<void> {
    try {
      for await (const chunk of stream) onChunk(chunk);
    } catch (error) {
      // Garbage on stdout ends the conversation; the exit handler reports the crash.
      connection?.close(
        new Error(`language server ${this.spec.name} sent bad data: ${(error as Error).message}`),
      );
      this.#process?.kill("SIGKILL");
    }
  }

  #keepStderr(chunk: Uint8Array): void {
    this.#stderrTail = (this.#stderrTail + new TextDecoder().decode(chunk)).slice(-STDERR_TAIL_CHARS);
  }

  #stderrNote(): string {
    const tail = this.#stderrTail.trim();
    const lines = tail.split("\n").map((line) => line.trim()).filter(Boolean);
    return lines.length ? `; its stderr ends with: ${lines.slice(-3).join(" | ")}` : "";
  }

  #onNotification(method: string, params: unknown): void {
    if (method !== "textDocument/publishDiagnostics") return;
    const { uri, diagnostics } = params as { uri: string; diagnostics: Diagnostic[] };
    this.#pushed.set(uri, diagnostics);
    this.#pushWaiters.get(uri)?.();
  }

  /** Resolves on the next diagnostics push for `uri`, or after `pushWaitMs`. */
  #nextPush(uri: string): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(done, this.options.pushWaitMs);
      const waiters = this.#pushWaiters;
      function done() {
        clearTimeout(timer);
        waiters.delete(uri);
        resolve();
      }
      waiters.set(uri, done);
    });
  }

  #onServerRequest(method: string, params: unknown): { result: unknown } | undefined {
    switch (method) {
      case "workspace/configuration": {
        const items = (params as { items?: unknown[] } | undefined)?.items ?? [];
        return { result: items.map(() => this.spec.config.settings ?? null) };
      }
      case "workspace/workspaceFolders":
        return { result: [{ uri: pathToFileURL(this.options.rootDir).href, name: "workspace" }] };
      case "client/registerCapability":
      case "client/unregisterCapability":
      case "window/workDoneProgress/create":
      case "window/showMessageRequest":
        return { result: null };
      default:
        return undefined;
    }
  }

  #environment(): Record<string, string> {
    const merged: Record<string, string> = {};
    for (const [key, value] of Object.entries(this.options.env)) if (value !== undefined) merged[key] = value;
    return { ...merged, ...this.spec.config.env };
  }
}
