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
const sandboxed = detectSandbox().available;

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
    // Without a sandbox on this machine nothing runs sandboxed: every answer is the plain one.
    const expected = sandboxed ? fixture.sandboxAnswer ?? fixture.answer : fixture.answer;
    expect(answer, `${host}/${file} --sandbox`).toEqual(expected);
  });
});

test("every host has recorded payloads for its pre and post events", () => {
  for (const host of HOSTS) {
    const names = readdirSync(join(ROOT, host));
    expect(names.some((n) => n.startsWith("pre") || n.startsWith("before")), host).toBe(true);
    expect(names.some((n) => n.startsWith("post") || n.startsWith("after")), host).toBe(true);
  }
});
