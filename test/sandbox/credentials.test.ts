/** The credential list is the default policy's secrets-home rule, and a profile hides it unless allowed. */
import { describe, expect, test } from "bun:test";
import defaultPolicy from "../../policy/default.json" with { type: "json" };
import {
  CREDENTIAL_PATHS,
  credentialPathOf,
  hiddenCredentialPaths,
  isCredentialPath,
  READABLE_IN_SANDBOX,
} from "../../src/sandbox/credentials.ts";
import { buildSandboxProfile } from "../../src/sandbox/profile.ts";

const home = "/home/u";
const realPath = (path: string) => path;

describe("credential locations", () => {
  test("one per Read pattern of the default policy's secrets-home rule, nothing else", () => {
    const rule = defaultPolicy.rules.find((r) => r.id === "secrets-home")!;
    expect(CREDENTIAL_PATHS.length).toBe([rule.match].flat().length);
    expect(CREDENTIAL_PATHS).toContain("~/.ssh");
    expect(CREDENTIAL_PATHS).toContain("~/.docker/config.json");
    expect(CREDENTIAL_PATHS).toContain("/etc/shadow");
  });
  test("a pattern of another shape is an error naming it, not a silent gap", () => {
    expect(credentialPathOf("Read(~/.kube/**)")).toBe("~/.kube");
    expect(credentialPathOf("Read(//etc/gshadow)")).toBe("/etc/gshadow");
    expect(() => credentialPathOf("Read(~/.config/*/token)")).toThrow("Read(~/.config/*/token)");
    expect(() => credentialPathOf("Edit(~/.ssh/**)")).toThrow("secrets-home");
  });
  test("allowRead takes a listed one as written or as a shell expands it; others are not credential paths", () => {
    expect(hiddenCredentialPaths(["~/.npmrc", "/home/u/.netrc"], home)).not.toContain("~/.npmrc");
    expect(hiddenCredentialPaths(["~/.npmrc", "/home/u/.netrc"], home)).not.toContain("~/.netrc");
    expect(hiddenCredentialPaths([], home)).toEqual(
      CREDENTIAL_PATHS.filter((p) => !(p in READABLE_IN_SANDBOX)),
    );
    expect(isCredentialPath("/home/u/.ssh", home)).toBe(true);
    expect(isCredentialPath("~/.ssh/", home)).toBe(true);
    expect(isCredentialPath("~/src", home)).toBe(false);
  });
  test("the ones left readable in the sandbox are on the list, each with its reason", () => {
    for (const [path, why] of Object.entries(READABLE_IN_SANDBOX)) {
      expect(CREDENTIAL_PATHS).toContain(path);
      expect(why.length).toBeGreaterThan(20);
    }
  });
  test("a profile hides them besides its own denyRead, and knows which are credentials", () => {
    const profile = buildSandboxProfile({ denyRead: ["secrets"], allowRead: ["~/.npmrc"] }, "/w", {
      home,
      realPath,
    });
    expect(profile.denyRead[0]).toBe("/w/secrets");
    expect(profile.denyRead).toContain("/home/u/.ssh");
    expect(profile.denyRead).toContain("/etc/shadow");
    expect(profile.denyRead).not.toContain("/home/u/.npmrc");
    expect(profile.hiddenCredentials).toContain("/home/u/.aws");
    expect(profile.hiddenCredentials).not.toContain("/w/secrets");
    expect(profile.denyRead).not.toContain("/home/u/.m2/settings.xml");
    expect(profile.denyRead.length).toBe(
      1 + CREDENTIAL_PATHS.length - 1 - Object.keys(READABLE_IN_SANDBOX).length,
    );
  });
});
