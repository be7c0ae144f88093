/**
 * What each command sends, as a collector receives it: `check`, `run`, `hook`, `agent` (fake API)
 * and `serve`, in protobuf and JSON, decoded with the official OTLP definitions. Also: nothing at
 * all unless telemetry is on, secrets never on the wire, and a collector that is down loses nothing.
 */
import { afterEach, beforeEach, describe, expect, setDefaultTimeout, test } from "bun:test";
import { existsSync, mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { AuditLog } from "../../src/audit/log.ts";
import { startFakeAnthropic } from "../../fixtures/fake-anthropic/server.ts";
import { runCliAsync } from "../helpers/cli.ts";
import { type Receiver, startReceiver } from "../helpers/otlp-receiver.ts";
import { tempDir } from "../helpers/session-context.ts";

const MAIN = join(import.meta.dir, "../../src/cli/main.ts");
// Every test starts toolrt from source a few times.
setDefaultTimeout(120_000);
const SECRET = "sk-ant-api03-ThisIsNotARealKeyButLooksLikeOne1234567890";

let receiver: Receiver;
let root: string;
let workspace: string;
let stateDir: string;

beforeEach(() => {
  receiver = startReceiver();
  root = tempDir("toolrt-otel-");
  workspace = join(root, "ws");
  stateDir = join(root, "state");
  mkdirSync(workspace);
  writeFileSync(join(workspace, "notes.txt"), "hello\n");
});
afterEach(() => receiver.stop());

/** The environment of a machine with no policy of its own, exporting to the receiver. */
function telemetryEnv(protocol: string, extra: Record<string, string> = {}): Record<string, string> {
  const clean = Object.fromEntries(
    Object.entries(process.env).filter(([k]) => !k.startsWith("OTEL_") && !k.startsWith("TOOLRT_")),
  ) as Record<string, string>;
  return {
    ...clean,
    NO_COLOR: "1",
    HOME: join(root, "home"),
    XDG_CONFIG_HOME: join(root, "config"),
    TOOLRT_HOME: stateDir,
    TOOLRT_MANAGED_POLICY: join(root, "managed"),
    TOOLRT_NO_HOOK_HELPER: "1",
    TOOLRT_ENABLE_TELEMETRY: "1",
    OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
    OTEL_EXPORTER_OTLP_PROTOCOL: protocol,
    // A loaded test machine must not turn delivery into hand-over: wait as long as it takes.
    TOOLRT_TELEMETRY_EXIT_DEADLINE_MS: "30000",
    ...extra,
  };
}

/** Runs the CLI in the workspace, without blocking this process (which is the receiver). */
function toolrt(args: string[], env: Record<string, string>, stdin?: string) {
  return runCliAsync(["--cwd", workspace, ...args], {
    cwd: workspace,
    env,
    exactEnv: true,
    ...(stdin === undefined ? {} : { stdin }),
  });
}

const byEvent = (name: string) => receiver.logs().filter((l) => l.eventName === name);

describe.each(["http/protobuf", "http/json"])("%s", (protocol) => {
  const contentType = protocol === "http/json" ? "application/json" : "application/x-protobuf";

  test("check: one toolrt.tool_decision with what decided, and the decisions metric", async () => {
    const run = await toolrt(["check", "Read", '{"file_path":".env"}'], telemetryEnv(protocol));
    expect(run.code).toBe(0);
    expect(receiver.received.every((r) => r.contentType === contentType)).toBe(true);
    const [decision] = byEvent("toolrt.tool_decision");
    expect(decision?.attributes).toMatchObject({
      "event.name": "toolrt.tool_decision",
      "gen_ai.tool.name": "Read",
      "toolrt.decision": "ask",
      "toolrt.decision.source": "default",
      "toolrt.rule": "Read(.env)",
      "toolrt.rule.id": "secrets-files",
      "toolrt.rule.file": "<embedded>/policy/default.json",
      "toolrt.decision.hard_ask": true,
      "toolrt.invoked_by": "check",
      "toolrt.permission_mode": "default",
      "toolrt.tool.input": '{"file_path":".env"}',
    });
    expect(decision?.attributes["toolrt.policy.digest"]).toMatch(/^[0-9a-f]{64}$/);
    expect(decision?.resource).toMatchObject({
      "service.name": "toolrt",
      "service.version": expect.any(String),
      "host.name": expect.any(String),
      "toolrt.build": "source",
      "toolrt.policy.default.digest": expect.stringMatching(/^[0-9a-f]{64}$/),
    });
    const [decisions] = receiver.metrics().filter((m) => m.name === "toolrt.decisions");
    expect(decisions?.points).toEqual([{
      attributes: {
        "gen_ai.tool.name": "Read",
        "toolrt.decision": "ask",
        "toolrt.decision.source": "default",
        "toolrt.invoked_by": "check",
      },
      value: "1",
    }]);
  });

  test("run: decision and result carry the audit record's hash and input; one span per stage", async () => {
    const input = JSON.stringify({ file_path: "notes.txt" });
    const run = await toolrt(["run", "Read", input], telemetryEnv(protocol));
    expect(run.code).toBe(0);
    const audit = new AuditLog(join(stateDir, "audit.jsonl")).read();
    const [decision] = byEvent("toolrt.tool_decision");
    const [result] = byEvent("toolrt.tool_result");
    const auditDecision = audit.find((r) => r.kind === "decision")!;
    const auditCall = audit.find((r) => r.kind === "call")!;
    expect(decision?.attributes).toMatchObject({
      "toolrt.decision": "allow",
      "toolrt.decision.source": "default",
      "toolrt.rule.id": "read-workspace",
      "toolrt.audit.hash": auditDecision.hash,
      "toolrt.audit.seq": String(auditDecision.seq),
      // Exactly the audit log's redacted, bounded input.
      "toolrt.tool.input": JSON.stringify(auditDecision.input),
      "toolrt.tool.input_digest": auditDecision.inputDigest,
    });
    expect(result?.attributes).toMatchObject({
      "gen_ai.tool.name": "Read",
      "toolrt.outcome": "ok",
      "toolrt.output.persisted": false,
      "toolrt.audit.hash": auditCall.hash,
      "toolrt.duration_ms": auditCall.durationMs,
    });
    expect(Number(result?.attributes["toolrt.output.chars"])).toBeGreaterThan(0);

    const spans = receiver.spans();
    const call = spans.find((s) => s.name === "toolrt.tool_call")!;
    expect(call.attributes).toMatchObject({ "gen_ai.tool.name": "Read", "toolrt.outcome": "ok" });
    const stages = spans.filter((s) => s.parentSpanId === call.spanId).map((s) => s.name);
    expect(stages).toEqual([
      "toolrt.stage.validate",
      "toolrt.stage.hooks",
      "toolrt.stage.permission",
      "toolrt.stage.run",
      "toolrt.stage.shape",
      "toolrt.stage.post_hooks",
    ]);
    expect(spans.every((s) => s.traceId === call.traceId)).toBe(true);
    // The log records point at the call's span.
    expect([decision?.traceId, decision?.spanId]).toEqual([call.traceId, call.spanId]);
    const metricNames = receiver.metrics().map((m) => m.name).sort();
    expect(metricNames).toEqual(["toolrt.call.duration", "toolrt.calls", "toolrt.decisions"]);
  });
});

test("check --sandboxed: the decision says where the command runs and that containment allowed it", async () => {
  const { detectSandbox } = await import("../../src/sandbox/detect.ts");
  await toolrt(["check", "--sandboxed", "Bash", "npm test"], telemetryEnv("http/protobuf"));
  const [decision] = byEvent("toolrt.tool_decision");
  if (detectSandbox().available) {
    expect(decision?.attributes).toMatchObject({
      "toolrt.sandboxed": true,
      "toolrt.decision.source": "sandbox",
    });
  } else {
    expect(decision?.attributes["toolrt.sandboxed"]).toBe(false);
  }
});

describe("hook mode", () => {
  test("the host's calls: a decision with the host's name, then its result", async () => {
    const env = telemetryEnv("http/protobuf");
    const pre = {
      session_id: "s-1",
      hook_event_name: "PreToolUse",
      tool_name: "Bash",
      tool_input: { command: "rm -rf ~" },
      tool_use_id: "toolu_1",
      cwd: workspace,
    };
    const answer = await toolrt(["hook"], env, JSON.stringify(pre));
    expect(JSON.parse(answer.stdout).hookSpecificOutput.permissionDecision).toBe("deny");
    const post = { ...pre, hook_event_name: "PostToolUse", tool_response: { stdout: "" } };
    await toolrt(["hook", "--host", "claude-code"], env, JSON.stringify(post));

    const [decision] = byEvent("toolrt.tool_decision");
    expect(decision?.attributes).toMatchObject({
      "gen_ai.tool.name": "Bash",
      "gen_ai.tool.call.id": "toolu_1",
      "session.id": "s-1",
      "toolrt.hook.host": "claude-code",
      "toolrt.invoked_by": "hook:claude-code",
      "toolrt.decision": "deny",
    });
    expect(decision?.attributes["toolrt.policy.digest"]).toMatch(/^[0-9a-f]{64}$/);
    const [result] = byEvent("toolrt.tool_result");
    expect(result?.attributes).toMatchObject({ "toolrt.hook.host": "claude-code", "toolrt.outcome": "ok" });
  });

  test("a call toolrt leaves to the host is a decision of none, not a prompt", async () => {
    const pre = {
      hook_event_name: "PreToolUse",
      tool_name: "Bash",
      tool_input: { command: "npm install" },
      cwd: workspace,
    };
    await toolrt(["hook"], telemetryEnv("http/json"), JSON.stringify(pre));
    expect(byEvent("toolrt.tool_decision")[0]?.attributes["toolrt.decision"]).toBe("none");
    expect(receiver.metrics().some((m) => m.name === "toolrt.prompts")).toBe(false);
  });
});

test("agent: the run, its turns, and each tool call under the turn that asked for it", async () => {
  const fake = startFakeAnthropic({
    turns: [
      {
        content: [{ type: "tool_use", id: "toolu_read", name: "Read", input: { file_path: "notes.txt" } }],
        stop_reason: "tool_use",
      },
      { content: [{ type: "text", text: "It says hello." }] },
    ],
  });
  try {
    const run = await toolrt(
      ["--state-dir", stateDir, "agent", "--json", "--model", "claude-test", "read notes.txt"],
      telemetryEnv("http/protobuf", { ANTHROPIC_BASE_URL: fake.url, ANTHROPIC_API_KEY: "k" }),
    );
    expect(run.code).toBe(0);
    const spans = receiver.spans();
    const agent = spans.find((s) => s.name === "toolrt.agent")!;
    const turns = spans.filter((s) => s.name === "toolrt.agent.turn");
    const call = spans.find((s) => s.name === "toolrt.tool_call")!;
    expect(turns.map((t) => [t.parentSpanId, t.attributes["toolrt.agent.turn"]])).toEqual([
      [agent.spanId, "1"],
      [agent.spanId, "2"],
    ]);
    expect(call.parentSpanId).toBe(turns[0]!.spanId);
    expect(new Set(spans.map((s) => s.traceId)).size).toBe(1);
    expect(byEvent("toolrt.tool_result")[0]?.attributes).toMatchObject({
      "gen_ai.tool.name": "Read",
      "toolrt.invoked_by": "provider",
      "toolrt.outcome": "ok",
    });
  } finally {
    await fake.close();
  }
});

test("serve: an MCP client's traceparent is the parent of the call's span", async () => {
  const client = new Client({ name: "otel-test", version: "1.0.0" });
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [MAIN, "--cwd", workspace, "serve"],
    env: telemetryEnv("http/json"),
    stderr: "ignore",
  });
  await client.connect(transport);
  const traceId = "4bf92f3577b34da6a3ce929d0e0e4736";
  const parent = "00f067aa0ba902b7";
  await client.callTool({
    name: "Read",
    arguments: { file_path: join(workspace, "notes.txt") },
    _meta: { traceparent: `00-${traceId}-${parent}-01` },
  });
  await client.close();
  await receiver.waitFor((r) => r.spans().some((s) => s.name === "toolrt.tool_call"));
  const call = receiver.spans().find((s) => s.name === "toolrt.tool_call")!;
  expect([call.traceId, call.parentSpanId]).toEqual([traceId, parent]);
  await receiver.waitFor(() => byEvent("toolrt.tool_result").length > 0);
  expect(byEvent("toolrt.tool_result")[0]?.attributes["toolrt.invoked_by"]).toBe("mcp-client");
});

describe("never more than it should", () => {
  test("off by default: an endpoint alone sends nothing and keeps nothing", async () => {
    const env = telemetryEnv("http/protobuf");
    delete env.TOOLRT_ENABLE_TELEMETRY;
    await toolrt(["check", "Bash", "ls"], env);
    await toolrt(["run", "Read", JSON.stringify({ file_path: "notes.txt" })], env);
    expect(receiver.received).toEqual([]);
    expect(existsSync(join(stateDir, "telemetry-spool"))).toBe(false);
  });

  test("secrets in a call's input never reach the wire, in either encoding", async () => {
    const command = `curl -H "Authorization: Bearer ${SECRET}" https://api.example.com/x?token=${SECRET}`;
    for (const protocol of ["http/protobuf", "http/json"]) {
      await toolrt(["check", "Bash", command], telemetryEnv(protocol));
      const pre = {
        hook_event_name: "PreToolUse",
        tool_name: "Bash",
        tool_input: { command },
        cwd: workspace,
      };
      await toolrt(["hook"], telemetryEnv(protocol), JSON.stringify(pre));
      await toolrt(
        ["run", "Write", JSON.stringify({ file_path: "k.env", content: `API_KEY=${SECRET}\n` })],
        telemetryEnv(protocol),
      );
    }
    expect(byEvent("toolrt.tool_decision").length).toBeGreaterThanOrEqual(6);
    for (const received of receiver.received) {
      expect(received.raw).not.toContain(SECRET);
      expect(received.raw).not.toContain("ThisIsNotARealKey");
    }
    expect(byEvent("toolrt.tool_decision")[0]?.attributes["toolrt.tool.input"]).toContain("[REDACTED");
  });

  test("includeInput: false in the managed policy sends the digest only", async () => {
    mkdirSync(join(root, "managed"));
    writeFileSync(
      join(root, "managed", "managed-policy.json"),
      JSON.stringify({ telemetry: { enabled: true, includeInput: false } }),
    );
    const env = telemetryEnv("http/protobuf", { TOOLRT_ENABLE_TELEMETRY: "0" });
    const run = await toolrt(["check", "Bash", "cat secrets.txt"], env);
    expect(run.stderr).toContain("telemetry is turned on by the managed policy");
    const [decision] = byEvent("toolrt.tool_decision");
    expect(decision?.attributes["toolrt.tool.input"]).toBeUndefined();
    expect(decision?.attributes["toolrt.tool.input_digest"]).toMatch(/^[0-9a-f]{64}$/);
    expect(decision?.resource["toolrt.policy.managed.digest"]).toMatch(/^[0-9a-f]{64}$/);
  });
});

describe("a collector that is down or refuses", () => {
  test("unreachable: the command does its job, says so once, and keeps the records for later", async () => {
    const env = telemetryEnv("http/protobuf", { OTEL_EXPORTER_OTLP_ENDPOINT: "http://127.0.0.1:9" });
    const run = await toolrt(["check", "Bash", "ls"], env);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("allow");
    expect(run.stderr).toContain("telemetry could not be delivered (http://127.0.0.1:9/v1/");
    const spool = join(stateDir, "telemetry-spool");
    const kept = readdirSync(join(spool, readdirSync(spool)[0]!));
    expect(kept.map((f) => f.replace(/^[\d-]+\./, "")).sort()).toEqual(["logs.pb", "metrics.pb"]);
  });

  test("overloaded (503): kept, then delivered by the next process that gets through", async () => {
    receiver.status = 503;
    await toolrt(["check", "Bash", "echo first"], telemetryEnv("http/json"));
    expect(receiver.received.length).toBeGreaterThan(0);
    receiver.status = 200;
    receiver.received.length = 0;
    await toolrt(["check", "Bash", "echo second"], telemetryEnv("http/json"));
    const commands = byEvent("toolrt.tool_decision").map((l) =>
      JSON.parse(String(l.attributes["toolrt.tool.input"]))
    );
    expect(commands).toEqual([{ command: "echo second" }, { command: "echo first" }]);
    const spool = join(stateDir, "telemetry-spool");
    expect(readdirSync(join(spool, readdirSync(spool)[0]!))).toEqual([]);
  });

  test("refused (400): not kept, and the loss is in the audit log", async () => {
    receiver.status = 400;
    await toolrt(["check", "Bash", "ls"], telemetryEnv("http/protobuf"));
    const notices = new AuditLog(join(stateDir, "audit.jsonl")).read().filter((r) => r.kind === "notice");
    expect(notices.map((n) => n.detail)).toEqual(["telemetry lost 1 logs (rejected), 1 metrics (rejected)"]);
  });
});

describe("toolrt audit export --otlp", () => {
  test("sends the log once, resumes after what was sent, and stops cleanly when the collector fails", async () => {
    const off = telemetryEnv("http/protobuf");
    delete off.TOOLRT_ENABLE_TELEMETRY;
    await toolrt(["run", "Read", JSON.stringify({ file_path: "notes.txt" })], off);
    expect(receiver.received).toEqual([]);
    const first = await toolrt(["audit", "export", "--otlp"], off);
    expect(first.code).toBe(0);
    const audit = () => new AuditLog(join(stateDir, "audit.jsonl")).read();
    const hashes = () => receiver.logs().map((l) => l.attributes["toolrt.audit.hash"]);
    expect(hashes()).toEqual(audit().map((r) => r.hash));
    expect(first.stdout).toContain(
      `exported 2 records to ${receiver.url}/v1/logs; the next run starts after record 2`,
    );

    const again = await toolrt(["audit", "export", "--otlp"], off);
    expect(again.stdout).toContain("nothing new to export (2 records already sent)");
    expect(receiver.logs()).toHaveLength(2);

    await toolrt(["run", "Read", JSON.stringify({ file_path: "missing.txt" })], off);
    receiver.status = 503;
    const failed = await toolrt(["audit", "export", "--otlp"], off);
    expect(failed.code).toBe(1);
    expect(failed.stderr).toContain("HTTP 503; run it again to resume");
    receiver.status = 200;
    receiver.received.length = 0;
    const resumed = await toolrt(["audit", "export", "--otlp"], off);
    expect(resumed.code).toBe(0);
    expect(hashes()).toEqual(audit().slice(2).map((r) => r.hash));
    expect(receiver.logs().map((l) => l.eventName)).toEqual(["toolrt.tool_decision", "toolrt.tool_result"]);
  });

  test("a log that no longer holds the remembered record is sent again whole; a managed off refuses", async () => {
    const off = telemetryEnv("http/json");
    delete off.TOOLRT_ENABLE_TELEMETRY;
    await toolrt(["run", "Read", JSON.stringify({ file_path: "notes.txt" })], off);
    await toolrt(["audit", "export", "--otlp"], off);
    writeFileSync(join(stateDir, "audit.jsonl"), "");
    await toolrt(["run", "Read", JSON.stringify({ file_path: "notes.txt" })], off);
    receiver.received.length = 0;
    const again = await toolrt(["audit", "export", "--otlp"], off);
    expect(again.stdout).toContain("no longer in the log: sending it all again");
    expect(receiver.logs()).toHaveLength(2);

    mkdirSync(join(root, "managed"));
    writeFileSync(
      join(root, "managed", "managed-policy.json"),
      JSON.stringify({ telemetry: { enabled: false } }),
    );
    const refused = await toolrt(["audit", "export", "--otlp"], off);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain("telemetry is turned off by the managed policy");
  });
});
