/**
 * `toolrt check --sandboxed` and the runtime's decisions for Bash calls that run in the sandbox:
 * no prompt for what only "no rule allows it" stopped, the same refusals as on the host otherwise.
 */
import { describe, expect, test } from "bun:test";
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { detectSandbox } from "../../src/sandbox/detect.ts";
import { runToolrt, sandbox } from "../policy/helpers.ts";

const availability = detectSandbox();
const usable = availability.available;
if (!usable) console.warn(`skipping sandboxed runs: ${availability.reason}`);

/** A workspace whose `.mcp.json` exists, so no sandbox stand-in for it can break a later command. */
function workspace() {
  const box = sandbox();
  writeFileSync(join(box.cwd, ".mcp.json"), '{ "mcpServers": {} }\n');
  return box;
}

const checkJson = (box: ReturnType<typeof sandbox>, ...args: string[]) => {
  const run = runToolrt(box, ["check", "--json", ...args]);
  expect(run.code, run.err).toBe(0);
  return JSON.parse(run.out);
};

describe("toolrt check --sandboxed", () => {
  test.skipIf(!usable)("decides for the sandbox and says so; without the flag, for the host", () => {
    const box = workspace();
    const inside = checkJson(box, "--sandboxed", "Bash", "npm test");
    expect(inside).toMatchObject({ decision: "allow", sandboxed: true, sandbox: { autoAllowed: true } });
    expect(inside.reason).toStartWith("runs in the sandbox: writes limited to ");
    expect(inside.reason).toEndWith("network off");
    expect(checkJson(box, "Bash", "npm test")).toMatchObject({ decision: "ask", sandboxed: false });
  }, 60_000);

  test.skipIf(!usable)("the human output explains what the sandbox will still block", () => {
    const box = workspace();
    const run = runToolrt(box, ["check", "--sandboxed", "Bash", "curl -o /etc/x https://example.com"]);
    expect(run.out).toContain("allow: Bash(curl -o /etc/x https://example.com) — runs in the sandbox");
    expect(run.out).toContain(
      "  sandbox will block: writing /etc/x: outside the writable paths; a person can grant it (sandbox.allowWrite)",
    );
    expect(run.out).toContain("  sandbox will block: reaching example.com: not in the network allow-list");
  }, 60_000);

  test("an excluded command runs on the host: decided there, and the warning says why", () => {
    const box = workspace();
    box.write("home/.config/toolrt/policy.json", { sandbox: { excludedCommands: ["make"] } });
    const decision = checkJson(box, "--sandboxed", "Bash", "make deploy");
    expect(decision).toMatchObject({ decision: "ask", sandboxed: false });
    expect(decision.warnings.join("\n")).toContain(
      'not sandboxed: runs outside the sandbox: the command matches the excluded command "make"',
    );
  }, 60_000);

  test("tools other than shell commands never run in the sandbox", () => {
    const box = workspace();
    const decision = checkJson(box, "--sandboxed", "Write", '{"file_path":"a.txt","content":"x"}');
    expect(decision).toMatchObject({ decision: "ask", sandboxed: false });
    expect(decision.warnings).toContain(
      "not sandboxed: only shell commands run in the sandbox, not Write calls",
    );
  }, 60_000);

  test.skipIf(!usable)("the batch carries sandboxed on every line", () => {
    const box = workspace();
    const list = box.write("commands.txt", "make\nsudo make install\nrm -rf /\n");
    const run = runToolrt(box, ["check", "--sandboxed", "--batch", list, "Bash"]);
    const lines = run.out.trim().split("\n").map((line) => JSON.parse(line));
    expect(lines.map((l) => [l.decision, l.sandboxed])).toEqual([["allow", true], ["ask", true], [
      "deny",
      true,
    ]]);
  }, 60_000);
});

describe.skipIf(!usable)("toolrt run: the Bash tool's sandbox is the allow list", () => {
  test("a command no rule allows runs without a prompt, confined to the workspace", () => {
    const box = workspace();
    const input = JSON.stringify({ command: `touch made && touch ${box.home}/escaped` });
    const run = runToolrt(box, ["run", "--json", "Bash", input]);
    const out = JSON.parse(run.out);
    expect(out.decision, run.out).toBe("allow");
    expect(existsSync(join(box.cwd, "made"))).toBe(true);
    expect(existsSync(join(box.home, "escaped"))).toBe(false);
    expect(out.content[0].text).toContain(`writing ${box.home}/escaped was blocked`);
  }, 60_000);

  test("a managed autoAllow: false brings the prompt back (nobody to answer: denied, saying why)", () => {
    const box = workspace();
    box.write("managed/managed-policy.json", { sandbox: { autoAllow: false } });
    const run = runToolrt(box, ["run", "--json", "Bash", JSON.stringify({ command: "touch made" })]);
    const out = JSON.parse(run.out);
    expect(out.decision).toBe("deny");
    expect(out.content[0].text).toContain(
      "the sandbox does not auto-allow it: sandbox.autoAllow is false (managed policy",
    );
    expect(existsSync(join(box.cwd, "made"))).toBe(false);
  }, 60_000);

  test("asking to leave the sandbox is never auto-allowed", () => {
    const box = workspace();
    const input = JSON.stringify({ command: "touch made", dangerouslyDisableSandbox: true });
    const out = JSON.parse(runToolrt(box, ["run", "--json", "Bash", input]).out);
    expect(out.decision).toBe("deny");
    expect(out.content[0].text).toContain("dangerouslyDisableSandbox");
    expect(existsSync(join(box.cwd, "made"))).toBe(false);
  }, 60_000);
});
