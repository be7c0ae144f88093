/**
 * Telemetry's entry: `openTelemetry` resolves the configuration (OTEL_* variables,
 * TOOLRT_ENABLE_TELEMETRY, the policy's `telemetry` sections) and, only when it is on, loads the
 * exporter. Off — the default — costs reading the environment and the managed and user policy
 * files' `telemetry` keys, and no network. `flushTelemetry` (registry.ts) sends what the process's
 * exporters hold, at exit, within a deadline.
 */
import type { Telemetry } from "./api.ts";
import { type ResolvedTelemetry, resolveTelemetry } from "./config.ts";
import { registered } from "./registry.ts";
import { readTelemetrySources } from "./sources.ts";

export type { Telemetry } from "./api.ts";
export { EXIT_DEADLINE_MS, flushTelemetry } from "./registry.ts";

export interface OpenOptions {
  env?: Record<string, string | undefined>;
  cwd: string;
  /** `--policy FILE`s: their `telemetry` sections count too. */
  flagFiles?: readonly string[];
  stateDir?: string;
  onDropped?: (message: string) => void;
  onProblem?: (message: string) => void;
}

export interface OpenedTelemetry {
  /** Undefined when telemetry is off. */
  telemetry?: Telemetry;
  /** Settings that were ignored or invalid, and why. */
  warnings: string[];
}

export async function openTelemetry(options: OpenOptions): Promise<OpenedTelemetry> {
  const env = options.env ?? process.env;
  const read = readTelemetrySources({
    env,
    cwd: options.cwd,
    ...(options.flagFiles ? { flagFiles: options.flagFiles } : {}),
  });
  const resolved = resolveTelemetry(env, read.sources);
  const warnings = [...read.warnings, ...resolved.warnings];
  const config = resolved.config;
  if (!config) return { warnings };
  const { Exporter } = await import("./exporter.ts");
  // One exporter per configuration and state dir (the resident helper serves many calls).
  const exporter = registered(
    `${options.stateDir ?? ""}\0${JSON.stringify(config)}`,
    () =>
      new Exporter({
        config,
        env,
        ...(options.stateDir ? { stateDir: options.stateDir } : {}),
        ...(options.onDropped ? { onDropped: options.onDropped } : {}),
        ...(options.onProblem ? { onProblem: options.onProblem } : {}),
      }),
  );
  return { telemetry: exporter.telemetry(), warnings };
}

/**
 * The configuration for an explicit export (`toolrt audit export --otlp`): asking for it is the
 * switch, so only a managed `enabled: false` refuses it.
 */
export function exportConfig(options: Pick<OpenOptions, "env" | "cwd" | "flagFiles">): ResolvedTelemetry {
  const env = { ...(options.env ?? process.env), TOOLRT_ENABLE_TELEMETRY: "1", OTEL_SDK_DISABLED: undefined };
  const read = readTelemetrySources({
    env,
    cwd: options.cwd,
    ...(options.flagFiles ? { flagFiles: options.flagFiles } : {}),
  });
  const resolved = resolveTelemetry(env, read.sources);
  return { ...resolved, warnings: [...read.warnings, ...resolved.warnings] };
}
