/** Registry and package-cache presets: what each expands to, and what is never in them. */
import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { expandPresets, NET_PRESETS, WRITE_PRESETS } from "../../src/sandbox/presets.ts";
import { buildSandboxProfile } from "../../src/sandbox/profile.ts";

const home = "/home/u";

describe("registry presets", () => {
  test.each(Object.entries(NET_PRESETS))(
    "%s expands to its hosts, in place, without duplicates",
    (name, hosts) => {
      const { allowNet, problems } = expandPresets({ allowNet: ["example.com", name, hosts[0]!] }, home);
      expect(allowNet).toEqual(["example.com", ...hosts]);
      expect(problems).toEqual([]);
    },
  );

  test("every registry host is a plain host name (no wildcard, no port): presets stay narrow", () => {
    for (const host of Object.values(NET_PRESETS).flat()) expect(host).toMatch(/^[a-z0-9.-]+\.[a-z]+$/);
  });

  test("an unknown preset is dropped and named", () => {
    expect(expandPresets({ allowNet: ["@nmp"] }, home)).toEqual({
      allowNet: [],
      allowWrite: [],
      problems: ["unknown allowNet preset @nmp; known: @npm, @pypi, @crates, @go, @maven"],
    });
  });
});

describe("the package-cache preset", () => {
  test("expands to the caches that exist, nothing else", () => {
    const present = new Set([join(home, ".npm"), join(home, ".cache/pip")]);
    const { allowWrite } = expandPresets(
      { allowWrite: ["build", "@package-caches"] },
      home,
      (path) => present.has(path),
    );
    expect(allowWrite).toEqual(["build", "~/.npm", "~/.cache/pip"]);
  });

  test("it holds download caches only: no configuration file or directory a tool reads on start", () => {
    for (const path of WRITE_PRESETS["@package-caches"]!) {
      expect(path).toStartWith("~/");
      expect(path).not.toMatch(/rc$|config|\/\.cargo$|\/bin\b|settings/);
    }
  });

  test("on macOS the same tools' caches under ~/Library, by name: never ~/Library/Caches as a whole", () => {
    const mac = "/Users/u";
    const present = new Set([
      join(mac, "Library/Caches/pip"),
      join(mac, "Library/Caches/Yarn"),
      join(mac, ".npm"),
    ]);
    const { allowWrite } = expandPresets(
      { allowWrite: ["@package-caches"] },
      mac,
      (path) => present.has(path),
    );
    expect(allowWrite).toEqual(["~/.npm", "~/Library/Caches/Yarn", "~/Library/Caches/pip"]);
    const library = WRITE_PRESETS["@package-caches"]!.filter((p) => p.startsWith("~/Library/"));
    expect(library.length).toBeGreaterThan(3);
    for (const path of library) expect(path).toMatch(/^~\/Library\/(Caches|pnpm)\/[A-Za-z-]+(\/store)?$/);
  });

  test("paths the user wrote themselves are kept even when missing", () => {
    expect(expandPresets({ allowWrite: ["~/.npm"] }, home, () => false).allowWrite).toEqual(["~/.npm"]);
  });
});

test("the profile carries the expanded hosts, and an unknown preset is a refusal", () => {
  const profile = buildSandboxProfile({ allowNet: ["@go", "@nope"] }, "/srv/app");
  expect(profile.allowNet).toEqual(["proxy.golang.org", "sum.golang.org"]);
  expect(profile.problems).toEqual([
    "unknown allowNet preset @nope; known: @npm, @pypi, @crates, @go, @maven",
  ]);
});
