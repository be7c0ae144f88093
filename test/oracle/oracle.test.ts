/**
 * The execution oracle (issue 14 part 4), bounded: a deterministic sample of the auto-allowed
 * commands runs for real in the jail and must do nothing toolrt did not claim. The harness itself
 * is tested first: commands that write, run, read outside or read secrets are caught, each class by
 * an event only it explains. The full run is bench/oracle.ts.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { loadBashParser } from "../../src/bash/parser.ts";
import { analyzeBashSync } from "../../src/bash/analyze.ts";
import { covered, EXECS, NETWORK, READS, WRITES } from "./allowances.ts";
import { corpusInputs, type OracleInput, specInputs } from "./inputs.ts";
import { makeScratch, runInJail, type Scratch, unavailable } from "./jail.ts";
import { judge } from "./judge.ts";
import { type Decided, runOracle } from "./oracle.ts";
import { parseTrace } from "./trace.ts";

const missing = unavailable();
if (missing) console.log(`skipping the execution oracle: ${missing}`);
const maybe = missing ? test.skip : test;

/** Commands run in the bounded sample. */
const SAMPLE = 60;

let scratch: Scratch;
beforeAll(async () => {
  await loadBashParser();
  if (!missing) scratch = makeScratch();
});
afterAll(() => {
  if (scratch) rmSync(scratch.root, { recursive: true, force: true });
});

/** What the oracle finds when the command runs as written, whatever toolrt decides for it. */
async function classesOf(command: string): Promise<string[]> {
  const run = await runInJail(scratch, command, 0, 10_000);
  return [...new Set(judge(analyzeBashSync(command), run, scratch).map((d) => d.class))].sort();
}

describe("the oracle catches what a command really does", () => {
  maybe("a command that only reads workspace files is clean", async () => {
    expect(await classesOf("cat README.md src/main.ts")).toEqual([]);
  });
  maybe("writes, inside the workspace and out", async () => {
    expect(await classesOf("cat README.md > copy.md")).toEqual(["write"]);
    expect(await classesOf("cat README.md | tee ~/out.txt")).toEqual(["write"]);
    expect(await classesOf("touch x; rm x")).toEqual(["write"]);
  });
  maybe("a program the analysis does not name", async () => {
    // `env` names env; the program it starts (`id`) is never a word the analysis runs.
    const run = await runInJail(scratch, "env id", 0, 10_000);
    const analysis = { ...analyzeBashSync("env id"), commands: [] };
    expect(judge(analysis, run, scratch).map((d) => d.class)).toContain("exec");
  });
  maybe("reads outside the workspace, and of secrets (through a link too), and secrets printed", async () => {
    expect(await classesOf("cat ~/notes/todo.txt")).toEqual(["outside-read"]);
    expect(await classesOf("cat ~/.ssh/id_rsa")).toEqual(["secret-output", "secret-read"]);
    expect(await classesOf("wc -c cloud/credentials")).toEqual(["secret-read"]);
    expect(await classesOf("wc -c .env")).toEqual(["secret-read"]);
    expect(await classesOf("echo $GITHUB_TOKEN")).toEqual(["secret-output"]);
  });
  maybe("a secret is a secret even where an allowance covers every path (df's operands)", async () => {
    expect(await classesOf("df ~/.aws/credentials; cat ~/.aws/credentials >/dev/null")).toEqual([
      "secret-read",
    ]);
  });
  maybe("connections leave no jail, but are seen", async () => {
    expect(await classesOf("exec 3<>/dev/tcp/192.0.2.1/80")).toEqual(["network"]);
  });
});

describe("each reviewed allowance covers its own paths and no neighbour", () => {
  const home = "/h";
  const ws = "/h/p";
  const anchor = (path: string) =>
    path === "~" ? home : path.replace(/^~\//, `${home}/`).replace(/^\.\//, `${ws}/`);
  for (const allowance of [...READS, ...WRITES]) {
    test(allowance.id, () => {
      for (const path of allowance.paths.map(anchor)) {
        expect(covered(path.endsWith("/") ? `${path}x` : path, allowance.paths, home, ws)).toBe(true);
        if (path === "/") continue;
        expect(covered(`${path.replace(/\/$/, "")}-neighbour`, allowance.paths, home, ws)).toBe(false);
      }
    });
  }
  /** What the judge finds in a made-up trace of `lines` for a command the analysis names `name`. */
  const judged = (name: string, lines: string[]) => {
    const analysis = { ...analyzeBashSync("true"), commands: [{ ...analyzeBashSync(name).commands[0]! }] };
    const trace = ['1 execve("/bin/bash", ["bash", "-c", "x"], 0x1 /* 1 vars */) = 0', ...lines].join("\n");
    const run = { trace, stdout: "", stderr: "", exitCode: 0, timedOut: false };
    const fake = { root: "/r", home, workspace: ws, secrets: [], env: {} };
    return judge(analysis, run, fake).map((d) => d.class);
  };
  for (const allowance of EXECS) {
    test(allowance.id, () => {
      for (const program of allowance.programs.map((p) => p.replace("*", "x"))) {
        const exec = `2 execve("/usr/bin/${program}", ["${program}"], 0x1 /* 1 vars */) = 0`;
        expect(judged(allowance.command, [exec])).toEqual([]);
        expect(judged("head", [exec])).toEqual(["exec"]);
      }
    });
  }
  for (const allowance of NETWORK) {
    test(allowance.id, () => {
      const connect =
        '2 connect(3<socket:[1]>, {sa_family=AF_INET, sin_port=htons(443), sin_addr=inet_addr("192.0.2.1")}, 16) = -1 ENETUNREACH';
      const local = '2 connect(3<socket:[1]>, {sa_family=AF_UNIX, sun_path="/run/docker.sock"}, 110) = 0';
      for (const command of allowance.commands) {
        expect(judged(command, [local])).toEqual([]);
        expect(judged(command, [connect])).toEqual(allowance.localOnly ? ["network"] : []);
      }
      expect(judged("head", [connect])).toEqual(["network"]);
      expect(judged("head", [local])).toEqual(["network"]);
    });
  }
});

test("the trace reader resolves names against each process's directory and follows resumed calls", () => {
  const events = parseTrace([
    '7 openat(AT_FDCWD</w>, "a.txt", O_RDONLY) = 3</w/a.txt>',
    '7 openat(AT_FDCWD</w>, "gone", O_RDONLY) = -1 ENOENT (No such file or directory)',
    '8 openat(AT_FDCWD</w/sub>, "../b", O_WRONLY|O_CREAT|O_TRUNC, 0666 <unfinished ...>',
    "7 --- SIGCHLD {si_signo=SIGCHLD} ---",
    "8 <... openat resumed>) = 4</w/b>",
    '9 renameat2(AT_FDCWD</w>, "x", 3</t>, "y", RENAME_NOREPLACE) = 0',
    '9 execve("/usr/bin/id", ["id", "-u"], 0x1 /* 3 vars */) = 0',
    '9 connect(3<socket:[1]>, {sa_family=AF_INET, sin_port=htons(53), sin_addr=inet_addr("10.0.0.1")}, 16) = -1 ENETUNREACH',
  ].join("\n"));
  expect(events).toEqual([
    { kind: "read", pid: 7, path: "/w/a.txt" },
    { kind: "write", pid: 8, path: "/w/b", call: "openat" },
    { kind: "write", pid: 9, path: "/w/x", call: "renameat2" },
    { kind: "write", pid: 9, path: "/t/y", call: "renameat2" },
    { kind: "exec", pid: 9, path: "/usr/bin/id", argv: ["id", "-u"] },
    {
      kind: "connect",
      pid: 9,
      family: "AF_INET",
      address: '{sa_family=AF_INET, sin_port=htons(53), sin_addr=inet_addr("10.0.0.1")}',
    },
  ]);
});

/** Every k-th auto-allowed input, in input order: the same sample for the same corpus and specs. */
function sample(allowed: Decided[]): Decided[] {
  const step = Math.max(1, Math.floor(allowed.length / SAMPLE));
  return allowed.filter((_, i) => i % step === 0).slice(0, SAMPLE);
}

maybe(`a sample of ${SAMPLE} auto-allowed commands does only what toolrt claims`, async () => {
  const seen = new Set<string>();
  const inputs: OracleInput[] = [...corpusInputs(), ...specInputs()].filter((i) =>
    !seen.has(i.command) && seen.add(i.command)
  );
  const { figures, executed } = await runOracle({ scratch, inputs, select: sample, jobs: 2 });
  expect(figures.executed).toBe(SAMPLE);
  const wrong = executed.filter((e) => e.discrepancies.length > 0).map((e) =>
    `${e.command}: ${e.discrepancies.map((d) => `${d.class} ${d.detail}`).join("; ")}`
  );
  expect(wrong).toEqual([]);
}, 600_000);
