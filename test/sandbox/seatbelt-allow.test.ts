/** The allow-lists of the macOS profile: every entry reviewed, none of them an escape. */
import { describe, expect, test } from "bun:test";
import { buildSandboxProfile } from "../../src/sandbox/profile.ts";
import {
  type AllowEntry,
  IOKIT_CLASSES,
  MACH_SERVICES,
  NEVER_ALLOWED,
  SYSCTL_READ,
  SYSCTL_WRITE,
} from "../../src/sandbox/seatbelt-allow.ts";
import { buildSbpl } from "../../src/sandbox/sbpl.ts";
import { decide, macDisk } from "./seatbelt-model.ts";

const noScan = { nestedGitDirs: [], linkedOutside: [], linkedOutsideDirs: [], aliasesOfDenied: [] };
const mac = macDisk({ "/Users/u/app": "dir" });
const generate = (proxyPorts: number[]) =>
  buildSbpl(buildSandboxProfile({}, "/Users/u/app", { home: "/Users/u", realPath: mac.realPath }), {
    tempDir: "/private/var/folders/t",
    proxyPorts,
    sessionTty: null,
    tag: "t",
    fs: mac.fs,
    scan: noScan,
  });
const withNetwork = generate([50001, 50002]);
const offline = generate([]);

const lists: Array<[string, readonly AllowEntry[], string, RegExp]> = [
  ["sysctl-read", SYSCTL_READ, "sysctl-read", /^[a-z][a-z0-9_]*(\.[a-z0-9_]+)*\.?$/],
  ["sysctl-write", SYSCTL_WRITE, "sysctl-write", /^[a-z][a-z0-9_]*(\.[a-z0-9_]+)*$/],
  ["mach-lookup", MACH_SERVICES, "mach-lookup", /^com\.apple\.[A-Za-z0-9_.]+$/],
  ["iokit-open", IOKIT_CLASSES, "iokit-open", /^[A-Za-z]+$/],
];

describe.each(lists)("%s", (_name, entries, operation, shape) => {
  test.each(entries.map((e) => [e.name, e] as const))(
    "%s: reviewed, shaped right, and allowed",
    (name, entry) => {
      expect(entry.why.length, `${name} says why`).toBeGreaterThan(10);
      expect(["codex", "srt", "codex+srt"]).toContain(entry.anchor);
      expect(name).toMatch(shape);
      expect(Object.hasOwn(NEVER_ALLOWED, name), `${name} is never allowed`).toBe(false);
      const probe = entry.prefix ? `${name}x` : name;
      expect(decide(withNetwork, operation, probe)).toBe("allow");
      expect(decide(offline, operation, probe)).toBe(entry.networkOnly ? "deny" : "allow");
    },
  );
});

describe("never allowed, with or without network", () => {
  test.each(Object.entries(NEVER_ALLOWED))("%s (%s)", (name) => {
    const operation = name.startsWith("kern.") ? "sysctl-read" : "mach-lookup";
    expect(decide(withNetwork, operation, name)).toBe("deny");
    expect(decide(offline, operation, name)).toBe("deny");
  });
});
