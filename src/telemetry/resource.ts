/**
 * The resource every record carries: which machine, user and toolrt build, and the digest of each
 * policy source, so a fleet can be grouped by host, build and policy version.
 */
import { arch, hostname, type, userInfo } from "node:os";
import packageJson from "../../package.json" with { type: "json" };
import { BUILD_HASH } from "../hook/resident/socket.ts";
import type { PolicyDigests } from "./api.ts";
import type { TelemetryConfig } from "./config.ts";
import type { InstrumentationScope } from "./otlp/types.ts";
import type { Attributes } from "./otlp/values.ts";

/** The instrumentation scope of everything toolrt sends. */
export const SCOPE: InstrumentationScope = { name: "toolrt", version: packageJson.version };

export function baseResource(config: TelemetryConfig, env: Record<string, string | undefined>): Attributes {
  return {
    ...config.resourceAttributes,
    "service.name": config.serviceName,
    "service.version": packageJson.version,
    "host.name": hostname(),
    "host.arch": arch(),
    "os.type": type().toLowerCase(),
    "user.name": userName(env),
    "toolrt.build": BUILD_HASH?.slice(0, 16) ?? "source",
  };
}

export function policyResource(policy: PolicyDigests | undefined): Attributes {
  if (!policy) return {};
  const attributes: Attributes = { "toolrt.policy.digest": policy.digest };
  for (const [source, digest] of Object.entries(policy.sources)) {
    attributes[`toolrt.policy.${source}.digest`] = digest;
  }
  return attributes;
}

function userName(env: Record<string, string | undefined>): string | undefined {
  try {
    return userInfo().username;
  } catch {
    // No passwd entry (some containers).
    return env.USER || env.LOGNAME || undefined;
  }
}
