/**
 * Whether and where telemetry goes: the standard OTEL_* variables, TOOLRT_ENABLE_TELEMETRY and the
 * `telemetry` sections of the managed, user and --policy files, resolved into one config. Pure.
 *
 * Precedence, per setting: managed policy > --policy files > environment > user policy > default.
 * So a managed `enabled: true` cannot be turned off (TOOLRT_ENABLE_TELEMETRY=0, OTEL_SDK_DISABLED,
 * OTEL_*_EXPORTER=none are ignored) and a managed `enabled: false` cannot be turned on; a managed
 * endpoint cannot be redirected by OTEL_EXPORTER_OTLP_*ENDPOINT. Off unless something turns it on.
 */
import type { TelemetrySection } from "../policy/schema.ts";

export const SIGNALS = ["logs", "metrics", "traces"] as const;
export type Signal = (typeof SIGNALS)[number];
export type Protocol = "http/protobuf" | "http/json";

/** Where one signal goes: an OTLP/HTTP endpoint, or stderr as OTLP/JSON lines (`OTEL_*_EXPORTER=console`). */
export type SignalTarget =
  | { kind: "otlp"; url: string; protocol: Protocol; headers: Record<string, string>; timeoutMs: number }
  | { kind: "console" };

export interface BatchSettings {
  scheduleDelayMs: number;
  maxQueueSize: number;
  maxExportBatchSize: number;
}

export interface TelemetryConfig {
  /** The signals exported; a missing one is off (`OTEL_<SIGNAL>_EXPORTER=none`). */
  targets: Partial<Record<Signal, SignalTarget>>;
  serviceName: string;
  resourceAttributes: Record<string, string>;
  /** Send the redacted, bounded input with decisions (otherwise its digest only). */
  includeInput: boolean;
  logs: BatchSettings;
  traces: BatchSettings;
  metricIntervalMs: number;
  temporality: "delta" | "cumulative";
  /**
   * `TOOLRT_TELEMETRY_EXIT_DEADLINE_MS`: how long a process waits for the collector at exit,
   * instead of its own default (1 s for commands, 25 ms for a hook call).
   */
  exitDeadlineMs?: number;
  /** Identifies the targets (URLs, protocols, headers): records handed over for later go to the same place. */
  key: string;
}

export interface TelemetrySource {
  source: "managed" | "flag" | "user";
  file: string;
  telemetry: TelemetrySection;
}

export interface ResolvedTelemetry {
  config?: TelemetryConfig;
  warnings: string[];
}

type Env = Record<string, string | undefined>;

const DEFAULT_ENDPOINT = "http://localhost:4318";
const PRECEDENCE: readonly TelemetrySource["source"][] = ["managed", "flag", "user"];

/** @example resolveTelemetry({ TOOLRT_ENABLE_TELEMETRY: "1" }, []).config?.targets.logs?.url // http://localhost:4318/v1/logs */
export function resolveTelemetry(env: Env, sources: readonly TelemetrySource[]): ResolvedTelemetry {
  const warnings: string[] = [];
  const ordered = [...sources].sort((a, b) => PRECEDENCE.indexOf(a.source) - PRECEDENCE.indexOf(b.source));
  const from = (source: TelemetrySource["source"]) => ordered.filter((s) => s.source === source);
  const managed = from("managed");
  const above = [...managed, ...from("flag")];
  const below = from("user");
  /** The first section, in precedence order, that sets `key`; env sits between `above` and `below`. */
  const first = <K extends keyof TelemetrySection>(list: TelemetrySource[], key: K) =>
    list.find((s) => s.telemetry[key] !== undefined);

  const managedSwitch = first(managed, "enabled");
  const enabled = managedSwitch
    ? forcedSwitch(managedSwitch, env, warnings)
    : first(above, "enabled")?.telemetry.enabled ?? envSwitch(env, warnings) ??
      first(below, "enabled")?.telemetry.enabled ?? false;
  if (!enabled) return { warnings };

  const policyEndpoint = first(above, "endpoint");
  if (policyEndpoint) {
    ignoreEnv(env, endpointVariables(), `${policyEndpoint.file} sets the endpoint`, warnings);
  }
  const timeoutDefault = positive(env, "OTEL_EXPORTER_OTLP_TIMEOUT", 10_000, warnings);
  const headersBelow = mergeRecords(below.map((s) => s.telemetry.headers));
  const headersAbove = mergeRecords(above.map((s) => s.telemetry.headers));
  const envHeaders = parseList(env.OTEL_EXPORTER_OTLP_HEADERS, "OTEL_EXPORTER_OTLP_HEADERS", warnings);
  const forced = managedSwitch?.telemetry.enabled === true;

  const targets: TelemetryConfig["targets"] = {};
  for (const signal of SIGNALS) {
    const upper = signal.toUpperCase();
    const exporter = exporterOf(env, signal, forced, warnings);
    if (exporter === "none") continue;
    if (exporter === "console") {
      targets[signal] = { kind: "console" };
      continue;
    }
    const protocol = first(above, "protocol")?.telemetry.protocol ??
      protocolOf(
        env[`OTEL_EXPORTER_OTLP_${upper}_PROTOCOL`],
        `OTEL_EXPORTER_OTLP_${upper}_PROTOCOL`,
        warnings,
      ) ??
      protocolOf(env.OTEL_EXPORTER_OTLP_PROTOCOL, "OTEL_EXPORTER_OTLP_PROTOCOL", warnings) ??
      first(below, "protocol")?.telemetry.protocol ?? "http/protobuf";
    if (protocol === "grpc") continue;
    const signalEndpoint = policyEndpoint ? undefined : env[`OTEL_EXPORTER_OTLP_${upper}_ENDPOINT`];
    const base = policyEndpoint?.telemetry.endpoint ?? env.OTEL_EXPORTER_OTLP_ENDPOINT ??
      first(below, "endpoint")?.telemetry.endpoint ?? DEFAULT_ENDPOINT;
    const url = signalEndpoint || signalUrl(base, signal);
    if (!validUrl(url)) {
      warnings.push(`telemetry: ${signal} are not exported: ${JSON.stringify(url)} is not an http(s) URL`);
      continue;
    }
    const headers = {
      ...headersBelow,
      ...envHeaders,
      ...parseList(
        env[`OTEL_EXPORTER_OTLP_${upper}_HEADERS`],
        `OTEL_EXPORTER_OTLP_${upper}_HEADERS`,
        warnings,
      ),
      ...headersAbove,
    };
    const timeoutMs = positive(env, `OTEL_EXPORTER_OTLP_${upper}_TIMEOUT`, timeoutDefault, warnings);
    targets[signal] = { kind: "otlp", url, protocol, headers: lowerCaseNames(headers), timeoutMs };
  }

  const resourceAttributes = {
    ...mergeRecords(below.map((s) => s.telemetry.resourceAttributes)),
    ...parseList(env.OTEL_RESOURCE_ATTRIBUTES, "OTEL_RESOURCE_ATTRIBUTES", warnings),
    ...mergeRecords(above.map((s) => s.telemetry.resourceAttributes)),
  };
  const serviceName = env.OTEL_SERVICE_NAME || resourceAttributes["service.name"] || "toolrt";
  const config: TelemetryConfig = {
    targets,
    serviceName,
    resourceAttributes,
    includeInput: first(above, "includeInput")?.telemetry.includeInput ??
      first(below, "includeInput")?.telemetry.includeInput ?? true,
    logs: batchSettings(
      env,
      "BLRP",
      env.OTEL_LOGS_EXPORT_INTERVAL ? "OTEL_LOGS_EXPORT_INTERVAL" : undefined,
      {
        scheduleDelayMs: 1_000,
      },
      warnings,
    ),
    traces: batchSettings(env, "BSP", undefined, { scheduleDelayMs: 5_000 }, warnings),
    metricIntervalMs: positive(env, "OTEL_METRIC_EXPORT_INTERVAL", 60_000, warnings),
    temporality: temporalityOf(env.OTEL_EXPORTER_OTLP_METRICS_TEMPORALITY_PREFERENCE, warnings),
    ...(env.TOOLRT_TELEMETRY_EXIT_DEADLINE_MS
      ? { exitDeadlineMs: positive(env, "TOOLRT_TELEMETRY_EXIT_DEADLINE_MS", 1_000, warnings) }
      : {}),
    key: "",
  };
  config.key = new Bun.CryptoHasher("sha256").update(JSON.stringify(targets)).digest("hex").slice(0, 16);
  return { config, warnings };
}

/** A managed `enabled` setting: the environment is told it is ignored when it says otherwise. */
function forcedSwitch(managed: TelemetrySource, env: Env, warnings: string[]): boolean {
  const wanted = managed.telemetry.enabled === true;
  const envWants = envSwitch(env, []);
  const sdkDisabled = wanted && env.OTEL_SDK_DISABLED?.toLowerCase() === "true";
  if ((envWants !== undefined && envWants !== wanted) || sdkDisabled) {
    warnings.push(
      `telemetry is turned ${wanted ? "on" : "off"} by the managed policy ${managed.file}; ` +
        `${sdkDisabled ? "OTEL_SDK_DISABLED" : "TOOLRT_ENABLE_TELEMETRY"} is ignored`,
    );
  }
  return wanted;
}

/** The environment's switch: OTEL_SDK_DISABLED=true (the standard one) wins over TOOLRT_ENABLE_TELEMETRY. */
function envSwitch(env: Env, warnings: string[]): boolean | undefined {
  if (env.OTEL_SDK_DISABLED?.trim().toLowerCase() === "true") return false;
  const value = env.TOOLRT_ENABLE_TELEMETRY?.trim().toLowerCase();
  if (value === "1" || value === "true") return true;
  if (value === "0" || value === "false") return false;
  if (value) warnings.push(`TOOLRT_ENABLE_TELEMETRY must be 1 or 0, not ${JSON.stringify(value)}; ignored`);
  return undefined;
}

function exporterOf(
  env: Env,
  signal: Signal,
  forced: boolean,
  warnings: string[],
): "otlp" | "console" | "none" {
  const name = `OTEL_${signal.toUpperCase()}_EXPORTER`;
  const value = env[name]?.split(",")[0]?.trim().toLowerCase() || "otlp";
  if (value !== "otlp" && value !== "console" && value !== "none") {
    warnings.push(`${name}=${env[name]}: toolrt exports otlp, console or none; using otlp`);
    return "otlp";
  }
  if (forced && value !== "otlp") {
    warnings.push(`${name}=${value} is ignored: the managed policy turns telemetry on`);
    return "otlp";
  }
  return value;
}

function protocolOf(
  value: string | undefined,
  name: string,
  warnings: string[],
): Protocol | "grpc" | undefined {
  if (value === undefined || value === "") return undefined;
  if (value === "http/protobuf" || value === "http/json") return value;
  if (value === "grpc") {
    warnings.push(
      `${name}=grpc: toolrt exports over OTLP/HTTP only; set http/protobuf and the collector's HTTP port (4318)`,
    );
    return "grpc";
  }
  warnings.push(`${name}=${value}: expected http/protobuf or http/json; using http/protobuf`);
  return "http/protobuf";
}

/** `OTEL_EXPORTER_OTLP_ENDPOINT` is a base URL: the signal's path is added to it. */
function signalUrl(base: string, signal: Signal): string {
  return `${base.replace(/\/+$/, "")}/v1/${signal}`;
}

function validUrl(url: string): boolean {
  try {
    return ["http:", "https:"].includes(new URL(url).protocol);
  } catch {
    return false;
  }
}

function endpointVariables(): string[] {
  return [
    "OTEL_EXPORTER_OTLP_ENDPOINT",
    ...SIGNALS.map((s) => `OTEL_EXPORTER_OTLP_${s.toUpperCase()}_ENDPOINT`),
  ];
}

function ignoreEnv(env: Env, names: string[], why: string, warnings: string[]): void {
  for (const name of names) if (env[name]) warnings.push(`${name} is ignored: ${why}`);
}

/** `key1=value1,key2=value2`, values percent-decoded (OTEL_EXPORTER_OTLP_HEADERS, OTEL_RESOURCE_ATTRIBUTES). */
export function parseList(
  value: string | undefined,
  name: string,
  warnings: string[],
): Record<string, string> {
  const out: Record<string, string> = {};
  if (!value) return out;
  for (const item of value.split(",")) {
    if (item.trim() === "") continue;
    const at = item.indexOf("=");
    const key = at > 0 ? item.slice(0, at).trim() : "";
    if (!key) {
      warnings.push(`${name}: ${JSON.stringify(item.trim())} is not key=value; skipped`);
      continue;
    }
    try {
      out[key] = decodeURIComponent(item.slice(at + 1).trim());
    } catch {
      out[key] = item.slice(at + 1).trim();
    }
  }
  return out;
}

function mergeRecords(records: (Record<string, string> | undefined)[]): Record<string, string> {
  // The first of the list has precedence: it is spread last.
  return Object.assign({}, ...[...records].reverse().filter(Boolean));
}

function lowerCaseNames(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));
}

function positive(env: Env, name: string, fallback: number, warnings: string[]): number {
  const value = env[name];
  if (value === undefined || value.trim() === "") return fallback;
  const n = Number(value);
  if (Number.isInteger(n) && n > 0) return n;
  warnings.push(`${name} must be a positive whole number, not ${JSON.stringify(value)}; using ${fallback}`);
  return fallback;
}

function batchSettings(
  env: Env,
  prefix: "BLRP" | "BSP",
  delayName: string | undefined,
  defaults: { scheduleDelayMs: number },
  warnings: string[],
): BatchSettings {
  const maxQueueSize = positive(env, `OTEL_${prefix}_MAX_QUEUE_SIZE`, 2_048, warnings);
  return {
    scheduleDelayMs: positive(
      env,
      delayName ?? `OTEL_${prefix}_SCHEDULE_DELAY`,
      defaults.scheduleDelayMs,
      warnings,
    ),
    maxQueueSize,
    maxExportBatchSize: Math.min(
      maxQueueSize,
      positive(env, `OTEL_${prefix}_MAX_EXPORT_BATCH_SIZE`, 512, warnings),
    ),
  };
}

/**
 * Delta by default: most toolrt processes live for one call, and per-process cumulative series of
 * the same resource would read as counter resets.
 */
function temporalityOf(value: string | undefined, warnings: string[]): "delta" | "cumulative" {
  const v = value?.trim().toLowerCase();
  if (!v || v === "delta" || v === "lowmemory") return "delta";
  if (v === "cumulative") return "cumulative";
  warnings.push(
    `OTEL_EXPORTER_OTLP_METRICS_TEMPORALITY_PREFERENCE=${value}: expected delta or cumulative; using delta`,
  );
  return "delta";
}
