/**
 * The resource every record carries: which machine, user and toolrt build, and the digest of each
 * policy source, so a fleet can be grouped by host, build and policy version.
 */
import { readFileSync } from "node:fs";
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

/** Where a login name can come from; tests pass their own. */
export interface UserSources {
  /** `os.userInfo().username`: Bun answers from `$USER`, and "unknown" without it. */
  info: () => string;
  passwd: () => string;
  uid: number | undefined;
}

const SYSTEM_USER_SOURCES: UserSources = {
  info: () => userInfo().username,
  passwd: () => readFileSync("/etc/passwd", "utf8"),
  uid: process.getuid?.(),
};

/**
 * The login name. Processes started without `$USER` (cron, services, CI, some hosts' hooks) get
 * "unknown" from Bun's `userInfo()`, which would lump a fleet's users together: `$LOGNAME`, then
 * the passwd entry of the uid, are asked next.
 */
export function userName(
  env: Record<string, string | undefined>,
  sources: UserSources = SYSTEM_USER_SOURCES,
): string | undefined {
  try {
    const name = sources.info();
    if (name && name !== "unknown") return name;
  } catch {
    // No passwd entry (some containers): the environment and the passwd file may still know.
  }
  return env.USER || env.LOGNAME || passwdName(sources);
}

function passwdName(sources: UserSources): string | undefined {
  if (sources.uid === undefined) return undefined;
  try {
    const entry = sources.passwd().split("\n").map((line) => line.split(":"))
      .find((fields) => fields.length >= 3 && fields[2] === String(sources.uid));
    return entry?.[0] || undefined;
  } catch {
    return undefined;
  }
}
