/**
 * Compound commands in the sandbox (fixtures/bash/agent-compound.jsonl): here-documents, `$()`,
 * loops, functions and several lines, which no allow rule may approve, run unasked in the sandbox
 * when nothing in them is opaque and no deny or ask rule could match them with their unknown words
 * as wildcards. The hostile lines hide a denied command or a catastrophe behind a run-time value;
 * each is run in real bash with a stub in place of the program, to show it really runs `runs`.
 */
import { beforeAll, describe, expect, test } from "bun:test";
import { spawnSync } from "node:child_process";
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { analyzerDeps, checkCall, withBashParser } from "../../src/cli/check-call.ts";
import { globalsFrom } from "../../src/cli/options.ts";
import type { ExecutionPlace } from "../../src/exec/processes/sandbox-context.ts";
import { loadPolicy } from "../../src/policy/load.ts";
import { sandbox } from "../policy/helpers.ts";

interface Case {
  command: string;
  expect: "allow" | "ask" | "deny";
  note: string;
  rules?: { deny?: string[]; ask?: string[] };
  /** What real bash runs, as the stubbed program logs it (`git push`). */
  runs?: string;
  /** Files the line reads, relative to its directory. */
  files?: Record<string, string>;
  env?: Record<string, string>;
  /** Programs the line needs beyond `TOOLS`: linked too, and the real-bash run is skipped without them. */
  needs?: string[];
}

const FIXTURE = join(import.meta.dir, "../../fixtures/bash/agent-compound.jsonl");
const cases: Case[] = readFileSync(FIXTURE, "utf8").split("\n").filter((l) => l !== "").map((l) =>
  JSON.parse(l)
);

const box = sandbox();
const globals = { ...globalsFrom({ cwd: box.cwd, stateDir: box.stateDir }), color: false };
const inSandbox: ExecutionPlace = {
  sandboxed: true,
  context: { writable: [box.cwd], allowNet: [], asksForHosts: false, denyRead: [] },
};

beforeAll(async () => {
  await withBashParser();
});

test("the fixture has everyday compound commands and hostile ones of every kind", () => {
  expect(cases.filter((c) => c.expect === "allow").length).toBeGreaterThanOrEqual(15);
  expect(cases.filter((c) => c.runs !== undefined).length).toBeGreaterThanOrEqual(25);
  expect(new Set(cases.map((c) => c.command)).size).toBe(cases.length);
});

describe("decided as a call that runs in the sandbox, auto-allow on", () => {
  test.each(cases.map((c) => [c.note, c] as const))("%s", async (_note, c) => {
    const policy = loadPolicy({
      cwd: box.cwd,
      stateDir: box.stateDir,
      env: box.env,
      cliRules: c.rules ?? {},
    }).policy;
    const got = await checkCall(
      "Bash",
      { command: c.command },
      policy,
      globals,
      analyzerDeps,
      () => inSandbox,
    );
    expect(got.decision, got.reason).toBe(c.expect);
    if (c.expect === "allow") {
      expect(got.sandbox?.autoAllowed).toBe(true);
      expect(got.reason).toStartWith("runs in the sandbox: writes limited to");
    }
  });

  test("the same everyday lines ask on the host: the sandbox is what allows them", async () => {
    const policy = loadPolicy({ cwd: box.cwd, stateDir: box.stateDir, env: box.env }).policy;
    for (const c of cases.filter((c) => c.expect === "allow")) {
      const got = await checkCall("Bash", { command: c.command }, policy, globals, analyzerDeps);
      expect(got.decision, c.command).toBe("ask");
    }
  });
});

/** Programs the hostile lines use besides the stubbed one, linked from the system. */
const TOOLS = ["cat", "xargs", "sh", "bash", "find", "python3", "sort", "wc", "ls", "env", "timeout"];
const BASH = ["/bin/bash", "/usr/bin/bash"].find(existsSync);

/** Where a program really is (a version manager's shim needs its own PATH; its interpreter does not). */
function systemProgram(name: string): string | undefined {
  const found = spawnSync(BASH!, ["-c", `command -v ${name}`], { encoding: "utf8" }).stdout.trim();
  if (!found || name !== "python3") return found || undefined;
  return spawnSync(found, ["-c", "import sys; print(sys.executable)"], { encoding: "utf8" }).stdout.trim();
}

describe.skipIf(!BASH)("the hostile lines really run what they hide (real bash, stubbed programs)", () => {
  test.each(cases.filter((c) => c.runs).map((c) => [c.command, c] as const))("%s", (_command, c) => {
    const missing = (c.needs ?? []).filter((tool) => !systemProgram(tool));
    if (missing.length > 0) {
      console.log(`skipped: ${c.command}: ${missing.join(", ")} not installed`);
      return;
    }
    const dir = mkdtempSync(join(tmpdir(), "toolrt-compound-"));
    const bin = join(dir, "bin");
    mkdirSync(bin);
    const stubbed = c.runs!.split(" ")[0]!;
    const log = join(dir, "stub.log");
    writeFileSync(join(bin, stubbed), `#!${BASH}\necho "${stubbed} $*" >> "$STUB_LOG"\n`);
    chmodSync(join(bin, stubbed), 0o755);
    for (const tool of [...TOOLS, ...(c.needs ?? [])].filter((t) => t !== stubbed)) {
      const found = systemProgram(tool);
      if (found) symlinkSync(found, join(bin, tool));
    }
    const work = join(dir, "work");
    mkdirSync(work);
    for (const [name, text] of Object.entries(c.files ?? {})) {
      mkdirSync(dirname(join(work, name)), { recursive: true });
      writeFileSync(join(work, name), text);
    }
    // Only the stub and the linked tools are on PATH: nothing else the line names can run.
    spawnSync(BASH!, ["-c", c.command], {
      cwd: work,
      env: { PATH: bin, HOME: join(dir, "home"), STUB_LOG: log, ...c.env },
      encoding: "utf8",
    });
    const ran = existsSync(log) ? readFileSync(log, "utf8").split("\n") : [];
    expect(ran).toContain(c.runs!);
  });
});
