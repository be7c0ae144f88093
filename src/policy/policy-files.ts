/**
 * Where policy files live, by source. Light on purpose: `toolrt sandbox` looks for them on every
 * run and loads the policy (`load.ts`) only when one exists.
 */
import { readdirSync, statSync } from "node:fs";
import { homedir } from "node:os";
import { join, resolve } from "node:path";

/** Where the managed policy lives: `TOOLRT_MANAGED_POLICY` (a file or a directory) or the system dir. */
export function managedPolicyFiles(
  env: Record<string, string | undefined>,
  platform: NodeJS.Platform,
): string[] {
  const override = env.TOOLRT_MANAGED_POLICY;
  if (override && isFile(override)) return [resolve(override)];
  const dir = override
    ? resolve(override)
    : platform === "darwin"
    ? "/Library/Application Support/toolrt"
    : "/etc/toolrt";
  const main = join(dir, "managed-policy.json");
  const dropIns = join(dir, "managed-policy.d");
  let extra: string[] = [];
  try {
    extra = readdirSync(dropIns).filter((f) => f.endsWith(".json") && !f.startsWith(".")).sort()
      .map((f) => join(dropIns, f));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") extra = [dropIns];
  }
  return [...(exists(main) ? [main] : []), ...extra];
}

export function userPolicyFile(env: Record<string, string | undefined>): string {
  const config = env.XDG_CONFIG_HOME || join(homeOf(env), ".config");
  return join(config, "toolrt", "policy.json");
}

export function projectPolicyFile(cwd: string): string {
  return join(resolve(cwd), ".toolrt", "policy.json");
}

export function localPolicyFile(cwd: string): string {
  return join(resolve(cwd), ".toolrt", "policy.local.json");
}

export function homeOf(env: Record<string, string | undefined>): string {
  return env.HOME || homedir();
}

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

function exists(path: string): boolean {
  try {
    statSync(path);
    return true;
  } catch {
    return false;
  }
}

export function grantsFile(stateDir: string, cwd: string): string {
  // Bun's hasher, not node:crypto's: loading that module costs a sandboxed command 2-3 ms of CPU.
  const key = new Bun.CryptoHasher("sha256").update(resolve(cwd)).digest("hex").slice(0, 16);
  return join(stateDir, "grants", `${key}.json`);
}
