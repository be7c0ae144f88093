/**
 * Recorded payloads of every host, event and mapped tool (fixtures/hooks/<host>/<case>.json):
 * each is fed to the hook and its exact answer compared, then to `toolrt hook --sandbox`, whose
 * answer is `sandboxAnswer` where it differs (only hosts that can change the command have one).
 * `$CWD` stands for the test workspace, whose Claude Code settings deny `Bash(git push --force:*)`
 * and `Edit(./secrets/**)`; rewritten commands name toolrt as /opt/toolrt/bin/toolrt.
 */
import { describe, expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { PROTOCOLS } from "../../src/hook/hosts/index.ts";
import { type HostName, HOSTS } from "../../src/hook/types.ts";
import { detectSandbox } from "../../src/sandbox/detect.ts";
import { hookWorkspace } from "./workspace.ts";

const ROOT = join(import.meta.dir, "../../fixtures/hooks");
const availability = detectSandbox();
const sandboxed = availability.available;

describe.each([...HOSTS])("%s payloads", (host: HostName) => {
  const cases = readdirSync(join(ROOT, host)).filter((f) => f.endsWith(".json")).sort();
  test.each(cases)("%s", async (file) => {
    const fixture = JSON.parse(readFileSync(join(ROOT, host, file), "utf8"));
    const ws = hookWorkspace();
    const out = await ws.run(host, JSON.stringify(fixture.payload));
    const answer = out === "" ? null : JSON.parse(out.replaceAll(ws.cwd, "$CWD"));
    expect(answer, `${host}/${file}`).toEqual(fixture.answer);
    expect(ws.audit.length, "one audit entry per hook call").toBe(1);
  });

  test.each(cases)("%s with --sandbox", async (file) => {
    const fixture = JSON.parse(readFileSync(join(ROOT, host, file), "utf8"));
    if (!PROTOCOLS[host].replacesInput) {
      expect(fixture.sandboxAnswer, "this host cannot change a command").toBeUndefined();
    }
    const ws = hookWorkspace();
    const out = await ws.run(host, JSON.stringify(fixture.payload), { sandbox: true });
    const answer = out === "" ? null : JSON.parse(out.replaceAll(ws.cwd, "$CWD"));
    if (sandboxed) {
      expect(answer, `${host}/${file} --sandbox`).toEqual(fixture.sandboxAnswer ?? fixture.answer);
      return;
    }
    // Without a sandbox on this machine nothing runs sandboxed: every answer is the plain one, plus,
    // for shell calls, a note saying why they were not sandboxed.
    expect(withoutNotSandboxedNote(answer), `${host}/${file} --sandbox`).toEqual(fixture.answer ?? {});
  });
});

const NOT_SANDBOXED = `not sandboxed: no sandbox is available here: ${
  availability.available ? "" : availability.reason
}`;

/**
 * The answer without the note `hook --sandbox` adds to its message or reason where there is no
 * sandbox (checked to be that note); a message that was only the note goes. Where the plain answer
 * is no output at all, the note alone was the answer: compared as an empty one.
 */
function withoutNotSandboxedNote(answer: unknown): unknown {
  if (answer === null || typeof answer !== "object") return answer ?? {};
  if (Array.isArray(answer)) return answer.map(withoutNotSandboxedNote);
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(answer)) {
    if (typeof value === "string" && value.includes("not sandboxed: ")) {
      const [said, note] = value.split(/(?:; )?(?=not sandboxed: )/);
      expect(note).toBe(NOT_SANDBOXED);
      if (said !== "toolrt: ") out[key] = said;
    } else {
      out[key] = typeof value === "object" ? withoutNotSandboxedNote(value) : value;
    }
  }
  return out;
}

test("every host has recorded payloads for its pre and post events", () => {
  for (const host of HOSTS) {
    const names = readdirSync(join(ROOT, host));
    expect(names.some((n) => n.startsWith("pre") || n.startsWith("before")), host).toBe(true);
    expect(names.some((n) => n.startsWith("post") || n.startsWith("after")), host).toBe(true);
  }
});
