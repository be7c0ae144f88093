/** Every source, its precedence, trust, lock, fail-closed loading and session grants. */
import { describe, expect, test } from "bun:test";
import { chmodSync } from "node:fs";
import { join } from "node:path";
import { grantForSession, readGrants } from "../../src/policy/session-grants.ts";
import { isTrusted, setTrust } from "../../src/policy/trust.ts";
import { bashCall, decideIn, rules, sandbox } from "./helpers.ts";

const gitStatus = bashCall("git status");

describe("each source is read", () => {
  const cases: [string, (box: ReturnType<typeof sandbox>) => Record<string, unknown>][] = [
    [
      "managed",
      (b) => ({
        file: b.write(
          "managed/managed-policy.json",
          rules({ id: "m", effect: "deny", match: "Bash(git:*)" }),
        ),
      }),
    ],
    [
      "managed",
      (b) => ({
        file: b.write(
          "managed/managed-policy.d/10-git.json",
          rules({ id: "m", effect: "deny", match: "Bash(git:*)" }),
        ),
      }),
    ],
    [
      "user",
      (b) => ({
        file: b.write(
          "home/.config/toolrt/policy.json",
          rules({ id: "u", effect: "deny", match: "Bash(git:*)" }),
        ),
      }),
    ],
    [
      "project",
      (b) => ({
        file: b.write("work/.toolrt/policy.json", rules({ id: "p", effect: "deny", match: "Bash(git:*)" })),
      }),
    ],
    [
      "local",
      (b) => ({
        file: b.write(
          "work/.toolrt/policy.local.json",
          rules({ id: "l", effect: "deny", match: "Bash(git:*)" }),
        ),
      }),
    ],
    [
      "flag",
      (b) => ({ flagFiles: [b.write("f.json", rules({ id: "f", effect: "deny", match: "Bash(git:*)" }))] }),
    ],
    ["cli", () => ({ cliRules: { deny: ["Bash(git:*)"] } })],
    [
      "claude",
      (b) => ({
        file: b.write("home/.claude/settings.json", { permissions: { deny: ["Bash(git:*)"] } }),
        claudeSettings: true,
      }),
    ],
    [
      "claude",
      (b) => ({
        file: b.write("work/.claude/settings.json", { permissions: { deny: ["Bash(git:*)"] } }),
        claudeSettings: true,
      }),
    ],
    [
      "claude",
      (b) => ({
        file: b.write("work/.claude/settings.local.json", { permissions: { deny: ["Bash(git:*)"] } }),
        claudeSettings: true,
      }),
    ],
  ];
  for (const [source, setup] of cases) {
    test(`${source}: ${setup(sandbox()).file ?? "options"}`.replace(/\/tmp\/[^/]+\//, ""), () => {
      const box = sandbox();
      const { file, ...options } = setup(box);
      const decision = decideIn(box, box.load(options), gitStatus);
      expect(decision.decision).toBe("deny");
      expect(decision.matched[0]!.source).toBe(source as never);
      if (typeof file === "string") expect(decision.matched[0]!.file).toBe(file);
    });
  }

  test("session grants are persisted per workspace and loaded as the session source", () => {
    const box = sandbox();
    const loaded = box.load();
    expect(decideIn(box, loaded, bashCall("npm test")).decision).toBe("ask");
    const granted = grantForSession(loaded.policy, box.stateDir, box.cwd, "Bash(npm test)");
    expect(decideIn(box, { ...loaded, policy: granted }, bashCall("npm test")).matched[0]!.source).toBe(
      "session",
    );
    const reloaded = decideIn(box, box.load(), bashCall("npm test"));
    expect(reloaded.decision).toBe("allow");
    expect(reloaded.matched[0]).toMatchObject({ source: "session", rule: "Bash(npm test)", effect: "allow" });
    expect(readGrants(box.stateDir, join(box.root, "other"))).toEqual([]);
    expect(() => grantForSession(loaded.policy, box.stateDir, box.cwd, "Bash(npm")).toThrow(
      "missing closing",
    );
  });

  test("claudeSettings: true in a policy file switches the Claude source on", () => {
    const box = sandbox();
    box.write("home/.claude/settings.json", { permissions: { allow: ["Bash(make *)"] } });
    expect(decideIn(box, box.load(), bashCall("make all")).decision).toBe("ask");
    box.write("home/.config/toolrt/policy.json", { claudeSettings: true, rules: [] });
    expect(decideIn(box, box.load(), bashCall("make all")).decision).toBe("allow");
  });

  test("the embedded default policy is the lowest layer", () => {
    const box = sandbox();
    const decision = decideIn(box, box.load(), { tool: "Read", input: { file_path: ".env" } });
    expect(decision.matched[0]).toMatchObject({ source: "default", id: "secrets-files" });
  });
});

describe("precedence: deny > ask > allow across all sources", () => {
  test("a managed deny beats a session allow", () => {
    const box = sandbox();
    box.write(
      "managed/managed-policy.json",
      rules({ id: "no-push", effect: "deny", match: "Bash(git push:*)" }),
    );
    const loaded = box.load();
    const policy = grantForSession(loaded.policy, box.stateDir, box.cwd, "Bash(git push origin main)");
    const decision = decideIn(box, { ...loaded, policy }, bashCall("git push origin main"));
    expect(decision.decision).toBe("deny");
    expect(decision.matched.map((m) => m.source)).toEqual(["managed"]);
    expect(decision.overridden.map((m) => m.source)).toEqual(["session"]);
  });

  test("a broad user ask beats a narrow project allow, and the reason says so", () => {
    const box = sandbox();
    setTrust(box.stateDir, box.cwd);
    box.write("home/.config/toolrt/policy.json", rules({ id: "git", effect: "ask", match: "Bash(git:*)" }));
    box.write(
      "work/.toolrt/policy.json",
      rules({ id: "status", effect: "allow", match: "Bash(git status:*)" }),
    );
    const decision = decideIn(box, box.load(), gitStatus);
    expect(decision.decision).toBe("ask");
    expect(decision.reason).toBe("Bash(git status:*) allowed by project, but Bash(git:*) asks from user");
  });

  test("a low-layer ask (default) beats a high-layer allow (cli)", () => {
    const box = sandbox();
    const loaded = box.load({ cliRules: { allow: ["Read(.env)"] } });
    const decision = decideIn(box, loaded, { tool: "Read", input: { file_path: ".env" } });
    expect(decision.decision).toBe("ask");
    expect(decision.matched[0]).toMatchObject({ source: "default", id: "secrets-files" });
  });

  test("lock: only managed rules apply", () => {
    const box = sandbox();
    box.write("managed/managed-policy.json", {
      lock: true,
      rules: [{ id: "ok", effect: "allow", match: "Bash(npm test)" }],
    });
    box.write("home/.config/toolrt/policy.json", rules({ id: "u", effect: "allow", match: "Bash(make)" }));
    const loaded = box.load({ cliRules: { deny: ["Bash(npm test)"] } });
    expect(loaded.warnings.join()).toContain("is locked: only managed rules apply");
    expect(decideIn(box, loaded, bashCall("npm test")).decision).toBe("allow");
    expect(decideIn(box, loaded, bashCall("make")).decision).toBe("ask");
  });

  test("lock in a non-managed file has no effect and is reported", () => {
    const box = sandbox();
    box.write("home/.config/toolrt/policy.json", { lock: true, rules: [] });
    const loaded = box.load({ cliRules: { allow: ["Bash(make)"] } });
    expect(loaded.warnings[0]).toContain('"lock" only takes effect in the managed policy');
    expect(decideIn(box, loaded, bashCall("make")).decision).toBe("allow");
  });

  test("managed disableBypassPermissions turns bypassPermissions into default", () => {
    const box = sandbox();
    box.write("managed/managed-policy.json", { disableBypassPermissions: true, rules: [] });
    const loaded = box.load({ mode: "bypassPermissions" });
    expect(loaded.warnings.join()).toContain("bypassPermissions is disabled");
    const decision = decideIn(box, loaded, { ...bashCall("make"), mode: "bypassPermissions" });
    expect(decision.decision).toBe("ask");
    expect(decision.warnings[0]).toContain("bypassPermissions is disabled by");
  });
});

describe("workspace trust", () => {
  test("project, local and Claude project allows apply only once trusted; their denies always", () => {
    const box = sandbox();
    box.write(
      "work/.toolrt/policy.json",
      rules(
        { id: "build", effect: "allow", match: "Bash(make)" },
        { id: "no-curl", effect: "deny", match: "Bash(curl:*)" },
      ),
    );
    box.write(
      "work/.toolrt/policy.local.json",
      rules({ id: "mine", effect: "allow", match: "Bash(make test)" }),
    );
    box.write("work/.claude/settings.json", { permissions: { allow: ["Bash(npm install)"] } });
    const untrusted = box.load({ claudeSettings: true });
    const make = decideIn(box, untrusted, bashCall("make"));
    expect(make.decision).toBe("ask");
    expect(make.untrusted).toEqual([expect.objectContaining({ id: "build", source: "project" })]);
    expect(decideIn(box, untrusted, bashCall("make test")).untrusted[0]!.source).toBe("local");
    expect(decideIn(box, untrusted, bashCall("npm install")).untrusted[0]!.source).toBe("claude");
    expect(decideIn(box, untrusted, bashCall("curl x")).decision).toBe("deny");

    expect(setTrust(box.stateDir, box.cwd)).toBe(true);
    expect(isTrusted(box.stateDir, join(box.cwd, "sub"))).toBe(true);
    const trusted = box.load({ claudeSettings: true });
    expect(decideIn(box, trusted, bashCall("make")).decision).toBe("allow");
    expect(decideIn(box, trusted, bashCall("npm install")).decision).toBe("allow");

    setTrust(box.stateDir, box.cwd, true);
    expect(decideIn(box, box.load(), bashCall("make")).decision).toBe("ask");
  });

  test("user-level Claude settings allow without trust", () => {
    const box = sandbox();
    box.write("home/.claude/settings.json", { permissions: { allow: ["Bash(make)"] } });
    expect(decideIn(box, box.load({ claudeSettings: true }), bashCall("make")).decision).toBe("allow");
  });
});

describe("broken files", () => {
  test("a broken managed policy fails closed, naming the file", () => {
    const box = sandbox();
    const file = box.write("managed/managed-policy.json", "{ not json");
    const loaded = box.load({ cliRules: { allow: ["Read"] } });
    expect(loaded.managedErrors[0]!.file).toBe(file);
    const decision = decideIn(box, loaded, { tool: "Read", input: { file_path: "a" } });
    expect(decision.decision).toBe("deny");
    expect(decision.reason).toContain(file);
    expect(decision.reason).toContain("every tool call is denied");
  });

  test("an unreadable managed drop-in fails closed too", () => {
    const box = sandbox();
    box.write("managed/managed-policy.d/a.json", rules());
    const dropIn = join(box.managedDir, "managed-policy.d");
    chmodSync(dropIn, 0o000);
    try {
      const loaded = box.load();
      const canRead = loaded.managedErrors.length === 0; // root reads anything
      if (!canRead) expect(decideIn(box, loaded, bashCall("ls")).decision).toBe("deny");
    } finally {
      chmodSync(dropIn, 0o755);
    }
  });

  test("a broken user or project file is an error, and the policy denies everything", () => {
    const box = sandbox();
    const file = box.write("work/.toolrt/policy.json", '{"rules": [}');
    const loaded = box.load();
    expect(loaded.errors.map((e) => e.message)).toEqual([
      `${file}:1:12: not valid JSON: expected a JSON value (trailing commas are not allowed)`,
    ]);
    expect(decideIn(box, loaded, bashCall("ls")).decision).toBe("deny");
  });

  test("a project policy that is a directory is an error, not an empty policy", () => {
    const box = sandbox();
    box.write("work/.toolrt/policy.json/x", "");
    const loaded = box.load();
    expect(loaded.errors[0]!.message).toContain("is a directory, expected a file");
  });

  test("a missing --policy file is an error", () => {
    const box = sandbox();
    const loaded = box.load({ flagFiles: ["nope.json"] });
    expect(loaded.errors[0]!.message).toContain("nope.json:1:1: cannot read the policy: no such file");
  });
});
