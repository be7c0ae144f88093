/**
 * The narrow exception a person is offered when the sandbox blocked a write outside the writable
 * paths: the blocked path itself, or the nearest directory above it that exists (bwrap can only
 * bind what exists), the package cache it lies in when it is one, and never so wide a directory
 * that granting it would amount to turning the sandbox off (`/`, a top-level directory, the home
 * directory or one above it). Pure: existence is asked of `exists`.
 */
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { isInside } from "../tool/paths.ts";
import { WRITE_PRESETS } from "./presets.ts";

/** @example narrowWriteGrant("/home/u/.npm/_cacache/tmp/x", "/home/u") // "/home/u/.npm" when it exists */
export function narrowWriteGrant(
  path: string,
  home: string,
  exists: (path: string) => boolean = existsSync,
): string | undefined {
  const caches = (WRITE_PRESETS["@package-caches"] ?? []).map((entry) => join(home, entry.slice(2)));
  const cache = caches.find((dir) => isInside(path, dir) && exists(dir));
  if (cache) return cache;
  let candidate = path;
  while (!exists(candidate) && candidate !== dirname(candidate)) candidate = dirname(candidate);
  return tooWide(candidate, home) ? undefined : candidate;
}

function tooWide(path: string, home: string): boolean {
  return path.split("/").filter(Boolean).length <= 1 || isInside(home, path);
}
