/** Writable roots that would make the sandbox's write limit empty: the home, above it, system directories. */
import { describe, expect, test } from "bun:test";
import { buildSandboxProfile } from "../../src/sandbox/profile.ts";
import { SYSTEM_DIRS, unsafeWritableRoot } from "../../src/sandbox/writable-root-guard.ts";

const HOME = "/home/u";

describe("every reviewed system directory", () => {
  // A home of "/" turns the home check off, so each entry is seen on its own.
  for (const dir of SYSTEM_DIRS) {
    test(`${dir.path} (${dir.why}, ${dir.scope}) is refused${dir.scope === "tree" ? " with all below it" : ""}`, () => {
      expect(unsafeWritableRoot(dir.path, "/", "the workspace")).toContain(`${dir.path}: ${dir.why}`);
      const below = unsafeWritableRoot(`${dir.path === "/" ? "" : dir.path}/project`, "/", "the workspace");
      if (dir.scope === "tree") expect(below).toContain("inside a system directory");
      else expect(below).toBeNull();
    });
  }
});

describe("the home", () => {
  test("the home itself, each directory above it and / are refused, naming why", () => {
    expect(unsafeWritableRoot(HOME, HOME, "the workspace")).toContain("/home/u is the home directory");
    expect(unsafeWritableRoot("/home", HOME, "the workspace")).toContain("holds the home directory /home/u");
    expect(unsafeWritableRoot("/", HOME, "the workspace")).toContain("holds the home directory /home/u");
    expect(unsafeWritableRoot("/srv/h", "/srv/h/u", "the workspace")).toContain("holds the home directory");
  });
  test("a project in the home, or anywhere else, is fine", () => {
    for (
      const ws of [
        "/home/u/src/app",
        "/home/u/.cache/x",
        "/srv/app",
        "/opt/app",
        "/tmp/ws",
        "/usr/src/app",
        "/var/www/html",
      ]
    ) {
      expect(unsafeWritableRoot(ws, HOME, "the workspace"), ws).toBeNull();
    }
  });
  test("a home of / (a service account) refuses only /", () => {
    expect(unsafeWritableRoot("/srv/app", "/", "the workspace")).toBeNull();
    expect(unsafeWritableRoot("/", "/", "the workspace")).not.toBeNull();
  });
});

describe("profiles", () => {
  const real = (map: Record<string, string>) => (p: string) => map[p] ?? p;
  test("a workspace that is the home under another name (a link) is a problem, so every caller refuses", () => {
    const profile = buildSandboxProfile({}, "/link-to-home", {
      home: "/home/u",
      realPath: real({ "/link-to-home": "/home/u" }),
    });
    expect(profile.problems).toEqual([
      expect.stringContaining("the workspace /home/u is the home directory"),
    ]);
  });
  test("a home given through a link is compared by its real path", () => {
    const profile = buildSandboxProfile({}, "/data/u", {
      home: "/home/u",
      realPath: real({ "/home/u": "/data/u" }),
    });
    expect(profile.problems).toHaveLength(1);
  });
  test("allowWrite of the home or a system directory is refused too", () => {
    const profile = buildSandboxProfile({ allowWrite: ["~", "/etc/nginx"] }, "/home/u/app", {
      home: "/home/u",
      realPath: (p) => p,
    });
    expect(profile.problems).toEqual([
      expect.stringContaining("the writable path /home/u is the home directory"),
      expect.stringContaining("the writable path /etc/nginx is inside a system directory"),
    ]);
  });
  test("an ordinary project has no problem", () => {
    expect(buildSandboxProfile({}, "/home/u/app", { home: "/home/u", realPath: (p) => p }).problems).toEqual(
      [],
    );
  });
});
