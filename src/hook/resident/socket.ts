/**
 * Where a hook process finds its resident helper, and what they say to each other. One helper per
 * build, user, state dir and decision-relevant environment: the socket's name is a hash of all of
 * them, so an upgraded binary (another build hash) or another HOME never reaches an old helper.
 */
import { type HostName, HOSTS } from "../types.ts";

/** Set by build.ts (`define`); absent when running from source, where there is no helper. */
declare const TOOLRT_BUILD_HASH: string | undefined;

export const BUILD_HASH: string | undefined = typeof TOOLRT_BUILD_HASH === "string"
  ? TOOLRT_BUILD_HASH
  : undefined;

/**
 * The environment a decision depends on (policy and settings locations, `~` in paths, the state
 * dir). A helper serves only processes whose values equal its own; add any variable the hook's
 * decision starts to read here.
 */
export const DECISION_ENV = [
  "HOME",
  "XDG_CONFIG_HOME",
  "CLAUDE_CONFIG_DIR",
  "TOOLRT_MANAGED_POLICY",
  "TOOLRT_HOME",
  "CLAUDE_PROJECT_DIR",
] as const;

/** Telemetry's variables (OTEL_*, TOOLRT_ENABLE_TELEMETRY): a helper exports where its callers would. */
function telemetryEnv(env: Record<string, string | undefined>): string[] {
  return Object.keys(env)
    .filter((name) => name.startsWith("OTEL_") || name === "TOOLRT_ENABLE_TELEMETRY")
    .sort()
    .map((name) => `${name}=${env[name]}`);
}

/** Unix socket paths longer than this do not fit `sockaddr_un` everywhere: no helper then. */
const MAX_SOCKET_PATH = 96;

/**
 * The state dir as the CLI defaults it (cli/options.ts), read without loading the command line or
 * `node:os`; undefined (no helper) when it is not an absolute path the environment spells out.
 */
function stateDirOf(env: Record<string, string | undefined>): string | undefined {
  const dir = env.TOOLRT_HOME || (env.HOME ? `${env.HOME}/.local/state/toolrt` : "");
  return dir.startsWith("/") ? dir.replace(/\/+$/, "") : undefined;
}

/** The helper's socket for this build, user and environment; undefined when there can be none. */
export function helperSocket(
  build: string | undefined,
  env: Record<string, string | undefined>,
  uid: number,
): string | undefined {
  const stateDir = stateDirOf(env);
  if (!build || !stateDir) return undefined;
  const key = [
    build,
    String(uid),
    ...DECISION_ENV.map((name) => `${name}=${env[name] ?? ""}`),
    ...telemetryEnv(env),
  ].join("\0");
  const digest = new Bun.CryptoHasher("sha256").update(key).digest("hex").slice(0, 24);
  const path = `${stateDir}/hook-${digest}.sock`;
  return path.length <= MAX_SOCKET_PATH ? path : undefined;
}

/** Left by the hook call that started a helper, removed by the helper once it listens. */
export function startMarker(socket: string): string {
  return `${socket}.starting`;
}

/** One decision asked of the helper: the hook's stdin as the host sent it, and where it ran. */
export interface HelperRequest {
  build: string;
  host: HostName;
  sandbox: boolean;
  cwd: string;
  stdin: string;
}

/** The helper's reply: exactly what the hook prints. */
export interface HelperReply {
  answer: string;
}

/** Requests and replies are one JSON line each. */
export function encodeLine(message: HelperRequest | HelperReply): string {
  return `${JSON.stringify(message)}\n`;
}

export function decodeRequest(line: string): HelperRequest | undefined {
  const value = parseObject(line);
  if (!value) return undefined;
  const { build, host, sandbox, cwd, stdin } = value;
  const valid = typeof build === "string" && typeof cwd === "string" && typeof stdin === "string" &&
    typeof sandbox === "boolean" && (HOSTS as readonly unknown[]).includes(host);
  return valid ? { build, host: host as HostName, sandbox, cwd, stdin } : undefined;
}

export function decodeReply(line: string): HelperReply | undefined {
  const value = parseObject(line);
  return typeof value?.answer === "string" ? { answer: value.answer } : undefined;
}

function parseObject(line: string): Record<string, unknown> | undefined {
  try {
    const value = JSON.parse(line);
    return value !== null && typeof value === "object" && !Array.isArray(value) ? value : undefined;
  } catch {
    return undefined;
  }
}
