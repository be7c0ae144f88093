/**
 * The `telemetry` sections of the policy files that may configure it: managed, user and --policy
 * files (not a workspace's own files: a cloned repository must not choose where its commands are
 * reported). Read apart from the rest of the policy because a process must know whether to export
 * before it decides anything, and hook calls after a tool ran load no policy at all. A managed
 * `lock` leaves the managed sections only, as it does for rules.
 */
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { managedPolicyFiles, userPolicyFile } from "../policy/load.ts";
import { telemetrySectionSchema } from "../policy/schema.ts";
import type { TelemetrySource } from "./config.ts";

export interface SourceOptions {
  env: Record<string, string | undefined>;
  cwd: string;
  flagFiles?: readonly string[];
  platform?: NodeJS.Platform;
}

export function readTelemetrySources(
  options: SourceOptions,
): { sources: TelemetrySource[]; warnings: string[] } {
  const warnings: string[] = [];
  const sources: TelemetrySource[] = [];
  let locked = false;
  const read = (source: TelemetrySource["source"], file: string) => {
    const spec = readSpec(file, warnings);
    if (!spec) return;
    if (source === "managed" && spec.lock === true) locked = true;
    if (spec.telemetry === undefined) return;
    const parsed = telemetrySectionSchema.safeParse(spec.telemetry);
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      warnings.push(
        `${file}: telemetry.${issue.path.join(".")}: ${issue.message}; its telemetry section is ignored ` +
          "(toolrt policy validate)",
      );
      return;
    }
    sources.push({ source, file, telemetry: parsed.data });
  };
  for (const file of managedPolicyFiles(options.env, options.platform ?? process.platform)) {
    read("managed", file);
  }
  if (!locked) {
    read("user", userPolicyFile(options.env));
    for (const flag of options.flagFiles ?? []) read("flag", resolve(options.cwd, flag));
  }
  return { sources, warnings };
}

function readSpec(file: string, warnings: string[]): Record<string, unknown> | undefined {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch {
    return undefined; // missing or unreadable: the policy loader reports it
  }
  try {
    const value = JSON.parse(text);
    return value && typeof value === "object" && !Array.isArray(value) ? value : undefined;
  } catch {
    warnings.push(`${file}: not valid JSON; its telemetry section cannot be read (toolrt policy validate)`);
    return undefined;
  }
}
