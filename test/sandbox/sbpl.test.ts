import { describe, expect, test } from "bun:test";
import { buildSandboxProfile } from "../../src/sandbox/profile.ts";
import { sbplProfile, sbplString } from "../../src/sandbox/sbpl.ts";

// Untested on a real Mac: these pin the generated text only.
describe("SBPL profile (macOS sandbox-exec)", () => {
  const profile = {
    ...buildSandboxProfile({}, "/"),
    workspace: "/Users/u/my app",
    writableRoots: ["/Users/u/my app"],
    denyRead: ["/Users/u/.ssh"],
    denyWrite: ["/Users/u/my app/dist"],
  };
  const text = sbplProfile(profile, { tempDir: "/private/tmp/run", proxyPort: 4321 });
  test("denies by default and reads everything but the denied paths", () => {
    expect(text).toStartWith("(version 1)\n(deny default)\n");
    expect(text).toContain("(allow file-read*)");
    expect(text).toContain('(deny file-read* (subpath "/Users/u/.ssh"))');
  });
  test("writes only in the workspace and the temp dir", () => {
    expect(text).toContain('(allow file-write* (subpath "/Users/u/my app") (subpath "/private/tmp/run"))');
  });
  test("protected paths are denied after the allow, so they win", () => {
    const allowAt = text.indexOf("(allow file-write* (subpath");
    for (
      const rule of [
        '(literal "/Users/u/my app/.bashrc")',
        '(subpath "/Users/u/my app/.git/hooks")',
        '(subpath "/Users/u/my app/dist")',
      ]
    ) {
      expect(text.indexOf(`(deny file-write* ${rule})`), rule).toBeGreaterThan(allowAt);
    }
  });
  test("network: only the proxy port on localhost, and none without a proxy", () => {
    expect(text).toContain('(allow network-outbound (remote ip "localhost:4321"))');
    expect(sbplProfile(profile, { tempDir: "/t", proxyPort: null })).not.toContain("network-outbound");
  });
  test("strings are escaped", () => expect(sbplString('a"b\\c')).toBe('"a\\"b\\\\c"'));
});
