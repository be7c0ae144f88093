/** Which commands run in the sandbox, outside it, or not at all. Pure: no sandbox is started. */
import { describe, expect, test } from "bun:test";
import { excludedPrefix, sandboxModeFor } from "../../../src/exec/processes/sandbox-mode.ts";
import { DEFAULT_SANDBOX_POLICY, type SandboxPolicy } from "../../../src/policy/sandbox-policy.ts";
import type { SandboxAvailability } from "../../../src/sandbox/detect.ts";

const here: SandboxAvailability = {
  available: true,
  kind: "bwrap",
  bwrapPath: "/usr/bin/bwrap",
  seccompArch: "x86_64",
  prlimitPath: null,
  setprivPath: null,
};
const none: SandboxAvailability = { available: false, reason: "bubblewrap (bwrap) is not installed" };
const policy = (over: Partial<SandboxPolicy> = {}): SandboxPolicy => ({ ...DEFAULT_SANDBOX_POLICY, ...over });
const mode = (
  command: string,
  over: Partial<SandboxPolicy> = {},
  unsandboxed = false,
  a: SandboxAvailability = here,
) => sandboxModeFor({ command, unsandboxed }, policy(over), a);

describe("sandboxModeFor", () => {
  test("by default every command runs in the sandbox, without notices", () => {
    expect(mode("npm test")).toEqual({ kind: "sandboxed", notices: [] });
  });

  test("dangerouslyDisableSandbox is ignored unless the policy allows it, and the model is told why", () => {
    const ignored = mode("npm test", {}, true);
    expect(ignored.kind).toBe("sandboxed");
    expect(ignored.kind === "sandboxed" && ignored.notices[0]).toContain(
      "dangerouslyDisableSandbox was ignored: the policy does not allow commands outside the sandbox " +
        "(sandbox.allowUnsandboxedCommands is false, default)",
    );
    const honoured = mode("npm test", { allowUnsandboxedCommands: true }, true);
    expect(honoured).toMatchObject({
      kind: "unsandboxed",
      reason: expect.stringContaining("dangerouslyDisableSandbox"),
    });
  });

  test("an excluded command runs outside; the sandbox switched off runs everything outside", () => {
    expect(mode("docker ps -a", { excludedCommands: ["docker"] })).toMatchObject({
      kind: "unsandboxed",
      reason: 'the command matches the excluded command "docker" (sandbox.excludedCommands)',
    });
    expect(mode("ls", { enabled: false })).toMatchObject({
      kind: "unsandboxed",
      reason: "the sandbox is disabled (default)",
    });
  });

  test("no sandbox: refused by default, with the reason and how to allow it; run with a warning on warn", () => {
    const refused = mode("ls", {}, false, none);
    expect(refused.kind).toBe("refused");
    expect(refused.kind === "refused" && refused.message).toContain(
      "No sandbox is available, so the command did not run: bubblewrap (bwrap) is not installed.",
    );
    expect(refused.kind === "refused" && refused.message).toContain(
      '"sandbox": { "whenUnavailable": "warn" }',
    );
    const warned = mode("ls", { whenUnavailable: "warn" }, false, none);
    expect(warned).toMatchObject({
      kind: "unsandboxed",
      reason: expect.stringContaining("no sandbox is available"),
    });
    expect(warned.kind === "unsandboxed" && warned.notices).toEqual([
      "Warning: ran WITHOUT a sandbox: bubblewrap (bwrap) is not installed. The policy allows that " +
      '(sandbox.whenUnavailable is "warn", default).',
    ]);
  });

  test("an excluded command needs no sandbox at all; a refused request to leave it still refuses without one", () => {
    expect(mode("docker ps", { excludedCommands: ["docker"] }, false, none).kind).toBe("unsandboxed");
    expect(mode("ls", {}, true, none).kind).toBe("refused");
  });
});

describe("excludedPrefix: word for word, simple commands only", () => {
  const cases: [string, string[], string | undefined][] = [
    ["docker ps", ["docker"], "docker"],
    ["docker", ["docker"], "docker"],
    ["  docker   ps ", ["docker ps"], "docker ps"],
    ["dockerd", ["docker"], undefined],
    ["npm run deploy --prod", ["npm run deploy"], "npm run deploy"],
    ["npm run test", ["npm run deploy"], undefined],
    ["docker ps && rm -rf ~", ["docker"], undefined],
    ["docker ps; rm -rf ~", ["docker"], undefined],
    ["docker ps | sh", ["docker"], undefined],
    ["docker run $(cat x)", ["docker"], undefined],
    ["docker run `id`", ["docker"], undefined],
    ["docker ps > /etc/x", ["docker"], undefined],
    ["docker ps\nrm -rf ~", ["docker"], undefined],
    ["docker ps &", ["docker"], undefined],
    ["FOO=1 docker ps", ["docker"], undefined],
  ];
  for (const [command, prefixes, expected] of cases) {
    test(JSON.stringify(command), () => {
      expect(excludedPrefix(command, prefixes), `${command} with ${prefixes}`).toBe(expected);
    });
  }
});
