import { describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { sandboxAnswerOf } from "../../src/cli/run.ts";
import { runCli } from "../helpers/cli.ts";
import { sandboxFor } from "../helpers/requirements.ts";
import { tempDir } from "../helpers/session-context.ts";

function workspace() {
  const root = tempDir();
  const ws = join(root, "ws");
  mkdirSync(ws);
  return { ws, state: join(root, "state") };
}

describe("toolrt run", () => {
  test("an unknown tool is a usage error naming close tools", () => {
    const { ws, state } = workspace();
    const run = runCli(["--cwd", ws, "--state-dir", state, "run", "Nope", "{}"]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("No such tool available: Nope");
  });
  test("input that is not JSON is a usage error that shows the expected shape", () => {
    const { ws, state } = workspace();
    const run = runCli(["--cwd", ws, "--state-dir", state, "run", "Read", "{file_path:"]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("not valid JSON");
    expect(run.stderr).not.toContain("    at ");
  });
});

describe("toolrt audit", () => {
  test("verify reports an intact chain and then a tampered one", () => {
    const { ws, state } = workspace();
    runCli(["--cwd", ws, "--state-dir", state, "run", "Nope", "{}"]);
    mkdirSync(state, { recursive: true });
    const ok = runCli(["--state-dir", state, "audit", "verify", "--json"]);
    expect(ok.code).toBe(0);
    expect(JSON.parse(ok.stdout)).toMatchObject({ ok: true });
    writeFileSync(join(state, "audit.jsonl"), '{"seq":1,"prev":"x","hash":"y"}\n');
    const broken = runCli(["--state-dir", state, "audit", "verify"]);
    expect(broken.code).toBe(1);
    expect(broken.stdout).toContain("broken");
  });
  test("--tail must be a whole number", () => {
    const { state } = workspace();
    const run = runCli(["--state-dir", state, "audit", "--tail", "many"]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("--tail takes a whole number");
  });
});

describe.skipIf(!sandboxFor("the interruption of a sandboxed Bash call"))("toolrt run: interruption", () => {
  test("SIGINT stops a running Bash call; the result is printed and the output so far kept", async () => {
    const { ws, state } = workspace();
    const main = join(import.meta.dir, "../../src/cli/main.ts");
    const input = JSON.stringify({ command: "echo started; touch started; sleep 30; echo never" });
    const proc = Bun.spawn(
      [process.execPath, main, "--cwd", ws, "--state-dir", state, "--allow", "Bash", "run", "Bash", input],
      { stdout: "pipe", stderr: "pipe", env: { ...process.env, NO_COLOR: "1" } },
    );
    // Wait until the command has printed, then interrupt it as Ctrl-C would.
    while (!existsSync(join(ws, "started")) && proc.exitCode === null) await Bun.sleep(20);
    proc.kill("SIGINT");
    const [out, code] = await Promise.all([new Response(proc.stdout).text(), proc.exited]);
    expect(out).toContain("Bash was interrupted by the user.");
    expect(out).toContain("started");
    expect(out).not.toContain("never");
    expect(code).toBe(1);
  });
});

test("a sandbox question's typed answer: once, session, always; anything else is no", () => {
  const typed = ["o", "ONCE ", "s", "session", "a", "always", "", "y", "yes", "n", "allow"];
  expect(typed.map(sandboxAnswerOf)).toEqual([
    "once",
    "once",
    "session",
    "session",
    "always",
    "always",
    "no",
    "no",
    "no",
    "no",
    "no",
  ]);
});
