import { describe, expect, test } from "bun:test";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { z } from "zod";
import { AuditLog } from "../../src/audit/log.ts";
import { verifyAuditLog } from "../../src/audit/verify.ts";
import { executeToolCall, type PipelineDeps } from "../../src/exec/pipeline.ts";
import type { Policy, PolicyVerdict } from "../../src/exec/permission.ts";
import type { HooksConfig } from "../../src/exec/hooks/config.ts";
import { ToolPool } from "../../src/pool/tool-pool.ts";
import { buildTool } from "../../src/tool/build-tool.ts";
import type { AnyTool } from "../../src/tool/types.ts";
import { DiscoveredTools } from "../../src/search/discovered.ts";
import { fakeTool } from "../helpers/fake-tools.ts";
import { tempDir, testContext } from "../helpers/session-context.ts";
import { toolOnlyPolicy } from "../helpers/tool-only-policy.ts";

const echo = buildTool({
  name: "Echo",
  aliases: ["Say", "OldEcho"],
  deprecatedAliases: ["OldEcho"],
  description: "echo",
  prompt: () => "",
  category: "read",
  inputSchema: z.object({
    text: z.string(),
    times: z.number().int().optional(),
    loud: z.boolean().optional(),
  }),
  isReadOnly: () => true,
  isConcurrencySafe: () => true,
  call: async (input) => ({
    data: (input.loud ? input.text.toUpperCase() : input.text).repeat(input.times ?? 1),
  }),
});

const writer = buildTool({
  name: "Writer",
  description: "writes",
  prompt: () => "",
  inputSchema: z.object({ path: z.string() }),
  validateInput: async (input) =>
    input.path.includes("..") ? { ok: false, message: "path must not contain .." } : { ok: true },
  call: async (input) => ({ data: `wrote ${input.path}` }),
});

const thrower = buildTool({
  name: "Thrower",
  description: "throws",
  prompt: () => "",
  inputSchema: z.object({}),
  isReadOnly: () => true,
  call: async () => {
    throw Object.assign(new Error("disk on fire"), { code: "EIO" });
  },
});

const hang = (interrupt: "cancel" | "block") =>
  buildTool({
    name: interrupt === "cancel" ? "HangCancel" : "HangBlock",
    description: "never returns unless aborted",
    prompt: () => "",
    inputSchema: z.object({}),
    isReadOnly: () => true,
    interruptBehavior: () => interrupt,
    call: (_input, ctx) =>
      new Promise<{ data: string }>((resolve) => {
        ctx.abortSignal.addEventListener("abort", () => resolve({ data: "stopped" }));
        if (interrupt === "block") setTimeout(() => resolve({ data: "finished anyway" }), 50);
      }),
  });

const huge = buildTool({
  name: "Huge",
  description: "prints a lot",
  prompt: () => "",
  inputSchema: z.object({ chars: z.number() }),
  isReadOnly: () => true,
  maxResultSizeChars: 1_000,
  call: async (input) => ({ data: "x".repeat(input.chars - 4) + "TAIL" }),
});

function setup(
  overrides: Partial<PipelineDeps> = {},
  tools: AnyTool[] = [echo, writer, thrower, hang("cancel"), hang("block"), huge],
) {
  const ctx = testContext();
  mkdirSync(ctx.cwd, { recursive: true });
  const deps: PipelineDeps = {
    pool: new ToolPool(tools, { mode: "default", denyRules: [] }),
    policy: toolOnlyPolicy,
    hooks: {},
    sessionId: "s1",
    audit: AuditLog.inStateDir(ctx.stateDir),
    ...overrides,
  };
  return { ctx, deps };
}

/** A policy that always answers the same, as an explicit rule would. */
const fixedPolicy =
  (decision: "ask" | "deny", reason: string, extra: Partial<PolicyVerdict> = {}): Policy => () => ({
    decision,
    reason,
    hookMayAllow: false,
    warnings: [],
    suggestions: [],
    ...extra,
  });

const text = (outcome: { content: { type: string; text?: string }[] }) =>
  outcome.content.map((b) => b.text ?? "").join("\n");

describe("lookup", () => {
  test("an unknown tool is an is_error result naming close tools", async () => {
    const { ctx, deps } = setup();
    const out = await executeToolCall({ id: "t1", name: "Ecoh", input: {} }, ctx, deps);
    expect(out.isError).toBe(true);
    expect(text(out)).toContain("No such tool available: Ecoh");
    expect(text(out)).toContain("Echo");
  });
  test("an alias works; a deprecated alias adds a notice", async () => {
    const { ctx, deps } = setup();
    const viaAlias = await executeToolCall({ id: "t1", name: "Say", input: { text: "hi" } }, ctx, deps);
    expect(viaAlias.toolName).toBe("Echo");
    expect(text(viaAlias)).toBe("hi");
    const viaOld = await executeToolCall({ id: "t2", name: "OldEcho", input: { text: "hi" } }, ctx, deps);
    expect(viaOld.isError).toBe(false);
    expect(text(viaOld)).toContain("deprecated name of Echo");
  });
});

describe("validation", () => {
  test("a schema violation names the parameter and what was expected", async () => {
    const { ctx, deps } = setup();
    const out = await executeToolCall({ id: "t1", name: "Echo", input: { text: 5 } }, ctx, deps);
    expect(out.isError).toBe(true);
    expect(text(out)).toMatch(/^<tool_use_error>InputValidationError: Echo/);
    expect(text(out)).toContain("- text:");
  });
  test("string numbers and booleans are coerced once", async () => {
    const { ctx, deps } = setup();
    const out = await executeToolCall(
      { id: "t1", name: "Echo", input: { text: "ab", times: "2", loud: "true" } },
      ctx,
      deps,
    );
    expect(out.isError).toBe(false);
    expect(text(out)).toBe("ABAB");
  });
  test("coercion never turns junk into numbers", async () => {
    const { ctx, deps } = setup();
    const out = await executeToolCall(
      { id: "t1", name: "Echo", input: { text: "a", times: "two" } },
      ctx,
      deps,
    );
    expect(out.isError).toBe(true);
  });
  test("input that is not an object is refused", async () => {
    const { ctx, deps } = setup();
    const out = await executeToolCall({ id: "t1", name: "Echo", input: "just text" }, ctx, deps);
    expect(out.isError).toBe(true);
  });
  test("the tool's own validateInput runs after the schema", async () => {
    const { ctx, deps } = setup();
    const out = await executeToolCall({ id: "t1", name: "Writer", input: { path: "../x" } }, ctx, deps);
    expect(text(out)).toBe("<tool_use_error>path must not contain ..</tool_use_error>");
  });
});

describe("permission", () => {
  test("without anyone to ask, an ask becomes a denial that says what would allow it", async () => {
    const policy: Policy = (r) => ({
      ...toolOnlyPolicy(r),
      suggestions: ["Writer(src/**)"],
    });
    const { ctx, deps } = setup({ policy });
    const out = await executeToolCall({ id: "t1", name: "Writer", input: { path: "a" } }, ctx, deps);
    expect(out.decision).toBe("deny");
    expect(out.failure).toBe("denied");
    expect(out.isError).toBe(true);
    // A person at `toolrt run` is told the flag; a model, the rule.
    expect(text(out)).toContain("run it again with --allow 'Writer(src/**)'");
    const byModel = await executeToolCall(
      { id: "t2", name: "Writer", input: { path: "a" } },
      { ...ctx, invokedBy: "provider" },
      deps,
    );
    expect(text(byModel)).toContain("add an allow rule such as `Writer(src/**)`");
  });
  test("an ask no allow rule can answer says only a person can, not which rule to add", async () => {
    const policy: Policy = (r) => ({ ...toolOnlyPolicy(r), hookMayAllow: false, suggestions: [] });
    const { ctx, deps } = setup({ policy });
    const out = await executeToolCall({ id: "t1", name: "Writer", input: { path: "a" } }, ctx, deps);
    expect(text(out)).toContain(
      "Only a person's yes allows it: run it in a terminal and answer, or pass --yes.",
    );
    expect(text(out)).not.toContain("allow rule");
  });
  test("a deny rule's denial says that rule must change", async () => {
    const policy: Policy = (r) => ({
      ...toolOnlyPolicy(r),
      decision: "deny",
      reason: "denied by Writer (rule --deny[0], cli: command line)",
      rule: "Writer",
    });
    const { ctx, deps } = setup({ policy });
    const out = await executeToolCall({ id: "t1", name: "Writer", input: { path: "a" } }, ctx, deps);
    expect(text(out)).toBe(
      "denied by Writer (rule --deny[0], cli: command line). To allow it, remove or narrow that deny rule.",
    );
  });
  test("failures are told apart: schema, the tool's own check, a denial, a failed run", async () => {
    const { ctx, deps } = setup();
    const call = (name: string, input: unknown) => executeToolCall({ id: "t", name, input }, ctx, deps);
    expect((await call("Nope", {})).failure).toBe("unknown-tool");
    expect((await call("Writer", { path: 1 })).failure).toBe("invalid-input");
    expect((await call("Writer", { path: "../a" })).failure).toBe("error");
    expect((await call("Writer", { path: "a" })).failure).toBe("denied");
    expect((await call("Thrower", {})).failure).toBe("error");
    expect((await call("Echo", { text: "x" })).failure).toBeUndefined();
  });
  test("allow-once runs the call; deny refuses it with the user's words", async () => {
    const { ctx, deps } = setup();
    const allowed = await executeToolCall({ id: "t1", name: "Writer", input: { path: "a" } }, ctx, deps, {
      ask: async () => ({ behavior: "allow-once" }),
    });
    expect(text(allowed)).toBe("wrote a");
    const denied = await executeToolCall({ id: "t2", name: "Writer", input: { path: "a" } }, ctx, deps, {
      ask: async () => ({ behavior: "deny", message: "not today" }),
    });
    expect(text(denied)).toBe("not today");
  });
  test("allow-always saves a grant through the session", async () => {
    const grants: string[] = [];
    const { ctx, deps } = setup({ grant: (rule) => grants.push(rule) });
    await executeToolCall({ id: "t1", name: "Writer", input: { path: "a" } }, ctx, deps, {
      ask: async () => ({ behavior: "allow-always", rule: "Writer" }),
    });
    expect(grants).toEqual(["Writer"]);
  });
  test("a policy deny wins over an 'always allow' asker: the person is never asked", async () => {
    let asked = false;
    const policy: Policy = () => ({
      decision: "deny",
      reason: "no",
      rule: "Writer",
      source: "managed",
      hookMayAllow: false,
      warnings: [],
      suggestions: [],
    });
    const { ctx, deps } = setup({ policy });
    const out = await executeToolCall({ id: "t1", name: "Writer", input: { path: "a" } }, ctx, deps, {
      ask: async () => ((asked = true), { behavior: "allow-once" }),
    });
    expect(out.decision).toBe("deny");
    expect(asked).toBe(false);
  });
  test("denial guidance from denial tracking rides along", async () => {
    const policy = fixedPolicy("deny", "no", { guidance: "Try a different approach." });
    const { ctx, deps } = setup({ policy });
    const out = await executeToolCall({ id: "t1", name: "Writer", input: { path: "a" } }, ctx, deps);
    expect(text(out)).toContain("Try a different approach.");
  });
  test("analysis runs and reaches the policy", async () => {
    let seen: unknown;
    const policy: Policy = (r) => ((seen = r.analysis), toolOnlyPolicy(r));
    const { ctx, deps } = setup({ policy, analyze: async (tool) => ({ analyzed: tool.name }) });
    await executeToolCall({ id: "t1", name: "Echo", input: { text: "a" } }, ctx, deps);
    expect(seen).toEqual({ analyzed: "Echo" });
  });
});

describe("run", () => {
  test("a tool that throws becomes an is_error result with its message, no stack", async () => {
    const { ctx, deps } = setup();
    const out = await executeToolCall({ id: "t1", name: "Thrower", input: {} }, ctx, deps);
    expect(out.isError).toBe(true);
    expect(text(out)).toBe("<tool_use_error>disk on fire</tool_use_error>");
    // The audit log keeps the error's class (errno code), never its message.
    const call = deps.audit!.read().find((r) => r.kind === "call");
    expect(call).toMatchObject({ outcome: "error", errorClass: "EIO" });
    expect(JSON.stringify(call)).not.toContain("disk on fire");
  });
  test("a tool that never returns is stopped by the timeout", async () => {
    const { ctx, deps } = setup({ callTimeoutMs: 30 });
    const out = await executeToolCall({ id: "t1", name: "HangCancel", input: {} }, ctx, deps);
    expect(out.isError).toBe(true);
    expect(text(out)).toContain("did not finish");
  });
  test("a tool that ignores the abort is abandoned after the grace period, with the reason", async () => {
    const stubborn = buildTool({
      name: "Stubborn",
      description: "",
      prompt: () => "",
      inputSchema: z.object({}),
      isReadOnly: () => true,
      interruptBehavior: () => "cancel",
      call: () => new Promise<{ data: string }>(() => {}),
    });
    const { ctx, deps } = setup({ callTimeoutMs: 10 }, [stubborn]);
    const out = await executeToolCall({ id: "t1", name: "Stubborn", input: {} }, ctx, deps);
    expect(out.isError).toBe(true);
    expect(text(out)).toBe(
      "<tool_use_error>Stubborn did not finish within 0 s and was stopped.</tool_use_error>",
    );
  });
  test("a stopped tool's partial result is kept, after the reason", async () => {
    const { ctx, deps } = setup({ callTimeoutMs: 10 });
    const out = await executeToolCall({ id: "t1", name: "HangCancel", input: {} }, ctx, deps);
    expect(out.isError).toBe(true);
    expect(text(out)).toBe(
      "<tool_use_error>HangCancel did not finish within 0 s and was stopped.</tool_use_error>\nstopped",
    );
  });
  test("an interrupt stops a cancel tool at once", async () => {
    const { ctx, deps } = setup();
    const controller = new AbortController();
    const pending = executeToolCall({ id: "t1", name: "HangCancel", input: {} }, ctx, deps, {
      signal: controller.signal,
    });
    setTimeout(() => controller.abort(), 10);
    const out = await pending;
    expect(text(out)).toContain("interrupted");
  });
  test("an interrupt lets a block tool finish what it started", async () => {
    const { ctx, deps } = setup();
    const controller = new AbortController();
    const pending = executeToolCall({ id: "t1", name: "HangBlock", input: {} }, ctx, deps, {
      signal: controller.signal,
    });
    controller.abort();
    const out = await pending;
    expect(out.isError).toBe(false);
    expect(text(out)).toBe("finished anyway");
  });
  test("progress events reach the caller", async () => {
    const progressTool = buildTool({
      name: "Progress",
      description: "",
      prompt: () => "",
      inputSchema: z.object({}),
      isReadOnly: () => true,
      call: async (_i, _c, onProgress) => {
        onProgress({ message: "half" });
        return { data: "done" };
      },
    });
    const { ctx, deps } = setup({}, [progressTool]);
    const seen: string[] = [];
    await executeToolCall({ id: "t1", name: "Progress", input: {} }, ctx, deps, {
      onProgress: (p) => seen.push(p.message),
    });
    expect(seen).toEqual(["half"]);
  });
});

describe("shape", () => {
  test("a result over the tool's budget is persisted whole; the model gets head, tail, size and path", async () => {
    const { ctx, deps } = setup();
    const out = await executeToolCall({ id: "t1", name: "Huge", input: { chars: 100_000 } }, ctx, deps);
    expect(out.persistedPath).toBeDefined();
    expect(readFileSync(out.persistedPath!, "utf8")).toHaveLength(100_000);
    expect(text(out)).toContain("100,000 characters");
    expect(text(out)).toContain("TAIL");
    expect(text(out).length).toBeLessThan(6_000);
  });
  test("a result within budget is sent as is", async () => {
    const { ctx, deps } = setup();
    const out = await executeToolCall({ id: "t1", name: "Huge", input: { chars: 500 } }, ctx, deps);
    expect(out.persistedPath).toBeUndefined();
    expect(text(out)).toHaveLength(500);
  });
});

describe("audit", () => {
  test("every decision and call is logged with a digest, redacted input and who invoked", async () => {
    const { ctx, deps } = setup();
    await executeToolCall(
      { id: "t1", name: "Echo", input: { text: "token ghp_abcdefghijklmnopqrstuvwxyz123456" } },
      ctx,
      deps,
    );
    await executeToolCall({ id: "t2", name: "Nope", input: {} }, ctx, deps);
    const records = deps.audit!.read();
    expect(records.map((r) => `${r.kind}:${r.tool}:${r.decision}`)).toEqual([
      "decision:Echo:allow",
      "call:Echo:allow",
      "call:Nope:deny",
    ]);
    expect(JSON.stringify(records)).not.toContain("ghp_abcdefghijklmnopqrstuvwxyz123456");
    expect(records[0]!.inputDigest).toMatch(/^[0-9a-f]{64}$/);
    expect(records[0]!.invokedBy).toBe("cli");
    expect(verifyAuditLog(deps.audit!.path).ok).toBe(true);
  });
});

describe("hooks", () => {
  const scriptDir = tempDir();
  let scripts = 0;
  const hookScript = (body: string) => {
    const path = join(scriptDir, `hook${scripts++}.sh`);
    writeFileSync(path, `#!/bin/sh\n${body}\n`, { mode: 0o755 });
    return path;
  };

  const pre = (command: string, matcher = "Writer"): HooksConfig => ({
    PreToolUse: [{ matcher, hooks: [{ type: "command", command }] }],
  });

  test("exit 2 blocks the call, stderr is the reason", async () => {
    const hook = hookScript("echo 'no writes today' >&2; exit 2");
    const { ctx, deps } = setup({ hooks: pre(hook) });
    const out = await executeToolCall({ id: "t1", name: "Writer", input: { path: "a" } }, ctx, deps, {
      ask: async () => ({ behavior: "allow-once" }),
    });
    expect(out.decision).toBe("deny");
    expect(text(out)).toContain(`PreToolUse:Writer hook error: [${hook}]: no writes today`);
  });
  test("a hook's allow skips the prompt", async () => {
    const hook = hookScript(
      `echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow"}}'`,
    );
    const { ctx, deps } = setup({ hooks: pre(hook) });
    const out = await executeToolCall({ id: "t1", name: "Writer", input: { path: "a" } }, ctx, deps);
    expect(out.decision).toBe("allow");
    expect(text(out)).toBe("wrote a");
  });
  test("a hook's allow never beats a policy deny", async () => {
    const hook = hookScript(`echo '{"hookSpecificOutput":{"permissionDecision":"allow"}}'`);
    const policy = fixedPolicy("deny", "managed says no");
    const { ctx, deps } = setup({ hooks: pre(hook), policy });
    const out = await executeToolCall({ id: "t1", name: "Writer", input: { path: "a" } }, ctx, deps);
    expect(out.decision).toBe("deny");
  });
  test("a hook's allow does not skip an ask that came from an explicit rule", async () => {
    const hook = hookScript(`echo '{"hookSpecificOutput":{"permissionDecision":"allow"}}'`);
    const policy = fixedPolicy("ask", "ask rule");
    const { ctx, deps } = setup({ hooks: pre(hook), policy });
    const out = await executeToolCall({ id: "t1", name: "Writer", input: { path: "a" } }, ctx, deps);
    expect(out.decision).toBe("deny");
  });
  test("updatedInput replaces the input and is validated again", async () => {
    const hook = hookScript(
      `echo '{"hookSpecificOutput":{"permissionDecision":"allow","updatedInput":{"path":"rewritten"}}}'`,
    );
    const { ctx, deps } = setup({ hooks: pre(hook) });
    const out = await executeToolCall({ id: "t1", name: "Writer", input: { path: "a" } }, ctx, deps);
    expect(text(out)).toBe("wrote rewritten");
  });
  test("a hook that exits 1, prints garbage or hangs is reported, and the call goes on", async () => {
    const crash = hookScript("echo oops >&2; exit 1");
    const garbage = hookScript("echo '{not json'");
    const hooks: HooksConfig = {
      PreToolUse: [{
        matcher: "Echo",
        hooks: [
          { type: "command", command: crash },
          { type: "command", command: garbage },
          { type: "command", command: "sleep 30", timeout: 0.2 },
        ],
      }],
    };
    const { ctx, deps } = setup({ hooks });
    const out = await executeToolCall({ id: "t1", name: "Echo", input: { text: "still here" } }, ctx, deps);
    expect(text(out)).toBe("still here");
    const problems = deps.audit!.read().filter((r) => r.kind === "hook").map((r) => r.detail);
    expect(problems).toHaveLength(3);
    expect(problems.join("\n")).toContain("exited 1: oops");
    expect(problems.join("\n")).toContain("not valid JSON");
    expect(problems.join("\n")).toContain("timed out");
  });
  test("the hook receives Claude Code's payload on stdin", async () => {
    const capture = join(scriptDir, "payload.json");
    const hook = hookScript(`cat > ${capture}`);
    const { ctx, deps } = setup({ hooks: pre(hook, "Echo") });
    await executeToolCall({ id: "toolu_1", name: "Echo", input: { text: "x" } }, ctx, deps);
    const payload = JSON.parse(readFileSync(capture, "utf8"));
    expect(payload).toMatchObject({
      hook_event_name: "PreToolUse",
      tool_name: "Echo",
      tool_input: { text: "x" },
      tool_use_id: "toolu_1",
      session_id: "s1",
      cwd: ctx.cwd,
      permission_mode: "default",
    });
  });
  test("PostToolUse additionalContext is appended after the result", async () => {
    const hook = hookScript(
      `echo '{"hookSpecificOutput":{"hookEventName":"PostToolUse","additionalContext":"lint is clean"}}'`,
    );
    const { ctx, deps } = setup({
      hooks: { PostToolUse: [{ matcher: "Echo", hooks: [{ type: "command", command: hook }] }] },
    });
    const out = await executeToolCall({ id: "t1", name: "Echo", input: { text: "x" } }, ctx, deps);
    expect(out.content).toHaveLength(2);
    expect(text(out)).toContain("PostToolUse hook additional context: lint is clean");
  });
  test("PostToolUseFailure fires when the tool fails", async () => {
    const capture = join(scriptDir, "failure.json");
    const hook = hookScript(`cat > ${capture}`);
    const { ctx, deps } = setup({
      hooks: { PostToolUseFailure: [{ hooks: [{ type: "command", command: hook }] }] },
    });
    await executeToolCall({ id: "t1", name: "Thrower", input: {} }, ctx, deps);
    expect(JSON.parse(readFileSync(capture, "utf8"))).toMatchObject({
      hook_event_name: "PostToolUseFailure",
      error: "disk on fire",
    });
  });
});

test("fake tools from helpers go through the same pipeline", async () => {
  const { ctx, deps } = setup({}, [fakeTool("Plain", { readOnly: true })]);
  const out = await executeToolCall({ id: "t1", name: "Plain", input: { value: "v" } }, ctx, deps);
  expect(text(out)).toBe("Plain:v");
});

describe("result enrichers", () => {
  test("an enricher adds blocks after a successful call only", async () => {
    const { ctx, deps } = setup({
      enrichers: [async ({ tool }) => [{ type: "text", text: `diagnostics for ${tool.name}` }]],
    });
    const ok = await executeToolCall({ id: "t1", name: "Echo", input: { text: "x" } }, ctx, deps);
    expect(text(ok)).toBe("x\ndiagnostics for Echo");
    const failed = await executeToolCall({ id: "t2", name: "Thrower", input: {} }, ctx, deps);
    expect(text(failed)).not.toContain("diagnostics");
  });
  test("a failing enricher is reported and the result survives", async () => {
    const { ctx, deps } = setup({
      enrichers: [async () => {
        throw new Error("language server crashed");
      }],
    });
    const out = await executeToolCall({ id: "t1", name: "Echo", input: { text: "x" } }, ctx, deps);
    expect(text(out)).toBe("x");
    expect(deps.audit!.read().some((r) => r.detail?.includes("language server crashed"))).toBe(true);
  });
});

describe("discovery gate", () => {
  const deferredTool = fakeTool("mcp__srv__thing", {
    origin: { kind: "mcp", server: "srv" },
    shouldDefer: true,
    readOnly: true,
  });
  const gated = () => {
    const discovered = new DiscoveredTools();
    const { ctx, deps } = setup({}, [echo, deferredTool]);
    deps.discovery = { discovered, isDeferred: (t) => t.shouldDefer };
    return { ctx, deps, discovered };
  };
  test("a deferred tool cannot be called before ToolSearch found it", async () => {
    const { ctx, deps } = gated();
    const out = await executeToolCall({ id: "t1", name: "mcp__srv__thing", input: {} }, ctx, deps);
    expect(text(out)).toBe("<tool_use_error>Error: No such tool available: mcp__srv__thing</tool_use_error>");
  });
  test("once discovered it runs; once its server is gone the error names the server", async () => {
    const { ctx, deps, discovered } = gated();
    discovered.add([deferredTool]);
    const ran = await executeToolCall(
      { id: "t1", name: "mcp__srv__thing", input: { value: "v" } },
      ctx,
      deps,
    );
    expect(text(ran)).toBe("mcp__srv__thing:v");
    deps.pool = new ToolPool([echo], { mode: "default", denyRules: [] });
    const gone = await executeToolCall({ id: "t2", name: "mcp__srv__thing", input: {} }, ctx, deps);
    expect(gone.isError).toBe(true);
    expect(text(gone)).toContain('MCP server "srv"');
  });
  test("loaded tools need no discovery", async () => {
    const { ctx, deps } = gated();
    const out = await executeToolCall({ id: "t1", name: "Echo", input: { text: "x" } }, ctx, deps);
    expect(text(out)).toBe("x");
  });
});
