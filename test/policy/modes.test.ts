/** Each permission mode and the protected paths (claude-code-compat.md §4). */
import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import type { PermissionMode } from "../../src/tool/types.ts";
import { analysis, bashCall, decideIn, sandbox } from "./helpers.ts";

const box = sandbox();
const loaded = box.load({
  cliRules: { ask: ["Bash(git push:*)"], deny: ["Bash(rm -rf build)"], allow: ["Bash(npm test)"] },
});
const inside = join(box.cwd, "src/a.ts");
const outside = "/srv/other/a.ts";

type Case = [
  string,
  Parameters<typeof decideIn>[2],
  Parameters<typeof decideIn>[3],
  Record<PermissionMode, string>,
];
const cases: Case[] = [
  ["edit inside", { tool: "Edit", input: { file_path: inside } }, {}, {
    default: "ask",
    acceptEdits: "allow",
    plan: "deny",
    bypassPermissions: "allow",
    dontAsk: "deny",
  }],
  ["edit outside", { tool: "Edit", input: { file_path: outside } }, {}, {
    default: "ask",
    acceptEdits: "ask",
    plan: "deny",
    bypassPermissions: "allow",
    dontAsk: "deny",
  }],
  ["read-only tool inside", { tool: "Read", input: { file_path: inside } }, { readOnly: true }, {
    default: "allow",
    acceptEdits: "allow",
    plan: "allow",
    bypassPermissions: "allow",
    dontAsk: "allow",
  }],
  ["explicit ask rule", bashCall("git push origin main"), {}, {
    default: "ask",
    acceptEdits: "ask",
    plan: "ask",
    bypassPermissions: "ask",
    dontAsk: "deny",
  }],
  ["deny rule", bashCall("rm -rf build"), {}, {
    default: "deny",
    acceptEdits: "deny",
    plan: "deny",
    bypassPermissions: "deny",
    dontAsk: "deny",
  }],
  ["allow rule, not read-only", bashCall("npm test"), {}, {
    default: "allow",
    acceptEdits: "allow",
    plan: "deny",
    bypassPermissions: "allow",
    dontAsk: "allow",
  }],
  ["unknown MCP tool", { tool: "mcp__x__y", input: {} }, {}, {
    default: "ask",
    acceptEdits: "ask",
    plan: "deny",
    bypassPermissions: "allow",
    dontAsk: "deny",
  }],
  [
    "protected path inside",
    { tool: "Write", input: { file_path: join(box.cwd, ".git/hooks/pre-commit") } },
    {},
    {
      default: "ask",
      acceptEdits: "ask",
      plan: "ask",
      bypassPermissions: "allow",
      dontAsk: "deny",
    },
  ],
  ["tool needing a person", { tool: "mcp__ui__confirm", input: {} }, { requiresUserInteraction: true }, {
    default: "ask",
    acceptEdits: "ask",
    plan: "ask",
    bypassPermissions: "ask",
    dontAsk: "deny",
  }],
];

for (const [name, call, facts, expected] of cases) {
  describe(name, () => {
    for (const [mode, decision] of Object.entries(expected)) {
      test(`${mode} → ${decision}`, () => {
        const result = decideIn(box, loaded, { ...call, mode: mode as PermissionMode }, facts);
        expect(result.decision, result.reason).toBe(decision as never);
      });
    }
  });
}

describe("acceptEdits and Bash", () => {
  test("mkdir, touch, rm, mv, cp inside the workspace run; behind wrappers too (the analyzer strips them)", () => {
    const a = analysis("timeout 5 touch a && mkdir b", ["touch a", "mkdir b"], {
      paths: [{ command: "touch", path: "a", access: "write" }, {
        command: "mkdir",
        path: "b",
        access: "write",
      }],
    });
    expect(decideIn(box, loaded, { ...bashCall(a.command, a), mode: "acceptEdits" }).decision).toBe("allow");
    expect(decideIn(box, loaded, { ...bashCall(a.command, a), mode: "default" }).decision).toBe("ask");
  });

  test("an edit command writing outside the workspace still asks", () => {
    const a = analysis("rm /srv/x", ["rm /srv/x"], {
      paths: [{ command: "rm", path: "/srv/x", access: "write" }],
    });
    expect(decideIn(box, loaded, { ...bashCall(a.command, a), mode: "acceptEdits" }).decision).toBe("ask");
  });

  test("sed -i is not an acceptEdits command", () => {
    const a = analysis("sed -i s/a/b/ f", ["sed -i s/a/b/ f"], {
      paths: [{ command: "sed", path: "f", access: "write" }],
    });
    expect(decideIn(box, loaded, { ...bashCall(a.command, a), mode: "acceptEdits" }).decision).toBe("ask");
  });
});

describe("protected paths", () => {
  const paths: [string, boolean][] = [
    [".git/config", true],
    [".config/git/config", true],
    [".vscode/settings.json", true],
    [".claude/settings.json", true],
    [".claude/worktrees/w1/a.ts", false],
    ["sub/.bashrc", true],
    // `.npmrc` is protected too, but a secrets file: the secrets rule's reason comes first.
    [".zshrc", true],
    [".mcp.json", true],
    ["rust-toolchain.toml", true],
    ["sub2/rust-toolchain.toml", true],
    ["crates/x/rust-toolchain", true],
    ["mise.toml", true],
    ["tools/.mise.toml", true],
    [".tool-versions", true],
    ["src/toolchain.toml", false],
    ["src/git/a.ts", false],
    ["src/app.ts", false],
  ];
  for (const [path, isProtected] of paths) {
    test(`${path} ${isProtected ? "asks even with an allow rule" : "follows the allow rule"}`, () => {
      const allowAll = box.load({ cliRules: { allow: ["Edit(./**)"] } });
      const result = decideIn(box, allowAll, {
        tool: "Write",
        input: { file_path: join(box.cwd, path) },
        mode: "acceptEdits",
      });
      expect(result.decision, result.reason).toBe(isProtected ? "ask" : "allow");
      if (isProtected) expect(result.reason).toContain("protected path");
    });
  }

  test("a Bash write to a protected path asks", () => {
    const a = analysis("echo x > .git/hooks/post", ["echo x"], {
      paths: [{ command: "echo", path: ".git/hooks/post", access: "write" }],
    });
    const allowEcho = box.load({ cliRules: { allow: ["Bash(echo:*)"] } });
    expect(decideIn(box, allowEcho, bashCall(a.command, a)).decision).toBe("ask");
  });
});
