/**
 * The search index cached in the state dir, keyed by a hash of what it was built from, in the
 * binary form of `index-file.ts`. For a catalog file it saves parsing the catalog and building;
 * the key of a pool's tools costs about what a build of them does, which is little.
 */
import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { AnyTool } from "../tool/types.ts";
import { toolDocument } from "./document.ts";
import { decodeIndex, encodeIndex } from "./index-file.ts";
import { ToolIndex } from "./tool-index.ts";

/** Bump when analysis or the serialized shape changes, so stale cache files are never read. */
const INDEX_FORMAT = 4;

export function contentKey(content: string | Uint8Array): string {
  return `${INDEX_FORMAT}-${new Bun.CryptoHasher("sha256").update(content).digest("hex").slice(0, 32)}`;
}

/** The index for `key` from the cache, or built by `build` and stored; without a state dir, built. */
export function cachedIndex(stateDir: string | undefined, key: string, build: () => ToolIndex): ToolIndex {
  if (!stateDir) return build();
  const dir = join(stateDir, "search-index");
  const file = join(dir, `${key}.idx`);
  try {
    return decodeIndex(readFileSync(file));
  } catch {
    // Missing or unreadable: build it again.
  }
  const index = build();
  try {
    mkdirSync(dir, { recursive: true });
    const partial = `${file}.${process.pid}.tmp`;
    writeFileSync(partial, encodeIndex(index));
    renameSync(partial, file);
  } catch {
    // A read-only state dir only costs the next call a rebuild.
  }
  return index;
}

/** The index of these tools, through the cache, keyed by every field the index reads. */
export function cachedToolIndex(stateDir: string | undefined, tools: readonly AnyTool[]): ToolIndex {
  const documents = tools.map(toolDocument);
  const aliases = tools.map((tool) => tool.aliases);
  const key = contentKey(JSON.stringify([documents, aliases]));
  return cachedIndex(stateDir, key, () => ToolIndex.fromDocuments(documents, aliases));
}
