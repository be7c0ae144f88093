/**
 * The language servers of a session, chosen by file extension. Servers start on first use and are
 * reused; `configure()` follows plugin changes (servers no longer declared are stopped) and
 * `stopAll()` ends them with the session.
 */
import { extname } from "node:path";
import type { LspServerSpec } from "./config.ts";
import type { Diagnostic } from "./protocol.ts";
import { LanguageServer, type ServerOptions } from "./server.ts";

export interface LspManagerOptions {
  rootDir: string;
  env?: Record<string, string | undefined>;
  requestTimeoutMs?: number;
  pushWaitMs?: number;
}

export interface ServerForFile {
  server: LanguageServer;
  languageId: string;
}

export class LspManager {
  readonly #options: ServerOptions;
  /** Keyed by owner and name, so the same declaration keeps its running process across reloads. */
  #servers = new Map<string, LanguageServer>();
  #byExtension = new Map<string, { key: string; languageId: string }>();

  constructor(options: LspManagerOptions, specs: readonly LspServerSpec[] = []) {
    this.#options = {
      rootDir: options.rootDir,
      env: options.env ?? process.env,
      requestTimeoutMs: options.requestTimeoutMs ?? 30_000,
      pushWaitMs: options.pushWaitMs ?? 5_000,
    };
    void this.configure(specs);
  }

  /** True when some server is declared; the LSP tool is offered only then. */
  get active(): boolean {
    return this.#servers.size > 0;
  }

  get specs(): LspServerSpec[] {
    return [...this.#servers.values()].map((server) => server.spec);
  }

  /**
   * Replaces the declared servers. A declaration that did not change keeps its process; the others
   * are stopped. The first declaration of an extension (in the given order) serves it.
   */
  async configure(specs: readonly LspServerSpec[]): Promise<void> {
    const next = new Map<string, LanguageServer>();
    this.#byExtension = new Map();
    for (const spec of specs) {
      const key = `${spec.owner}\0${spec.name}\0${JSON.stringify(spec.config)}\0${spec.root ?? ""}`;
      next.set(key, this.#servers.get(key) ?? new LanguageServer(spec, this.#options));
      for (const [extension, languageId] of Object.entries(spec.config.extensionToLanguage)) {
        const lower = extension.toLowerCase();
        if (!this.#byExtension.has(lower)) this.#byExtension.set(lower, { key, languageId });
      }
    }
    const dropped = [...this.#servers].filter(([key]) => !next.has(key)).map(([, server]) => server);
    this.#servers = next;
    await Promise.all(dropped.map((server) => server.stop()));
  }

  serverFor(path: string): ServerForFile | undefined {
    const entry = this.#byExtension.get(extname(path).toLowerCase());
    const server = entry && this.#servers.get(entry.key);
    return server && entry ? { server, languageId: entry.languageId } : undefined;
  }

  /** Sends the file's current text to its server and returns the diagnostics, or undefined if unhandled. */
  async diagnose(path: string): Promise<Diagnostic[] | undefined> {
    const target = this.serverFor(path);
    if (!target) return undefined;
    const text = await Bun.file(path).text();
    return target.server.syncAndDiagnose(path, target.languageId, text);
  }

  async stopAll(): Promise<void> {
    const servers = [...this.#servers.values()];
    await Promise.all(servers.map((server) => server.stop()));
  }
}
