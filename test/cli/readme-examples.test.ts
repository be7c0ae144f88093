/**
 * README.md is a contract: every command of its fenced `sh` blocks runs as written, from the root of
 * a fresh copy of the repository, against the built binary (`dist/toolrt`), with HOME, the XDG
 * directories and the state dir in temporary directories. A command fails the test when its exit
 * status is not the one expected (0 unless it says `# exits N`); pipelines fail when any part fails.
 *
 * Conventions, documented in README.md's "README examples" paragraph:
 * - `# exits N` in a command's trailing comment: the command is expected to exit with status N.
 * - `<!-- example: ... -->` before a fence (blank lines between allowed), one or more of (separated by `;`):
 *   `needs sandbox` / `needs COMMAND`: skipped, with the reason printed, when toolrt's sandbox
 *   cannot run here / COMMAND is not on the PATH;
 *   `fake anthropic`: run against fixtures/fake-anthropic (ANTHROPIC_BASE_URL and a key set);
 *   `serves URL`: a server that runs until stopped: it passes once URL answers, then is stopped;
 *   `not run: REASON`: never run here (the set-up steps and the suite itself).
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { cpSync, mkdirSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import { createConnection } from "node:net";
import { dirname, join } from "node:path";
import { buildBinary } from "../../build.ts";
import { startFakeAnthropic } from "../../fixtures/fake-anthropic/server.ts";
import { detectSandbox } from "../../src/sandbox/detect.ts";
import { outputOf } from "../helpers/cli.ts";
import { tempDir } from "../helpers/session-context.ts";

const ROOT = join(import.meta.dir, "../..");

export interface ReadmeExample {
  /** 1-based line of README.md where the command starts. */
  line: number;
  command: string;
  expectedExit: number;
  directives: string[];
}

/** The commands of every fenced sh block, continuation lines joined, comments and blanks dropped. */
export function readmeExamples(markdown: string): ReadmeExample[] {
  const lines = markdown.split("\n");
  const examples: ReadmeExample[] = [];
  let inBlock = false;
  let directives: string[] = [];
  let pending: { line: number; text: string } | null = null;
  lines.forEach((text, index) => {
    if (!inBlock) {
      const fence = /^```(\w*)\s*$/.exec(text);
      if (fence && ["sh", "bash", "shell"].includes(fence[1]!)) {
        let previous = index - 1;
        while (previous > 0 && lines[previous]!.trim() === "") previous--;
        const before = /^<!-- example: (.*) -->$/.exec(lines[previous] ?? "");
        directives = before ? before[1]!.split(";").map((d) => d.trim()).filter(Boolean) : [];
        inBlock = true;
      } else if (fence && fence[1] !== "") {
        inBlock = false;
      }
      return;
    }
    if (/^```\s*$/.test(text)) {
      inBlock = false;
      return;
    }
    const joined = pending ? `${pending.text}\n${text}` : text;
    const start = pending?.line ?? index + 1;
    if (/\\$/.test(text)) {
      pending = { line: start, text: joined };
      return;
    }
    pending = null;
    if (joined.trim() === "" || joined.trimStart().startsWith("#")) return;
    const exits = /\s#\s*exits (\d+)\b/.exec(joined);
    examples.push({ line: start, command: joined, expectedExit: exits ? Number(exits[1]) : 0, directives });
  });
  return examples;
}

/** Why an example cannot run on this machine, or null when it can. */
function missingRequirement(example: ReadmeExample): string | null {
  for (const directive of example.directives) {
    const notRun = /^not run: (.*)$/.exec(directive);
    if (notRun) return `not run by this test: ${notRun[1]}`;
    const needs = /^needs (\S+)$/.exec(directive);
    if (!needs) continue;
    if (needs[1] === "sandbox") {
      const sandbox = detectSandbox();
      if (!sandbox.available) return `toolrt's sandbox cannot run here: ${sandbox.reason}`;
    } else if (!Bun.which(needs[1]!)) {
      return `${needs[1]} is not on the PATH`;
    }
  }
  return null;
}

const README = readFileSync(join(ROOT, "README.md"), "utf8");
const examples = readmeExamples(README);

const scratch = tempDir("toolrt-readme-");
const repo = join(scratch, "repo");
const env: Record<string, string> = {
  PATH: process.env.PATH ?? "/usr/bin:/bin",
  HOME: join(scratch, "home"),
  XDG_CONFIG_HOME: join(scratch, "home/.config"),
  XDG_STATE_HOME: join(scratch, "home/.local/state"),
  XDG_CACHE_HOME: join(scratch, "home/.cache"),
  XDG_DATA_HOME: join(scratch, "home/.local/share"),
  TOOLRT_HOME: join(scratch, "state"),
  // A temp dir of its own: nothing shared with other processes' runs (their sandbox bookkeeping).
  TMPDIR: join(scratch, "tmp"),
  LANG: "C.UTF-8",
  GIT_AUTHOR_NAME: "example",
  GIT_AUTHOR_EMAIL: "example@example.invalid",
  GIT_COMMITTER_NAME: "example",
  GIT_COMMITTER_EMAIL: "example@example.invalid",
};

/** A copy of the repository as a clone has it (tracked and new files), as a git repository of its own. */
function copyRepository(): void {
  const listed = Bun.spawnSync(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"], {
    cwd: ROOT,
  });
  // node_modules is linked below (a link named node_modules is no directory to .gitignore's `node_modules/`).
  const files = listed.stdout.toString().split("\0").filter((f) => f && f.split("/")[0] !== "node_modules");
  for (const file of files) {
    const target = join(repo, file);
    mkdirSync(dirname(target), { recursive: true });
    try {
      cpSync(join(ROOT, file), target);
    } catch {
      // A file deleted in the working tree but still in the index: a clone would have it, skip it.
    }
  }
  symlinkSync(join(ROOT, "node_modules"), join(repo, "node_modules"));
  for (const argv of [["git", "init", "-q"], ["git", "add", "-A"], ["git", "commit", "-qm", "copy"]]) {
    const run = Bun.spawnSync(argv, { cwd: repo, env });
    if (run.exitCode !== 0) throw new Error(`${argv.join(" ")}: ${run.stderr}`);
  }
}

beforeAll(async () => {
  for (const dir of [env.HOME!, env.XDG_CONFIG_HOME!, env.TOOLRT_HOME!, env.TMPDIR!]) {
    mkdirSync(dir, { recursive: true });
  }
  copyRepository();
  await buildBinary({ outfile: join(repo, "dist/toolrt"), features: [] });
}, 180_000);
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

interface Outcome {
  code: number;
  output: string;
}

async function runExample(command: string, extraEnv: Record<string, string> = {}): Promise<Outcome> {
  const proc = Bun.spawn(["bash", "-o", "pipefail", "-c", command], {
    cwd: repo,
    env: { ...env, ...extraEnv },
    stdin: "ignore",
    stdout: "pipe",
    stderr: "pipe",
  });
  const { code, stdout, stderr } = await outputOf(proc);
  return { code, output: `${stdout}${stderr}` };
}

/** Runs an example against the fake Messages API, which answers every request with a short text. */
async function runWithFakeAnthropic(command: string): Promise<Outcome> {
  const fake = startFakeAnthropic({
    turns: Array.from({ length: 20 }, () => ({ content: [{ type: "text" as const, text: "Done." }] })),
  });
  try {
    return await runExample(command, { ANTHROPIC_BASE_URL: fake.url, ANTHROPIC_API_KEY: "fake-key" });
  } finally {
    await fake.close();
  }
}

function portInUse(url: URL): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ host: url.hostname, port: Number(url.port) });
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
}

/**
 * Starts a server example in a session of its own, waits until `url` answers (any HTTP status), then
 * stops the whole session. Exit status 0 when it answered; otherwise the server's own status.
 */
async function runServer(command: string, url: URL): Promise<Outcome> {
  const proc = Bun.spawn(["bash", "-o", "pipefail", "-c", command], {
    cwd: repo,
    env,
    detached: true,
    stdin: "ignore",
    stdout: "pipe",
    stderr: "pipe",
  });
  let exited = false;
  void proc.exited.then(() => (exited = true));
  try {
    while (!exited) {
      const answered = await fetch(url).then(() => true, () => false);
      if (answered) return { code: 0, output: "" };
      await Bun.sleep(50);
    }
    return { code: await proc.exited, output: await new Response(proc.stderr).text() };
  } finally {
    try {
      process.kill(-proc.pid, "SIGTERM");
    } catch {
      // already gone
    }
    await proc.exited;
  }
}

describe("README.md examples", () => {
  test("the README has examples and the extraction finds its directives", () => {
    expect(examples.length).toBeGreaterThan(30);
    expect(examples.some((e) => e.directives.includes("needs sandbox"))).toBe(true);
    expect(examples.some((e) => e.expectedExit !== 0)).toBe(true);
  });

  test("every subcommand has an example", () => {
    const help = Bun.spawnSync([process.execPath, join(ROOT, "src/cli/main.ts"), "--help"], { env });
    const commands = [...help.stdout.toString().matchAll(/^ {2}([a-z][\w-]*)\b/gm)]
      .map((m) => m[1]!)
      .filter((name) => name !== "help");
    expect(commands.length).toBeGreaterThan(10);
    const used = new Set(
      examples.flatMap((e) =>
        e.command.split("\n").flatMap((line) => {
          const after = line.split("dist/toolrt ").slice(1).join(" ");
          return after.split(/\s+/);
        })
      ),
    );
    expect(commands.filter((name) => !used.has(name))).toEqual([]);
  });

  for (const example of examples) {
    const title = `README.md:${example.line}: ${example.command.replace(/\s*\\\n\s*/g, " ")}`;
    const missing = missingRequirement(example);
    if (missing) {
      test.skip(`${title} (${missing})`, () => {});
      console.warn(`skipping ${title}: ${missing}`);
      continue;
    }
    test(title, async () => {
      const serves = example.directives.map((d) => /^serves (\S+)$/.exec(d)?.[1]).find(Boolean);
      let outcome: Outcome;
      if (serves) {
        const url = new URL(serves);
        if (await portInUse(url)) {
          console.warn(`skipping ${title}: port ${url.port} is already in use on this machine`);
          return;
        }
        outcome = await runServer(example.command, url);
      } else if (example.directives.includes("fake anthropic")) {
        outcome = await runWithFakeAnthropic(example.command);
      } else {
        outcome = await runExample(example.command);
      }
      if (outcome.code !== example.expectedExit) {
        throw new Error(
          `exit ${outcome.code}, expected ${example.expectedExit}; output:\n${outcome.output.slice(-4000)}`,
        );
      }
    }, 120_000);
  }
});
