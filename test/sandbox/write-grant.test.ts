/** The write exception offered to a person: narrow, existing, never the whole home or system. */
import { expect, test } from "bun:test";
import { narrowWriteGrant } from "../../src/sandbox/write-grant.ts";

const existing = new Set([
  "/",
  "/home",
  "/home/u",
  "/home/u/.npm",
  "/home/u/.npm/_cacache",
  "/srv",
  "/srv/data",
  "/etc",
  "/etc/hosts",
  "/opt",
  "/opt/tool",
]);
const exists = (path: string) => existing.has(path);
const grant = (path: string) => narrowWriteGrant(path, "/home/u", exists);

test.each([
  ["/home/u/.npm/_cacache/tmp/abc", "/home/u/.npm", "inside a package cache: the cache"],
  ["/srv/data/out.csv", "/srv/data", "a new file: the directory it goes in"],
  ["/srv/data/a/b/c.txt", "/srv/data", "a new file in new directories: the nearest existing one"],
  ["/etc/hosts", "/etc/hosts", "an existing file: that file"],
  ["/opt/tool", "/opt/tool", "an existing directory: that directory"],
])("%s → %s (%s)", (path, expected) => {
  expect(grant(path)).toBe(expected);
});

test.each([
  ["/etc/new.conf", "its directory is a top-level one"],
  ["/home/u/notes.txt", "its directory is the home directory"],
  ["/home/v/x", "the nearest existing directory is above the home"],
  ["/newdir/x", "only / exists above it"],
])("%s: nothing to offer (%s)", (path) => {
  expect(grant(path)).toBeUndefined();
});
