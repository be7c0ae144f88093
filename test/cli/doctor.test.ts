/** `toolrt doctor`: what it finds on a machine with and without bubblewrap, ripgrep and strace. */
import { describe, expect, test } from "bun:test";
import { chmodSync, chownSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { type CheckResult, doctorExitCode } from "../../src/doctor/checks.ts";
import { detectSandbox } from "../../src/sandbox/detect.ts";
import { runCli } from "../helpers/cli.ts";
import { pathWithout } from "../helpers/path-without.ts";
import { tempDir } from "../helpers/session-context.ts";

const sandbox = detectSandbox();
if (!sandbox.available) console.warn(`skipping doctor's all-clear test: ${sandbox.reason}`);
if (process.getuid?.() !== 0) console.warn("skipping doctor's setpriv test: it checks what root needs");

interface DoctorRun {
  code: number;
  stdout: string;
  checks: Map<string, CheckResult>;
}

/** A machine of its own: HOME, state dir and workspace in a temp dir, no managed policy. */
function machine() {
  const root = tempDir("toolrt-doctor-");
  const dirs = { home: join(root, "home"), state: join(root, "state"), ws: join(root, "ws") };
  for (const dir of Object.values(dirs)) mkdirSync(dir, { mode: 0o700 });
  const env = {
    HOME: dirs.home,
    XDG_CONFIG_HOME: join(dirs.home, ".config"),
    TOOLRT_HOME: dirs.state,
    TOOLRT_MANAGED_POLICY: join(root, "no-managed-policy"),
  };
  const doctor = (extraEnv: Record<string, string> = {}): DoctorRun => {
    const run = runCli(["--cwd", dirs.ws, "doctor", "--json"], { env: { ...env, ...extraEnv } });
    const parsed = JSON.parse(run.stdout) as { ok: boolean; checks: CheckResult[] };
    expect(parsed.ok).toBe(run.code === 0);
    return { code: run.code, stdout: run.stdout, checks: new Map(parsed.checks.map((c) => [c.id, c])) };
  };
  return { dirs, env, doctor };
}

describe("toolrt doctor", () => {
  test.skipIf(!sandbox.available)("all clear where the sandbox runs: exit 0, the sandbox started", () => {
    const { doctor } = machine();
    const run = doctor();
    expect(run.code).toBe(0);
    expect(run.checks.get("sandbox-start")).toMatchObject({ status: "ok", required: true });
    expect(run.checks.get("state-dir")?.status).toBe("ok");
    expect(run.checks.get("policy")?.detail).toContain("default: <embedded>/policy/default.json");
  });

  test("without bubblewrap: exit 1, and the fix for apt, dnf and apk", () => {
    const { doctor } = machine();
    const run = doctor({ PATH: pathWithout(["bwrap"]) });
    expect(run.code).toBe(1);
    if (process.platform === "linux") {
      expect(run.checks.get("bwrap")).toMatchObject({
        status: "fail",
        required: true,
        fix: [
          "apt: sudo apt-get install -y bubblewrap",
          "dnf: sudo dnf install -y bubblewrap",
          "apk: sudo apk add bubblewrap",
        ],
      });
    }
    expect(run.checks.get("sandbox-start")?.status).toBe(process.platform === "linux" ? "skip" : "fail");
  });

  test("without ripgrep and strace: warnings with their fixes, which do not fail the run", () => {
    const { doctor } = machine();
    const run = doctor({ PATH: pathWithout(["rg", "strace"]) });
    for (const [id, pkg] of [["rg", "ripgrep"], ["strace", "strace"]]) {
      const check = run.checks.get(id!)!;
      expect(check).toMatchObject({ status: "warn", required: false });
      expect(check.fix).toContain(`dnf: sudo dnf install -y ${pkg}`);
    }
    expect(run.code).toBe(sandbox.available ? 0 : 1);
  });

  test("the human output prints each failing item's fix under it", () => {
    const { env, dirs } = machine();
    const run = runCli(["--cwd", dirs.ws, "doctor"], { env: { ...env, PATH: pathWithout(["bwrap", "rg"]) } });
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(
      /ripgrep \(optional\): rg is not on the PATH.*\n\s+fix: apt: sudo apt-get install -y ripgrep\n/,
    );
    expect(run.stdout).toMatch(/required check\(s\) did not pass\n$/);
  });

  test.skipIf(process.getuid?.() !== 0)("as root, a workspace of another user without setpriv fails", () => {
    const { dirs, doctor } = machine();
    chownSync(dirs.ws, 1000, 1000);
    const run = doctor({ PATH: pathWithout(["setpriv"]) });
    expect(run.code).toBe(1);
    expect(run.checks.get("setpriv")).toMatchObject({ status: "fail", required: true });
    expect(run.checks.get("setpriv")?.detail).toContain(`${dirs.ws} belongs to uid 1000`);
  });

  test("a state dir others may write fails, with the chmod that fixes it", () => {
    const { dirs, doctor } = machine();
    chmodSync(dirs.state, 0o777);
    const run = doctor();
    expect(run.code).toBe(1);
    expect(run.checks.get("state-dir")).toMatchObject({ status: "fail", fix: [`chmod 700 ${dirs.state}`] });
  });

  test("a state dir that does not exist yet is fine when it can be created", () => {
    const { dirs, doctor } = machine();
    const run = doctor({ TOOLRT_HOME: join(dirs.home, "not", "yet") });
    expect(run.checks.get("state-dir")?.status).toBe("ok");
    expect(run.checks.get("state-dir")?.detail).toContain("created on first use");
  });

  test("a broken policy file fails, named with its line; a good one is listed as loaded", () => {
    const { dirs, doctor } = machine();
    mkdirSync(join(dirs.ws, ".toolrt"));
    writeFileSync(
      join(dirs.ws, ".toolrt", "policy.json"),
      '{\n  "rules": [\n    {"effect": "allow"\n  ]\n}\n',
    );
    const user = join(dirs.home, ".config", "toolrt");
    mkdirSync(user, { recursive: true });
    writeFileSync(join(user, "policy.json"), '{"rules": []}\n');
    const run = doctor();
    expect(run.code).toBe(1);
    const policy = run.checks.get("policy")!;
    expect(policy.status).toBe("fail");
    expect(policy.detail).toContain(join(dirs.ws, ".toolrt", "policy.json"));
    expect(policy.detail).toMatch(/policy\.json:\d+/);
    expect(policy.detail).toContain(`loaded user: ${join(user, "policy.json")}`);
  });

  test("says whether the workspace is trusted", () => {
    const { dirs, env, doctor } = machine();
    expect(doctor().checks.get("trust")?.detail).toContain("is not trusted");
    expect(runCli(["trust", dirs.ws], { env }).code).toBe(0);
    expect(doctor().checks.get("trust")?.detail).toContain(`${dirs.ws} is trusted`);
  });
});

describe("doctor's exit status", () => {
  const check = (required: boolean, status: CheckResult["status"]): CheckResult => ({
    id: "x",
    name: "x",
    required,
    status,
    detail: "",
    fix: [],
  });
  test("only a failed required check fails the run", () => {
    expect(doctorExitCode([check(true, "ok"), check(false, "fail"), check(true, "warn")])).toBe(0);
    expect(doctorExitCode([check(true, "ok"), check(true, "fail")])).toBe(1);
    expect(doctorExitCode([check(true, "ok"), check(true, "skip")])).toBe(1);
  });
});
