/**
 * Which policy files configure telemetry: managed, user and --policy files; never the workspace's
 * own; only the managed ones under a managed lock. And the shipped example works as documented.
 */
import { describe, expect, test } from "bun:test";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { compilePolicyText } from "../../src/policy/policy-file.ts";
import { resolveTelemetry } from "../../src/telemetry/config.ts";
import { readTelemetrySources } from "../../src/telemetry/sources.ts";
import { tempDir } from "../helpers/session-context.ts";

const EXAMPLE = join(import.meta.dir, "../../policy/examples/fleet-telemetry.json");

function machine() {
  const root = tempDir("toolrt-telemetry-sources-");
  const dirs = {
    managed: join(root, "managed"),
    config: join(root, "config", "toolrt"),
    ws: join(root, "ws"),
  };
  for (
    const dir of [dirs.managed, join(dirs.managed, "managed-policy.d"), dirs.config, join(dirs.ws, ".toolrt")]
  ) {
    mkdirSync(dir, { recursive: true });
  }
  const env = {
    HOME: join(root, "home"),
    XDG_CONFIG_HOME: join(root, "config"),
    TOOLRT_MANAGED_POLICY: dirs.managed,
  };
  const write = (file: string, spec: unknown) => writeFileSync(file, JSON.stringify(spec));
  return { root, dirs, env, write };
}

describe("telemetry sources", () => {
  test("the shipped fleet example, as a managed drop-in, turns export on to its collector for good", () => {
    const { dirs, env } = machine();
    writeFileSync(join(dirs.managed, "managed-policy.d", "telemetry.json"), readFileSync(EXAMPLE));
    const { sources, warnings } = readTelemetrySources({ env, cwd: dirs.ws });
    expect(warnings).toEqual([]);
    const { config } = resolveTelemetry({ ...env, TOOLRT_ENABLE_TELEMETRY: "0" }, sources);
    expect(config?.targets.logs).toMatchObject({
      url: "http://otel-collector.internal:4318/v1/logs",
      headers: { "x-fleet": "build-servers" },
    });
    expect(config?.resourceAttributes).toMatchObject({ fleet: "build-servers" });
    const compiled = compilePolicyText(EXAMPLE, readFileSync(EXAMPLE, "utf8"), {
      source: "managed",
      anchors: { cwd: dirs.ws, home: env.HOME, sourceBase: dirs.managed },
      trusted: true,
    });
    expect([...compiled.errors, ...compiled.warnings]).toEqual([]);
  });

  test("user and --policy files count; the workspace's own files do not, and validation says so", () => {
    const { dirs, env, write } = machine();
    write(join(dirs.config, "policy.json"), { telemetry: { enabled: true } });
    write(join(dirs.ws, "fleet.json"), { telemetry: { endpoint: "https://flag.example" } });
    const project = join(dirs.ws, ".toolrt", "policy.json");
    write(project, { telemetry: { endpoint: "https://attacker.example" } });
    const { sources } = readTelemetrySources({ env, cwd: dirs.ws, flagFiles: ["fleet.json"] });
    expect(sources.map((s) => s.source)).toEqual(["user", "flag"]);
    const compiled = compilePolicyText(project, readFileSync(project, "utf8"), {
      source: "project",
      anchors: { cwd: dirs.ws, home: env.HOME, sourceBase: dirs.ws },
      trusted: true,
    });
    expect(compiled.warnings.map((w) => w.message)).toEqual([
      `${project}:1:2: "telemetry" is read from managed, user and --policy files only (a workspace does not choose where its calls are reported); ignored here`,
    ]);
  });

  test("a managed lock leaves the managed sections only; a malformed section is named and skipped", () => {
    const { dirs, env, write } = machine();
    write(join(dirs.managed, "managed-policy.json"), { lock: true, telemetry: { enabled: false } });
    write(join(dirs.config, "policy.json"), { telemetry: { enabled: true, endpoint: "ftp://nope" } });
    expect(readTelemetrySources({ env, cwd: dirs.ws }).sources.map((s) => s.source)).toEqual(["managed"]);
    write(join(dirs.managed, "managed-policy.json"), { telemetry: { enabled: true } });
    const { sources, warnings } = readTelemetrySources({ env, cwd: dirs.ws });
    expect(sources.map((s) => s.source)).toEqual(["managed"]);
    expect(warnings).toEqual([
      `${
        join(dirs.config, "policy.json")
      }: telemetry.endpoint: expected an http:// or https:// URL; its telemetry section is ignored (toolrt policy validate)`,
    ]);
  });
});

describe("decision fields", () => {
  test("a decision the sandbox allowed says so, and whether the call runs sandboxed", async () => {
    const { decisionFields } = await import("../../src/audit/decision.ts");
    const base = {
      tool: "Bash",
      decision: "allow" as const,
      reason: "runs in the sandbox",
      matched: [],
      checks: [],
      warnings: [],
      suggestions: [],
      overridden: [],
      untrusted: [],
    };
    expect(decisionFields(base)).toEqual({
      decision: "allow",
      reason: "runs in the sandbox",
      source: "toolrt",
    });
    const contained = { ...base, sandbox: { sandboxed: true, autoAllowed: true, needsPerson: [] } };
    expect(decisionFields(contained)).toMatchObject({ source: "sandbox", sandboxed: true });
    const onHost = { ...base, sandbox: { sandboxed: false, autoAllowed: false, needsPerson: [] } };
    expect(decisionFields(onHost)).toMatchObject({ source: "toolrt", sandboxed: false });
  });
});
