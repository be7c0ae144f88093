/** The policy's `sandbox` section: schema errors with positions, and merging across sources and trust. */
import { describe, expect, test } from "bun:test";
import { compilePolicyText } from "../../src/policy/policy-file.ts";
import { DEFAULT_SANDBOX_POLICY, mergeSandboxSections } from "../../src/policy/sandbox-policy.ts";
import { setTrust } from "../../src/policy/trust.ts";
import { sandbox } from "./helpers.ts";

const context = {
  source: "user" as const,
  anchors: { cwd: "/w", home: "/h", sourceBase: "/h" },
  trusted: true,
};
const problems = (section: string) =>
  compilePolicyText("p.json", `{\n  "sandbox": ${section}\n}`, context).errors.map((e) => e.message);

describe("sandbox section: bad input is an error at file:line:column", () => {
  const cases: [string, string, string][] = [
    [
      "unknown field",
      '{ "allowNetwork": ["x.com"] }',
      'p.json:2:16: unknown field "allowNetwork" in sandbox; expected one of: enabled, autoAllow, allowWrite, denyRead, ' +
      "allowRead, denyWrite, allowNet, allowLocalhost, unsetEnv, excludedCommands, allowUnsandboxedCommands, " +
      "runAsRoot, privateTmp, limits, whenUnavailable",
    ],
    [
      "whenUnavailable out of its two values",
      '{ "whenUnavailable": "ignore" }',
      'p.json:2:35: sandbox.whenUnavailable: Invalid option: expected one of "refuse"|"warn"',
    ],
    [
      "enabled as a string",
      '{ "enabled": "yes" }',
      "p.json:2:27: sandbox.enabled: Invalid input: expected boolean",
    ],
    [
      "a host with a URL scheme",
      '{ "allowNet": ["https://x.com"] }',
      "p.json:2:29: sandbox.allowNet[0]: expected a host: example.com, *.example.com or example.com:443",
    ],
    ["an empty path", '{ "denyRead": [""] }', "p.json:2:29: sandbox.denyRead[0]: an empty path"],
    [
      "a blank excluded command",
      '{ "excludedCommands": ["  "] }',
      "p.json:2:37: sandbox.excludedCommands[0]: an empty command prefix",
    ],
    [
      "allowRead of a path that is not a hidden credential location",
      '{ "allowRead": ["~/src"] }',
      "p.json:2:30: sandbox.allowRead[0]: ~/src is not a credential location hidden by default; those are: ~/.ssh,",
    ],
    [
      "a memory limit that is not a size",
      '{ "limits": { "memory": "lots" } }',
      "p.json:2:38: sandbox.limits.memory: expected bytes or a size such as 512M or 2G",
    ],
    [
      "a process limit of zero",
      '{ "limits": { "processes": 0 } }',
      "p.json:2:41: sandbox.limits.processes: Too small",
    ],
    [
      "an unknown limit",
      '{ "limits": { "disk": "1G" } }',
      'p.json:2:28: unknown field "disk" in sandbox.limits; expected one of: processes, memory, cpuSeconds, ' +
      "wallSeconds, tmpSize",
    ],
    [
      "a list given as a string",
      '{ "allowWrite": "/tmp" }',
      "p.json:2:30: sandbox.allowWrite: Invalid input: expected array",
    ],
  ];
  for (const [name, section, message] of cases) {
    test(name, () => {
      const found = problems(section);
      expect(found.length, JSON.stringify(found)).toBe(1);
      expect(found[0]).toStartWith(message);
    });
  }

  test("a broken sandbox section makes the whole policy deny every call", () => {
    const box = sandbox();
    box.write("home/.config/toolrt/policy.json", { sandbox: { enabled: "no" } });
    const loaded = box.load();
    expect(loaded.errors[0]!.message).toContain("sandbox.enabled");
    expect(loaded.policy.state.failClosed).toContain("a policy file is broken");
  });

  test("presets must be ones toolrt knows, and the message lists them", () => {
    expect(
      problems(
        '{ "allowNet": ["@npm", "@pypi", "@crates", "@go", "@maven"], "allowWrite": ["@package-caches"] }',
      ),
    )
      .toEqual([]);
    expect(problems('{ "allowNet": ["@nmp"] }')).toEqual([
      "p.json:2:29: sandbox.allowNet[0]: unknown allowNet preset @nmp; known: @npm, @pypi, @crates, @go, @maven",
    ]);
    expect(problems('{ "allowWrite": ["@caches"] }')).toEqual([
      "p.json:2:31: sandbox.allowWrite[0]: unknown allowWrite preset @caches; known: @package-caches",
    ]);
  });

  test("host forms the proxy understands are accepted", () => {
    expect(problems('{ "allowNet": ["example.com", "*.example.com", "example.com:443", "[::1]:8080"] }'))
      .toEqual([]);
  });
});

describe("merging sandbox sections", () => {
  const user = (sandbox: object) => ({ source: "user" as const, file: "u.json", trusted: true, sandbox });
  const managed = (sandbox: object) => ({
    source: "managed" as const,
    file: "m.json",
    trusted: true,
    sandbox,
  });
  const project = (sandbox: object, trusted: boolean) => ({
    source: "project" as const,
    file: "p.json",
    trusted,
    sandbox,
  });

  test("no section: sandboxed, no exceptions, refuse without a sandbox", () => {
    expect(mergeSandboxSections([])).toEqual({ policy: DEFAULT_SANDBOX_POLICY, warnings: [] });
  });

  test("managed values win over every other file, whatever the order given", () => {
    const { policy } = mergeSandboxSections([
      user({ enabled: false, allowUnsandboxedCommands: true, whenUnavailable: "warn" }),
      managed({ enabled: true, allowUnsandboxedCommands: false }),
    ]);
    expect(policy.enabled).toBe(true);
    expect(policy.allowUnsandboxedCommands).toBe(false);
    expect(policy.whenUnavailable).toBe("warn");
    expect(policy.origin).toEqual({
      enabled: "managed policy m.json",
      autoAllow: "default",
      allowUnsandboxedCommands: "managed policy m.json",
      allowLocalhost: "default",
      whenUnavailable: "user policy u.json",
      runAsRoot: "default",
      privateTmp: "default",
    });
  });

  test("deny lists add up across files; a managed allow list is the only one that counts", () => {
    const { policy, warnings } = mergeSandboxSections([
      user({ denyRead: ["~/.ssh"], allowNet: ["evil.example"], allowWrite: ["../cache"] }),
      managed({ denyRead: ["~/.aws"], allowNet: ["registry.npmjs.org"] }),
    ]);
    expect(policy.denyRead).toEqual(["~/.aws", "~/.ssh"]);
    expect(policy.allowNet).toEqual(["registry.npmjs.org"]);
    expect(policy.allowWrite).toEqual(["../cache"]);
    expect(warnings).toEqual(["u.json: sandbox.allowNet is ignored: the managed policy sets this list"]);
  });

  test("an untrusted workspace's policy may tighten the sandbox but not loosen it", () => {
    const section = {
      enabled: false,
      allowUnsandboxedCommands: true,
      allowLocalhost: true,
      whenUnavailable: "warn",
      allowNet: ["x.example"],
      excludedCommands: ["make"],
      denyWrite: ["secrets"],
    };
    const untrusted = mergeSandboxSections([project(section, false)]);
    expect(untrusted.policy).toMatchObject({
      enabled: true,
      allowUnsandboxedCommands: false,
      allowLocalhost: false,
      whenUnavailable: "refuse",
      allowNet: [],
      excludedCommands: [],
      denyWrite: ["secrets"],
    });
    expect(untrusted.warnings).toEqual([
      "p.json: sandbox.enabled, sandbox.allowUnsandboxedCommands, sandbox.allowLocalhost, sandbox.whenUnavailable, " +
      "sandbox.allowNet, " +
      "sandbox.excludedCommands ignored: the workspace is not trusted and its policy cannot loosen the sandbox (toolrt trust)",
    ]);
    expect(mergeSandboxSections([project(section, true)]).policy).toMatchObject({
      enabled: false,
      allowLocalhost: true,
      allowNet: ["x.example"],
    });
  });

  test("limits: sizes in bytes, each limit from the most authoritative file that sets it", () => {
    const parsed = compilePolicyText(
      "p.json",
      '{ "sandbox": { "limits": { "memory": "512M", "tmpSize": 1048576, "wallSeconds": 30 } } }',
      context,
    );
    expect(parsed.errors).toEqual([]);
    const { policy } = mergeSandboxSections([
      user({ limits: { processes: 64, memory: 1024 } }),
      managed({ limits: { memory: 2048 } }),
    ]);
    expect(policy.limits).toEqual({ maxProcesses: 64, maxMemoryBytes: 2048 });
  });

  test("an untrusted workspace may lower limits, not raise them above the defaults, nor keep root", () => {
    const untrusted = mergeSandboxSections([
      project(
        { runAsRoot: true, allowRead: ["~/.npmrc"], limits: { processes: 1_000_000, cpuSeconds: 5 } },
        false,
      ),
    ]);
    expect(untrusted.policy.runAsRoot).toBe(false);
    expect(untrusted.policy.allowRead).toEqual([]);
    expect(untrusted.policy.limits).toEqual({ maxCpuSeconds: 5 });
    expect(untrusted.warnings[0]).toStartWith(
      "p.json: sandbox.runAsRoot, sandbox.allowRead, sandbox.limits.processes ignored",
    );
    const trusted = mergeSandboxSections([
      project({ runAsRoot: true, limits: { processes: 1_000_000 } }, true),
    ]);
    expect(trusted.policy.runAsRoot).toBe(true);
    expect(trusted.policy.limits).toEqual({ maxProcesses: 1_000_000 });
  });

  test("autoAllow is on unless a file turns it off: off wins from any source, trusted or not", () => {
    expect(mergeSandboxSections([user({ autoAllow: true })]).policy.autoAllow).toBe(true);
    const off = mergeSandboxSections([user({ autoAllow: true }), project({ autoAllow: false }, false)]);
    expect(off.policy.autoAllow).toBe(false);
    expect(off.policy.origin.autoAllow).toBe("project policy p.json");
    expect(off.warnings).toEqual([]);
    const forced = mergeSandboxSections([user({ autoAllow: true }), managed({ autoAllow: false })]).policy;
    expect([forced.autoAllow, forced.origin.autoAllow]).toEqual([false, "managed policy m.json"]);
  });

  test("privateTmp is off unless a file turns it on: a managed true stays on whatever other files say", () => {
    expect(mergeSandboxSections([user({ privateTmp: false })]).policy.privateTmp).toBe(false);
    const forced = mergeSandboxSections([user({ privateTmp: false }), managed({ privateTmp: true })]);
    expect([forced.policy.privateTmp, forced.policy.origin.privateTmp]).toEqual([
      true,
      "managed policy m.json",
    ]);
    const local = mergeSandboxSections([
      managed({ privateTmp: true }),
      project({ privateTmp: false }, true),
      user({ privateTmp: false }),
    ]).policy;
    expect(local.privateTmp).toBe(true);
    const untrusted = mergeSandboxSections([project({ privateTmp: true }, false)]);
    expect(untrusted.policy.privateTmp).toBe(true);
    expect(untrusted.warnings).toEqual([]);
  });

  test("loading reads the sections of every source, trust included", () => {
    const box = sandbox();
    box.write("work/.toolrt/policy.json", {
      sandbox: { excludedCommands: ["docker"], denyRead: ["~/.ssh"] },
    });
    box.write("managed/managed-policy.json", { sandbox: { whenUnavailable: "refuse" } });
    const untrusted = box.load();
    expect(untrusted.policy.state.sandbox).toMatchObject({ excludedCommands: [], denyRead: ["~/.ssh"] });
    expect(untrusted.warnings.some((w) => w.includes("sandbox.excludedCommands ignored"))).toBe(true);
    setTrust(box.stateDir, box.cwd);
    const trusted = box.load().policy.state.sandbox!;
    expect(trusted.excludedCommands).toEqual(["docker"]);
    expect(trusted.origin.whenUnavailable).toStartWith("managed policy ");
  });
});
