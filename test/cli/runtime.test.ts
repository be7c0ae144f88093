/**
 * The runtime wires the policy's sandbox into every pool's Bash, and audits runs outside it. The
 * writes outside the workspace first need a person's yes (`--yes`): the sandbox is the layer after.
 */
import { describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { AuditRecord } from "../../src/audit/log.ts";
import { globalsFrom } from "../../src/cli/options.ts";
import { openDefaultSession } from "../../src/cli/runtime.ts";
import { runCli } from "../helpers/cli.ts";
import { sandboxFor } from "../helpers/requirements.ts";
import { tempDir } from "../helpers/session-context.ts";

const usable = sandboxFor("the sandboxed run of the runtime's Bash", "bwrap");

function setup(sandbox: object) {
  const root = tempDir();
  const ws = join(root, "ws");
  const home = join(root, "home");
  mkdirSync(ws);
  mkdirSync(home);
  const policy = join(root, "policy.json");
  writeFileSync(policy, JSON.stringify({ sandbox }));
  const env = {
    HOME: home,
    XDG_CONFIG_HOME: join(home, ".config"),
    TOOLRT_MANAGED_POLICY: join(root, "managed"),
  };
  const state = join(root, "state");
  const bash = (command: string) =>
    runCli(
      [
        "--cwd",
        ws,
        "--state-dir",
        state,
        "--policy",
        policy,
        "--allow",
        "Bash",
        "run",
        "--yes",
        "--json",
        "Bash",
        JSON.stringify({ command }),
      ],
      { env },
    );
  const notices = () =>
    readFileSync(join(state, "audit.jsonl"), "utf8").split("\n").filter(Boolean)
      .map((line) => JSON.parse(line) as AuditRecord).filter((r) => r.kind === "notice");
  return { root, bash, notices };
}

describe("toolrt run Bash: the policy's sandbox", () => {
  test("an excluded command runs outside the sandbox and the audit log says so, with the reason", () => {
    const { root, bash, notices } = setup({ excludedCommands: ["touch"] });
    const run = bash("touch ../outside");
    expect(run.code, run.stderr).toBe(0);
    expect(existsSync(join(root, "outside"))).toBe(true);
    expect(notices()).toEqual([expect.objectContaining({
      kind: "notice",
      input: { command: "touch ../outside" },
      cwd: join(root, "ws"),
      detail:
        'ran without the sandbox: the command matches the excluded command "touch" (sandbox.excludedCommands)',
    })]);
  });

  test.skipIf(!usable)("any other command runs sandboxed: a write outside fails with the path named", () => {
    const { root, bash, notices } = setup({ denyRead: ["~/.ssh"] });
    const run = bash("touch ../outside");
    expect(run.code).toBe(1);
    expect(existsSync(join(root, "outside"))).toBe(false);
    expect(JSON.parse(run.stdout).content[0].text).toContain(`writing ${join(root, "outside")} was blocked`);
    expect(notices()).toEqual([]);
  });
});

describe("the discovery gate of model-driven sessions", () => {
  async function session(invokedBy: "provider" | "cli") {
    const root = tempDir();
    const ws = join(root, "ws");
    mkdirSync(ws);
    const env = {
      HOME: root,
      XDG_CONFIG_HOME: join(root, ".config"),
      TOOLRT_MANAGED_POLICY: join(root, "managed"),
    };
    const saved = { ...process.env };
    Object.assign(process.env, env);
    try {
      const globals = globalsFrom({ cwd: ws, stateDir: join(root, "state") });
      return await openDefaultSession(globals, invokedBy);
    } finally {
      for (const key of Object.keys(env)) process.env[key] = saved[key];
    }
  }
  const text = (o: { content: { type: string; text?: string }[] }) =>
    o.content.map((b) => b.text ?? "").join("");

  test("a model calls a deferred tool only after ToolSearch found it", async () => {
    const s = await session("provider");
    try {
      const before = await s.session.execute({
        id: "t1",
        name: "WebFetch",
        input: { url: "http://127.0.0.1:9/", prompt: "p" },
      });
      expect(text(before)).toContain("No such tool available: WebFetch");
      await s.session.execute({
        id: "t2",
        name: "ToolSearch",
        input: { query: "select:WebFetch", max_results: 5 },
      });
      const after = await s.session.execute({
        id: "t3",
        name: "WebFetch",
        input: { url: "http://127.0.0.1:9/", prompt: "p" },
      });
      expect(text(after)).not.toContain("No such tool available");
    } finally {
      await s.close();
    }
  });
  test("a person at the CLI calls it by name", async () => {
    const s = await session("cli");
    try {
      const out = await s.session.execute({
        id: "t1",
        name: "WebFetch",
        input: { url: "http://127.0.0.1:9/", prompt: "p" },
      });
      expect(text(out)).not.toContain("No such tool available");
    } finally {
      await s.close();
    }
  });
});
