/**
 * Proxies (rustup's `cargo`, `rustc`, ...) run the program a file in their directory or above picks
 * (`src/bash/toolchains.ts`). Inside the workspace anyone may have written that file.
 */
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { isInside } from "../tool/paths.ts";

/**
 * The first of `names` in `start` or a directory above it, up to the root of the workspace that
 * holds `start` (outside every root, up to `/`: a host's shell may have moved there, and a file
 * there is nobody's word either): a file there picks the program a proxy runs.
 */
export function pickingFile(
  start: string,
  roots: readonly string[],
  names: readonly string[],
): string | undefined {
  const root = roots.find((r) => isInside(start, r)) ?? "/";
  if (names.length === 0) return undefined;
  for (let dir = start;; dir = dirname(dir)) {
    const found = names.map((name) => join(dir, name)).find((file) => existsSync(file));
    if (found !== undefined) return found;
    if (dir === root || dir === dirname(dir)) return undefined;
  }
}
