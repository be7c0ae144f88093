/**
 * One tool source feeding several pools — a session's and each of its subagents'. The latest tools
 * of every source are kept, so a pool that joins later gets them at once.
 */
import type { AnyTool } from "../tool/types.ts";

/** What a tool source needs of a pool (a ToolPool, or a fan-out to several). */
export interface PoolSink {
  setSource(sourceId: string, tools: readonly AnyTool[]): unknown;
  removeSource(sourceId: string): unknown;
}

export class PoolFanOut implements PoolSink {
  readonly #pools = new Set<PoolSink>();
  readonly #sources = new Map<string, readonly AnyTool[]>();

  /** Starts feeding a pool, replaying every current source; returns the detach. */
  attach(pool: PoolSink): () => void {
    this.#pools.add(pool);
    for (const [id, tools] of this.#sources) pool.setSource(id, tools);
    return () => this.#pools.delete(pool);
  }

  setSource(id: string, tools: readonly AnyTool[]): void {
    this.#sources.set(id, tools);
    for (const pool of this.#pools) pool.setSource(id, tools);
  }

  removeSource(id: string): void {
    this.#sources.delete(id);
    for (const pool of this.#pools) pool.removeSource(id);
  }
}
