/**
 * A person asked once for what the sandbox blocked, never for the whole sandbox: a path a command
 * could not write (asked after it failed; the command runs again with that path writable) and a
 * host not on the allow-list (asked while the command waits). Real bwrap; skipped without it.
 */
import { afterAll, afterEach, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync } from "node:fs";
import { createServer } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { SandboxAnswer, SandboxQuestion } from "../../../src/exec/processes/sandbox-exceptions.ts";
import { sandboxedLaunch, type SandboxedLauncher } from "../../../src/exec/processes/sandboxed-launch.ts";
import { DEFAULT_SANDBOX_POLICY } from "../../../src/policy/sandbox-policy.ts";
import { readSandboxGrants } from "../../../src/policy/session-grants.ts";
import { detectSandbox } from "../../../src/sandbox/detect.ts";
import type { BashInput } from "../../../src/tools/bash/schema.ts";
import { createBashTool } from "../../../src/tools/bash/tool.ts";
import { type TestContext, testContext } from "../../exec/processes/helpers.ts";

const availability = detectSandbox();
const usable = availability.available && availability.kind === "bwrap";
if (!usable) {
  console.warn(`skipping sandbox asks: ${availability.available ? "not Linux" : availability.reason}`);
}

const root = realpathSync(mkdtempSync(join(tmpdir(), "toolrt-asks-")));
afterAll(() => rmSync(root, { recursive: true, force: true }));

let ctx: TestContext;
const launchers: SandboxedLauncher[] = [];
afterEach(async () => {
  await ctx?.dispose();
  await Promise.all(launchers.splice(0).map((launcher) => launcher.close()));
});

/** A Bash tool whose sandbox asks this scripted person; `asked` records every question. */
function withPerson(answers: SandboxAnswer[]) {
  ctx = testContext();
  const asked: SandboxQuestion[] = [];
  const grantsDir = mkdtempSync(join(root, "state-"));
  const wrapLaunch = sandboxedLaunch({
    policy: DEFAULT_SANDBOX_POLICY,
    workspace: ctx.cwd,
    grantsDir,
    asker: async (question) => {
      asked.push(question);
      return answers.shift() ?? "no";
    },
  });
  launchers.push(wrapLaunch);
  const bash = createBashTool({ wrapLaunch, killGraceMs: 200 });
  const run = async (input: BashInput) => {
    const result = await bash.call(input, ctx, () => {});
    return { ...result, text: (bash.toContent(result.data, input)[0] as { text: string }).text };
  };
  return { asked, run, grantsDir, wrapLaunch };
}

const outsideDir = () => {
  const dir = join(root, `outside-${crypto.randomUUID().slice(0, 8)}`);
  mkdirSync(dir);
  return dir;
};

describe.skipIf(!usable)("a path the sandbox blocked", () => {
  test("once: the command runs again with that directory writable, and only that command", async () => {
    const dir = outsideDir();
    const { asked, run } = withPerson(["once", "no"]);
    const first = await run({ command: `echo hi > ${dir}/a.txt && echo wrote` });
    expect(asked).toEqual([{
      kind: "write",
      path: dir,
      blocked: `${dir}/a.txt`,
      command: `echo hi > ${dir}/a.txt && echo wrote`,
    }]);
    expect(readFileSync(join(dir, "a.txt"), "utf8")).toBe("hi\n");
    expect(first.isError).toBeFalsy();
    expect(first.text).toContain("wrote");
    expect(first.text).toContain(
      `The sandbox blocked writing ${dir}/a.txt; the user allowed writing ${dir} for this command, and the command ran again.`,
    );
    const second = await run({ command: `echo again > ${dir}/b.txt` });
    expect(asked.length).toBe(2);
    expect(existsSync(join(dir, "b.txt"))).toBe(false);
    expect(second.text).toContain(`writing ${dir}/b.txt was blocked`);
  }, 60_000);

  test(
    "session: later commands write there without a question; always: recorded for the workspace",
    async () => {
      const dir = outsideDir();
      const session = withPerson(["session"]);
      await session.run({ command: `touch ${dir}/one` });
      await session.run({ command: `touch ${dir}/two` });
      expect(session.asked.length).toBe(1);
      expect([existsSync(join(dir, "one")), existsSync(join(dir, "two"))]).toEqual([true, true]);
      expect(readSandboxGrants(session.grantsDir, ctx.cwd).allowWrite).toEqual([]);

      const always = withPerson(["always"]);
      await always.run({ command: `touch ${dir}/three` });
      expect(existsSync(join(dir, "three"))).toBe(true);
      expect(readSandboxGrants(always.grantsDir, ctx.cwd).allowWrite).toEqual([dir]);
    },
    60_000,
  );

  test("no: asked once, the command is not run again, and the result names the exception", async () => {
    const dir = outsideDir();
    const { asked, run } = withPerson(["no"]);
    const result = await run({ command: `echo x > ${dir}/c.txt` });
    expect(asked.length).toBe(1);
    expect(result.isError).toBe(true);
    expect(result.text).toContain(`writing ${dir}/c.txt was blocked`);
  }, 60_000);

  test("protected paths and paths too wide to grant are never offered", async () => {
    const { asked, run } = withPerson(["always"]);
    await run({ command: "echo x >> .bashrc; echo y > /newtop-dir-x/f" });
    expect(asked).toEqual([]);
  }, 60_000);
});

describe.skipIf(!usable)("a host not on the allow-list", () => {
  const server = createServer((_request, response) => response.end("hello from the host\n"));
  const listening = new Promise<number>((resolve) =>
    server.listen(0, "127.0.0.1", () => resolve((server.address() as { port: number }).port))
  );
  afterAll(() => server.close());

  test("yes once: the connection goes through; the next command is asked again", async () => {
    const port = await listening;
    const { asked, run } = withPerson(["once", "no"]);
    const command = `curl -fsS --max-time 20 http://127.0.0.1:${port}/`;
    const first = await run({ command });
    expect(asked).toEqual([{ kind: "host", host: "127.0.0.1", port, command }]);
    expect(first.text).toContain("hello from the host");
    const second = await run({ command });
    expect(asked.length).toBe(2);
    expect(second.isError).toBe(true);
    expect(second.text).toContain(`network access to 127.0.0.1:${port} was blocked by the sandbox proxy`);
  }, 60_000);

  test(
    "session: asked once for the whole session, and the decision says hosts are put to a person",
    async () => {
      const port = await listening;
      const { asked, run, wrapLaunch } = withPerson(["session"]);
      const command = `curl -fsS --max-time 20 http://127.0.0.1:${port}/`;
      expect((await run({ command })).text).toContain("hello from the host");
      expect((await run({ command })).text).toContain("hello from the host");
      expect(asked.length).toBe(1);
      const place = wrapLaunch.placeOf({ command, unsandboxed: false });
      expect(place).toMatchObject({
        sandboxed: true,
        context: { asksForHosts: true, allowNet: ["127.0.0.1"] },
      });
    },
    60_000,
  );
});
