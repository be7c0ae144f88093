/**
 * The live pool of a session. Every change — an MCP server (re)connecting or announcing
 * list_changed, a plugin loaded or disabled, a mode switch — goes through `refreshPool()`, so the
 * visible tools are always rebuilt the same way.
 */
import type { AnyTool } from "../tool/types.ts";
import { type AssembledPool, assembleToolPool, type PoolOptions } from "./assemble.ts";

export type PoolListener = (pool: AssembledPool) => void;

export class ToolPool {
  readonly #builtins: readonly AnyTool[];
  readonly #sources = new Map<string, readonly AnyTool[]>();
  readonly #listeners = new Set<PoolListener>();
  #options: PoolOptions;
  #current: AssembledPool;

  constructor(builtins: readonly AnyTool[], options: PoolOptions) {
    this.#builtins = builtins;
    this.#options = options;
    this.#current = this.#assemble();
  }

  get current(): AssembledPool {
    return this.#current;
  }

  get options(): PoolOptions {
    return this.#options;
  }

  /** Replaces the tools of one external source (`mcp:github`, `plugin:lint`, ...) and refreshes. */
  setSource(sourceId: string, tools: readonly AnyTool[]): AssembledPool {
    this.#sources.set(sourceId, tools);
    return this.refreshPool();
  }

  removeSource(sourceId: string): AssembledPool {
    this.#sources.delete(sourceId);
    return this.refreshPool();
  }

  setOptions(options: Partial<PoolOptions>): AssembledPool {
    this.#options = { ...this.#options, ...options };
    return this.refreshPool();
  }

  /** The one path that rebuilds the visible pool; listeners hear every rebuild. */
  refreshPool(): AssembledPool {
    this.#current = this.#assemble();
    for (const listener of this.#listeners) listener(this.#current);
    return this.#current;
  }

  onChange(listener: PoolListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Finds a visible tool by name or alias. */
  find(name: string): AnyTool | undefined {
    return this.#current.byName.get(name);
  }

  #assemble(): AssembledPool {
    const external = [...this.#sources.values()].flat();
    return assembleToolPool(this.#builtins, external, this.#options);
  }
}
