/**
 * Golden profiles: the whole SBPL toolrt generates for a set of macOS workspaces, so any change to
 * it is a reviewed diff. Regenerate with `UPDATE_GOLDEN=1 npx bun test test/sandbox/sbpl-golden.test.ts`
 * and read the diff. Each is also checked for what sandbox-exec needs (sbpl-check.ts).
 */
import { describe, expect, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { EntryKind } from "../../src/sandbox/paths.ts";
import { buildSandboxProfile, type SandboxSettings } from "../../src/sandbox/profile.ts";
import { buildSbpl, type SeatbeltRun } from "../../src/sandbox/sbpl.ts";
import { checkSbpl, SBPL_MAX_STRING_BYTES } from "../../src/sandbox/sbpl-check.ts";
import { macDisk } from "./seatbelt-model.ts";

const GOLDEN = join(import.meta.dir, "golden");
const HOME = "/Users/u";
const noScan = { nestedGitDirs: [], linkedOutside: [], linkedOutsideDirs: [], aliasesOfDenied: [] };
const LONG = Array.from({ length: 6 }, (_, i) => `${String(i).repeat(3)}-${"x".repeat(190)}`).join("/");

interface Golden {
  name: string;
  /** The workspace as the user gives it (may go through /tmp or /var). */
  workspace: string;
  /** The disk, real paths. */
  disk: Record<string, EntryKind>;
  settings?: SandboxSettings;
  run?: Partial<SeatbeltRun>;
}

const repo = (root: string): Record<string, EntryKind> => ({
  [root]: "dir",
  [`${root}/.git`]: "dir",
  [`${root}/.git/hooks`]: "dir",
  [`${root}/.git/config`]: "file",
});

const goldens: Golden[] = [
  {
    name: "tmp-symlink-default",
    workspace: "/tmp/app",
    disk: repo("/private/tmp/app"),
  },
  {
    name: "var-folders-network-localhost",
    workspace: "/var/folders/zz/abc123/T/ws",
    disk: { "/private/var/folders/zz/abc123/T/ws": "dir" },
    settings: { allowNet: ["registry.npmjs.org"], allowLocalhost: true },
    run: { proxyPorts: [50001, 50002], sessionTty: "/dev/ttys004" },
  },
  {
    name: "quotes-and-spaces",
    workspace: `${HOME}/it's "quoted"/my app`,
    disk: {
      ...repo(`${HOME}/it's "quoted"/my app`),
      [`${HOME}/it's "quoted"/my app/dist`]: "dir",
      [`${HOME}/it's "quoted"/my app/.claude`]: "dir",
      [`${HOME}/.ssh`]: "dir",
    },
    settings: { denyRead: ["~/.ssh"], denyWrite: ["dist"] },
  },
  {
    name: "unicode",
    workspace: `${HOME}/Prøjekt 日本/ü`,
    disk: { [`${HOME}/Prøjekt 日本/ü`]: "dir", [`${HOME}/Prøjekt 日本/ü/Résumé`]: "file" },
    settings: { denyWrite: ["Résumé"], denyRead: ["secrets/ключ"] },
  },
  {
    name: "long-path",
    workspace: `${HOME}/${LONG}`,
    disk: repo(`${HOME}/${LONG}`),
    settings: { denyWrite: [".env.production"] },
  },
  {
    name: "nested-repo-and-hard-links",
    workspace: "/Users/u/src/app",
    disk: {
      ...repo("/Users/u/src/app"),
      ...repo("/Users/u/src/app/vendor/lib"),
      "/Users/u/src/app/node_modules/.pnpm/a@1/node_modules/a/index.js": "file",
      "/Users/u/src/app/.env": "file",
      "/Users/u/src/app/env-copy": "file",
    },
    settings: { denyRead: [".env"] },
    run: {
      scan: {
        nestedGitDirs: ["/Users/u/src/app/vendor/lib/.git"],
        linkedOutside: ["/Users/u/src/app/node_modules/.pnpm/a@1/node_modules/a/index.js"],
        linkedOutsideDirs: ["/Users/u/src/app/node_modules/.pnpm/b@2"],
        aliasesOfDenied: ["/Users/u/src/app/env-copy"],
      },
    },
  },
];

function generate(golden: Golden) {
  const mac = macDisk(golden.disk);
  const profile = buildSandboxProfile(golden.settings ?? {}, golden.workspace, {
    home: HOME,
    realPath: mac.realPath,
  });
  return buildSbpl(profile, {
    tempDir: "/private/var/folders/zz/abc123/T/toolrt-sbx-Qx7d2a/tmp",
    proxyPorts: [],
    sessionTty: null,
    tag: "toolrt-0123456789ab",
    fs: mac.fs,
    scan: noScan,
    ...golden.run,
  });
}

describe("golden SBPL profiles", () => {
  test.each(goldens.map((g) => [g.name, g] as const))("%s", (name, golden) => {
    const sbpl = generate(golden);
    const file = join(GOLDEN, `${name}.sb`);
    if (process.env.UPDATE_GOLDEN === "1") writeFileSync(file, sbpl.text);
    expect(sbpl.problems).toEqual([]);
    expect(checkSbpl(sbpl.text, sbpl.params.map(([n]) => n))).toEqual([]);
    expect(sbpl.text).toBe(readFileSync(file, "utf8"));
  });

  test("the long workspace's path is over sandbox-exec's string limit, and only a parameter holds it", () => {
    const sbpl = generate(goldens.find((g) => g.name === "long-path")!);
    const root = Object.fromEntries(sbpl.params).WRITABLE_ROOT_0!;
    expect(new TextEncoder().encode(root).length).toBeGreaterThan(SBPL_MAX_STRING_BYTES);
    expect(sbpl.text.split("\n").filter((line) => !line.startsWith(";")).join("\n")).not.toContain(LONG);
  });

  test("a path that cannot be written into a rule is a refusal, not a broken profile", () => {
    const deep = Array.from({ length: 200 }, () => "d").join("/");
    const sbpl = generate({
      name: "deep",
      workspace: `${HOME}/${deep}`,
      disk: { [`${HOME}/${deep}`]: "dir" },
    });
    expect(sbpl.problems[0]).toContain("too deep, or too long a name, for a Seatbelt rule");
  });
});
