/** Whether telemetry is on and where it goes: variables, policy sections, and who may override whom. */
import { describe, expect, test } from "bun:test";
import { resolveTelemetry, type TelemetrySource } from "../../src/telemetry/config.ts";

const managed = (telemetry: TelemetrySource["telemetry"]): TelemetrySource => ({
  source: "managed",
  file: "/etc/toolrt/managed-policy.json",
  telemetry,
});
const user = (telemetry: TelemetrySource["telemetry"]): TelemetrySource => ({
  source: "user",
  file: "/home/u/.config/toolrt/policy.json",
  telemetry,
});
const flag = (telemetry: TelemetrySource["telemetry"]): TelemetrySource => ({
  source: "flag",
  file: "/w/fleet.json",
  telemetry,
});
const ON = { TOOLRT_ENABLE_TELEMETRY: "1" };

describe("on or off", () => {
  const cases: [string, Record<string, string>, TelemetrySource[], boolean][] = [
    [
      "off by default, even with an endpoint set",
      { OTEL_EXPORTER_OTLP_ENDPOINT: "http://c:4318" },
      [],
      false,
    ],
    ["TOOLRT_ENABLE_TELEMETRY=1 turns it on", ON, [], true],
    ["TOOLRT_ENABLE_TELEMETRY=true turns it on", { TOOLRT_ENABLE_TELEMETRY: "true" }, [], true],
    ["OTEL_SDK_DISABLED=true keeps it off", { ...ON, OTEL_SDK_DISABLED: "true" }, [], false],
    ["a user policy turns it on", {}, [user({ enabled: true })], true],
    ["the environment turns the user policy's switch off", { TOOLRT_ENABLE_TELEMETRY: "0" }, [
      user({ enabled: true }),
    ], false],
    [
      "a --policy file beats the environment",
      { TOOLRT_ENABLE_TELEMETRY: "0" },
      [flag({ enabled: true })],
      true,
    ],
    ["a managed on cannot be turned off", { TOOLRT_ENABLE_TELEMETRY: "0", OTEL_SDK_DISABLED: "true" }, [
      managed({ enabled: true }),
      flag({ enabled: false }),
    ], true],
    ["a managed off cannot be turned on", ON, [managed({ enabled: false }), user({ enabled: true })], false],
    ["a managed endpoint alone leaves the switch to the user", ON, [
      managed({ endpoint: "https://o.example" }),
    ], true],
  ];
  for (const [name, env, sources, on] of cases) {
    test(name, () => expect(resolveTelemetry(env, sources).config !== undefined).toBe(on));
  }

  test("a managed switch says when it overrides the environment", () => {
    const { warnings } = resolveTelemetry({ TOOLRT_ENABLE_TELEMETRY: "0" }, [managed({ enabled: true })]);
    expect(warnings).toEqual([
      "telemetry is turned on by the managed policy /etc/toolrt/managed-policy.json; TOOLRT_ENABLE_TELEMETRY is ignored",
    ]);
  });
});

describe("where it goes", () => {
  test("the default collector, each signal at its path, protobuf", () => {
    const { config } = resolveTelemetry(ON, []);
    expect(config?.targets).toEqual({
      logs: {
        kind: "otlp",
        url: "http://localhost:4318/v1/logs",
        protocol: "http/protobuf",
        headers: {},
        timeoutMs: 10_000,
      },
      metrics: {
        kind: "otlp",
        url: "http://localhost:4318/v1/metrics",
        protocol: "http/protobuf",
        headers: {},
        timeoutMs: 10_000,
      },
      traces: {
        kind: "otlp",
        url: "http://localhost:4318/v1/traces",
        protocol: "http/protobuf",
        headers: {},
        timeoutMs: 10_000,
      },
    });
  });

  test("standard variables: base endpoint, per-signal endpoint used as is, protocols, headers, timeouts", () => {
    const { config, warnings } = resolveTelemetry({
      ...ON,
      OTEL_EXPORTER_OTLP_ENDPOINT: "https://collector.example:4318/",
      OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: "https://traces.example/custom",
      OTEL_EXPORTER_OTLP_PROTOCOL: "http/json",
      OTEL_EXPORTER_OTLP_METRICS_PROTOCOL: "http/protobuf",
      OTEL_EXPORTER_OTLP_HEADERS: "Authorization=Bearer%20abc, x-team = infra",
      OTEL_EXPORTER_OTLP_LOGS_HEADERS: "x-team=logs",
      OTEL_EXPORTER_OTLP_TIMEOUT: "2000",
    }, []);
    expect(warnings).toEqual([]);
    expect(config?.targets.logs).toEqual({
      kind: "otlp",
      url: "https://collector.example:4318/v1/logs",
      protocol: "http/json",
      headers: { authorization: "Bearer abc", "x-team": "logs" },
      timeoutMs: 2000,
    });
    expect(config?.targets.metrics).toMatchObject({
      protocol: "http/protobuf",
      headers: { "x-team": "infra" },
    });
    expect(config?.targets.traces).toMatchObject({
      url: "https://traces.example/custom",
      protocol: "http/json",
    });
  });

  test("a managed endpoint and headers cannot be redirected or replaced from the environment", () => {
    const { config, warnings } = resolveTelemetry({
      ...ON,
      OTEL_EXPORTER_OTLP_ENDPOINT: "http://elsewhere:4318",
      OTEL_EXPORTER_OTLP_LOGS_ENDPOINT: "http://elsewhere:4318/v1/logs",
      OTEL_EXPORTER_OTLP_HEADERS: "authorization=mine,x-extra=1",
    }, [managed({ endpoint: "https://otel.corp.example", headers: { Authorization: "Bearer fleet" } })]);
    expect(config?.targets.logs).toMatchObject({
      url: "https://otel.corp.example/v1/logs",
      headers: { authorization: "Bearer fleet", "x-extra": "1" },
    });
    expect(warnings).toContain(
      "OTEL_EXPORTER_OTLP_LOGS_ENDPOINT is ignored: /etc/toolrt/managed-policy.json sets the endpoint",
    );
  });

  test("exporters: none and console per signal; the managed switch keeps otlp", () => {
    const env = { ...ON, OTEL_METRICS_EXPORTER: "none", OTEL_TRACES_EXPORTER: "console" };
    expect(Object.keys(resolveTelemetry(env, []).config!.targets)).toEqual(["logs", "traces"]);
    expect(resolveTelemetry(env, []).config!.targets.traces).toEqual({ kind: "console" });
    const forced = resolveTelemetry(env, [managed({ enabled: true })]);
    expect(Object.values(forced.config!.targets).map((t) => t.kind)).toEqual(["otlp", "otlp", "otlp"]);
    expect(forced.warnings).toContain(
      "OTEL_METRICS_EXPORTER=none is ignored: the managed policy turns telemetry on",
    );
  });

  test("grpc is refused with what to set instead; a bad URL is named", () => {
    const grpc = resolveTelemetry({ ...ON, OTEL_EXPORTER_OTLP_PROTOCOL: "grpc" }, []);
    expect(grpc.config?.targets).toEqual({});
    expect(grpc.warnings[0]).toContain("set http/protobuf and the collector's HTTP port (4318)");
    const bad = resolveTelemetry({ ...ON, OTEL_EXPORTER_OTLP_LOGS_ENDPOINT: "collector:4318" }, []);
    expect(bad.config?.targets.logs).toBeUndefined();
    expect(bad.warnings).toContain(
      'telemetry: logs are not exported: "collector:4318" is not an http(s) URL',
    );
  });

  test("the spool key changes with the targets, so kept records go where they were meant to", () => {
    const a = resolveTelemetry({ ...ON, OTEL_EXPORTER_OTLP_ENDPOINT: "http://a:4318" }, []).config!.key;
    const b = resolveTelemetry({ ...ON, OTEL_EXPORTER_OTLP_ENDPOINT: "http://b:4318" }, []).config!.key;
    const c = resolveTelemetry({
      ...ON,
      OTEL_EXPORTER_OTLP_ENDPOINT: "http://a:4318",
      OTEL_EXPORTER_OTLP_HEADERS: "k=v",
    }, [])
      .config!.key;
    expect(new Set([a, b, c]).size).toBe(3);
  });
});

describe("resource, batching, temporality", () => {
  test("resource attributes: user policy < OTEL_RESOURCE_ATTRIBUTES < managed; OTEL_SERVICE_NAME names the service", () => {
    const { config } = resolveTelemetry({
      ...ON,
      OTEL_RESOURCE_ATTRIBUTES: "team=infra,region=eu%2Dwest,deployment.environment=prod",
      OTEL_SERVICE_NAME: "agents",
    }, [
      user({ resourceAttributes: { team: "mine", laptop: "yes" } }),
      managed({ resourceAttributes: { region: "fleet" } }),
    ]);
    expect(config?.resourceAttributes).toEqual({
      team: "infra",
      laptop: "yes",
      region: "fleet",
      "deployment.environment": "prod",
    });
    expect(config?.serviceName).toBe("agents");
  });

  test("intervals and queue sizes from the standard variables; bad values are named and replaced", () => {
    const { config, warnings } = resolveTelemetry({
      ...ON,
      OTEL_LOGS_EXPORT_INTERVAL: "5000",
      OTEL_BLRP_MAX_QUEUE_SIZE: "100",
      OTEL_BLRP_MAX_EXPORT_BATCH_SIZE: "512",
      OTEL_BSP_SCHEDULE_DELAY: "-1",
      OTEL_METRIC_EXPORT_INTERVAL: "10000",
    }, []);
    expect(config?.logs).toEqual({ scheduleDelayMs: 5000, maxQueueSize: 100, maxExportBatchSize: 100 });
    expect(config?.traces.scheduleDelayMs).toBe(5000);
    expect(config?.metricIntervalMs).toBe(10_000);
    expect(warnings).toEqual([
      'OTEL_BSP_SCHEDULE_DELAY must be a positive whole number, not "-1"; using 5000',
    ]);
  });

  test("delta temporality unless cumulative is asked for", () => {
    expect(resolveTelemetry(ON, []).config?.temporality).toBe("delta");
    const cumulative = { ...ON, OTEL_EXPORTER_OTLP_METRICS_TEMPORALITY_PREFERENCE: "Cumulative" };
    expect(resolveTelemetry(cumulative, []).config?.temporality).toBe("cumulative");
  });

  test("the input goes along unless a policy says includeInput: false", () => {
    expect(resolveTelemetry(ON, []).config?.includeInput).toBe(true);
    expect(
      resolveTelemetry(ON, [managed({ includeInput: false }), user({ includeInput: true })]).config
        ?.includeInput,
    )
      .toBe(false);
  });
});
