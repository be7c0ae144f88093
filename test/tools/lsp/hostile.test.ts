/**
 * Language servers that misbehave (the hostile-lsp fixture plugin): each failure is a clear message
 * in the result, the edit itself still succeeds, and the session goes on.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { install, type PluginSession, pluginSession, workspace } from "../../plugins/helpers.ts";

let open: PluginSession[] = [];
afterEach(async () => {
  await Promise.all(open.map((ps) => ps.session.close()));
  open = [];
});

function hostileSession(env: Record<string, string> = {}): PluginSession {
  const ws = workspace();
  Object.assign(ws.env, env);
  install(ws, "hostile-lsp");
  const ps = pluginSession(ws);
  open.push(ps);
  return ps;
}

describe("hostile language servers", () => {
  test("a missing server binary: the Write succeeds, the note names the command; LSP calls fail clearly", async () => {
    const ps = hostileSession();
    const written = await ps.call("Write", { file_path: "a.missing", content: "x" });
    expect(written.isError).toBe(false);
    expect(written.text).toContain("Created");
    expect(written.text).toContain(
      'No diagnostics for a.missing: language server missing (plugin hostile-lsp): command "toolrt-no-such-language-server" was not found on PATH',
    );
    const asked = await ps.call("LSP", { operation: "hover", filePath: "a.missing", line: 1, character: 1 });
    expect(asked.isError).toBe(true);
    expect(asked.text).toContain('command "toolrt-no-such-language-server" was not found');
    expect((await ps.call("Read", { file_path: "a.missing" })).isError).toBe(false);
  });

  test("a server that never answers initialize is given up on and killed", async () => {
    const ps = hostileSession();
    await ps.call("Write", { file_path: "b.silent", content: "x" });
    const asked = await ps.call("LSP", { operation: "hover", filePath: "b.silent", line: 1, character: 1 });
    expect(asked.isError).toBe(true);
    expect(asked.text).toContain(
      "language server silent did not initialize: initialize got no answer within 1 s",
    );
    expect(ps.host.lsp.serverFor(join(ps.session.cwd, "b.silent"))?.server.state).toBe("failed");
  });

  test("a server that crashes is restarted on the next use", async () => {
    const ps = hostileSession({ CRASH_MARKER: join(workspace().cwd, "crashed-once") });
    const first = await ps.call("Write", { file_path: "c.crash", content: "x" });
    expect(first.isError).toBe(false);
    expect(first.text).toContain("No diagnostics for c.crash: language server crashing exited (code 3)");
    const second = await ps.call("Write", { file_path: "c.crash", content: "y" });
    expect(second.text).toContain("1:1 warning: recovered");
  });

  test("a server that keeps crashing is not restarted beyond maxRestarts", async () => {
    const ps = hostileSession();
    const texts: string[] = [];
    for (const content of ["1", "2", "3"]) {
      texts.push((await ps.call("Write", { file_path: "d.crash", content })).text);
    }
    expect(texts[0]).toContain("exited (code 3)");
    expect(texts[1]).toContain("exited (code 3)");
    expect(texts[2]).toContain("not restarted (1 restarts so far)");
    expect((await ps.call("Write", { file_path: "plain.txt", content: "still working" })).isError).toBe(
      false,
    );
  });
});
