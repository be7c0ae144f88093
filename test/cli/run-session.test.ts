import { describe, expect, test } from "bun:test";
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  statSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { runCli, runCliAsync } from "../helpers/cli.ts";
import { programFor } from "../helpers/requirements.ts";
import { tempDir } from "../helpers/session-context.ts";

function workspace() {
  const root = tempDir();
  const ws = join(root, "ws");
  mkdirSync(ws);
  writeFileSync(join(ws, "f.txt"), "hello world\n");
  return { root, ws, state: join(root, "state") };
}

const run = (ws: string, state: string, ...args: string[]) =>
  runCli(["--cwd", ws, "--state-dir", state, ...args]);

describe("toolrt run --session", () => {
  test("Read in one invocation lets Edit through in the next; a third sees the change", () => {
    const { ws, state } = workspace();
    const file = join(ws, "f.txt");
    const read = run(ws, state, "run", "--session", "s", "Read", JSON.stringify({ file_path: "f.txt" }));
    expect(read.code).toBe(0);
    const edit = run(
      ws,
      state,
      "--allow",
      "Edit(./f.txt)",
      "run",
      "--session",
      "s",
      "Edit",
      JSON.stringify({ file_path: "f.txt", old_string: "hello", new_string: "bye" }),
    );
    expect(edit.stdout).toContain("(Edit: ok)");
    expect(edit.code).toBe(0);
    expect(readFileSync(file, "utf8")).toBe("bye world\n");
    const again = run(ws, state, "run", "--session", "s", "Read", JSON.stringify({ file_path: "f.txt" }));
    expect(again.stdout).toContain("bye world");
    // The session file is the user's alone.
    expect(statSync(join(state, "sessions", "s.json")).mode & 0o777).toBe(0o600);
  });

  test("another session, or none, has not read the file: the error says how to proceed", () => {
    const { ws, state } = workspace();
    run(ws, state, "run", "--session", "a", "Read", JSON.stringify({ file_path: "f.txt" }));
    const input = JSON.stringify({ file_path: "f.txt", old_string: "hello", new_string: "bye" });
    const other = run(ws, state, "--allow", "Edit(./f.txt)", "run", "--session", "b", "Edit", input);
    expect(other.code).toBe(1);
    expect(other.stdout).toContain("has not been read in session b");
    expect(other.stdout).toContain("toolrt run --session b Read");
    const none = run(ws, state, "--allow", "Edit(./f.txt)", "run", "Edit", input);
    expect(none.code).toBe(1);
    expect(none.stdout).toContain("(Edit: error)");
    expect(none.stdout).toContain("toolrt run --session NAME Read");
    expect(readFileSync(join(ws, "f.txt"), "utf8")).toBe("hello world\n");
  });

  test("a file changed since the session read it must be read again", () => {
    const { ws, state } = workspace();
    run(ws, state, "run", "--session", "s", "Read", JSON.stringify({ file_path: "f.txt" }));
    writeFileSync(join(ws, "f.txt"), "hello there\n");
    utimesSync(join(ws, "f.txt"), new Date(), new Date(Date.now() + 5_000));
    const input = JSON.stringify({ file_path: "f.txt", old_string: "hello", new_string: "bye" });
    const edit = run(ws, state, "--allow", "Edit(./f.txt)", "run", "--session", "s", "Edit", input);
    expect(edit.code).toBe(1);
    expect(edit.stdout).toContain("has changed since it was last read");
    expect(readFileSync(join(ws, "f.txt"), "utf8")).toBe("hello there\n");
  });

  test("invocations of one session at once all keep their reads", async () => {
    const { ws, state } = workspace();
    const names = ["a", "b", "c", "d", "e", "f"];
    for (const name of names) writeFileSync(join(ws, `${name}.txt`), `${name}\n`);
    const reads = await Promise.all(names.map((name) =>
      runCliAsync([
        "--cwd",
        ws,
        "--state-dir",
        state,
        "run",
        "--session",
        "s",
        "Read",
        JSON.stringify({ file_path: `${name}.txt` }),
      ])
    ));
    expect(reads.map((r) => r.code)).toEqual(names.map(() => 0));
    const saved = JSON.parse(readFileSync(join(state, "sessions", "s.json"), "utf8"));
    expect(Object.keys(saved.readFiles).sort()).toEqual(names.map((n) => join(ws, `${n}.txt`)));
    // Nothing is left behind: no lock, no temporary file.
    expect(readdirSync(join(state, "sessions"))).toEqual(["s.json"]);
  });

  test("a name with a path in it is bad usage, and nothing is written outside the sessions dir", () => {
    const { root, ws, state } = workspace();
    for (const name of ["../escape", "a/b", "", ".hidden", "x".repeat(65), "a\\b"]) {
      const result = run(ws, state, "run", "--session", name, "Read", JSON.stringify({ file_path: "f.txt" }));
      expect(result.code).toBe(2);
      expect(result.stderr).toContain("is not a valid session name");
    }
    expect(existsSync(join(root, "escape.json"))).toBe(false);
    expect(existsSync(join(state, "sessions"))).toBe(false);
  });

  test("a broken session file is a clear error naming the file", () => {
    const { ws, state } = workspace();
    mkdirSync(join(state, "sessions"), { recursive: true });
    writeFileSync(join(state, "sessions", "s.json"), "{not json");
    const result = run(ws, state, "run", "--session", "s", "Read", JSON.stringify({ file_path: "f.txt" }));
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(join(state, "sessions", "s.json"));
    expect(result.stderr).toContain("delete it to start the session afresh");
  });
});

describe("toolrt run: exit status and labels", () => {
  const cases: { what: string; args: string[]; code: number; label?: string }[] = [
    { what: "success", args: ["run", "Read", '{"file_path":"f.txt"}'], code: 0, label: "(Read: ok)" },
    { what: "unknown tool", args: ["run", "Nope", "{}"], code: 2 },
    { what: "input not JSON", args: ["run", "Read", "{file_path"], code: 2 },
    {
      what: "input against the schema",
      args: ["run", "Read", '{"file_path":1}'],
      code: 2,
      label: "(Read: invalid input)",
    },
    {
      what: "tool error",
      args: ["run", "Read", '{"file_path":"missing.txt"}'],
      code: 1,
      label: "(Read: error)",
    },
    {
      what: "denial (an ask with nobody to answer)",
      args: ["run", "Write", '{"file_path":"new.txt","content":"x"}'],
      code: 1,
      label: "(Write: denied)",
    },
    {
      what: "denial by a deny rule",
      args: ["--deny", "Read(./f.txt)", "run", "Read", '{"file_path":"f.txt"}'],
      code: 1,
      label: "(Read: denied)",
    },
    {
      what: "a tool a deny rule removes",
      args: ["--deny", "Read", "run", "Read", '{"file_path":"f.txt"}'],
      code: 1,
    },
  ];
  for (const c of cases) {
    test(`${c.what}: exit ${c.code}`, () => {
      const { ws, state } = workspace();
      const result = run(ws, state, ...c.args);
      expect(result.code).toBe(c.code);
      if (c.label) expect(result.stdout.trim().split("\n").at(-1)).toBe(c.label);
    });
  }

  test("a denial without a terminal names the flag and the rule that would allow it", () => {
    const { ws, state } = workspace();
    const write = run(ws, state, "run", "Write", '{"file_path":"new.txt","content":"x"}');
    expect(write.stdout).toContain("run it again with --allow 'Edit(./new.txt)'");
    const outside = run(ws, state, "run", "Read", '{"file_path":"/etc/hostname"}');
    expect(outside.stdout).toContain("--allow 'Read(//etc/**)'");
    // The rule it names does allow it.
    const allowed = run(
      ws,
      state,
      "--allow",
      "Edit(./new.txt)",
      "run",
      "Write",
      '{"file_path":"new.txt","content":"x"}',
    );
    expect(allowed.code).toBe(0);
  });

  test("denials in dontAsk and plan mode, and of a catastrophic command, say what (if anything) allows them", () => {
    const { ws, state } = workspace();
    const write = '{"file_path":"new.txt","content":"x"}';
    const dontAsk = run(ws, state, "--mode", "dontAsk", "run", "Write", write);
    expect(dontAsk.stdout).toContain("To allow it, run it again with --allow 'Edit(./new.txt)'");
    expect(run(ws, state, "--mode", "dontAsk", "--allow", "Edit(./new.txt)", "run", "Write", write).code)
      .toBe(0);
    const secret = run(ws, state, "--mode", "dontAsk", "run", "Read", '{"file_path":".env"}');
    expect(secret.stdout).toContain("dontAsk mode asks no one: run it in another mode to be asked");
    expect(secret.stdout).not.toContain("deny rule");
    const plan = run(ws, state, "--mode", "plan", "run", "Bash", '{"command":"touch x"}');
    expect(plan.stdout).toContain("To run it, leave plan mode (--mode default).");
    const catastrophic = run(ws, state, "--allow", "Bash", "run", "Bash", '{"command":"rm -rf /"}');
    expect(catastrophic.stdout).toContain("No rule or mode allows it.");
    expect(catastrophic.code).toBe(1);
  });

  test("--json says why a call failed", () => {
    const { ws, state } = workspace();
    const schema = JSON.parse(run(ws, state, "run", "--json", "Read", '{"file_path":1}').stdout);
    expect(schema).toMatchObject({ is_error: true, failure: "invalid-input" });
    const denied = JSON.parse(
      run(ws, state, "run", "--json", "Write", '{"file_path":"n","content":""}').stdout,
    );
    expect(denied).toMatchObject({ is_error: true, decision: "deny", failure: "denied" });
    const ok = JSON.parse(run(ws, state, "run", "--json", "Read", '{"file_path":"f.txt"}').stdout);
    expect(ok.failure).toBeUndefined();
  });
});

/** Bash outside the sandbox, so these run on machines without one (the commands are harmless). */
function unsandboxedPolicy(root: string): string {
  const file = join(root, "no-sandbox.json");
  writeFileSync(file, JSON.stringify({ sandbox: { enabled: false } }));
  return file;
}

describe("toolrt run: Bash output", () => {
  test("--json carries persisted_path when the output was cut and saved whole", () => {
    const { root, ws, state } = workspace();
    const policy = unsandboxedPolicy(root);
    const args = [
      "--policy",
      policy,
      "--allow",
      "Bash",
      "run",
      "--json",
      "Bash",
      '{"command":"seq 1 200000"}',
    ];
    const result = JSON.parse(run(ws, state, ...args).stdout);
    expect(result.persisted_path).toStartWith(state);
    expect(readFileSync(result.persisted_path, "utf8").split("\n")[199_999]).toBe("200000");
    const small = JSON.parse(
      run(ws, state, "--policy", policy, "--allow", "Bash", "run", "--json", "Bash", '{"command":"echo hi"}')
        .stdout,
    );
    expect(small.persisted_path).toBeUndefined();
  });

  // util-linux's script(1) gives a pseudo-terminal; the BSD one on macOS takes other arguments.
  const what = "the pseudo-terminal test of run's output";
  const hasScript = process.platform === "linux"
    ? programFor("script", what)
    : (console.warn(`skipping ${what}: it needs util-linux's script(1)`), false);
  test.skipIf(!hasScript)("on a terminal the output is printed once", () => {
    const { root, ws, state } = workspace();
    const main = join(import.meta.dir, "../../src/cli/main.ts");
    const command = [
      process.execPath,
      main,
      "--cwd",
      ws,
      "--state-dir",
      state,
      "--policy",
      unsandboxedPolicy(root),
      "--allow",
      "Bash",
      "run",
      "Bash",
      // The command's text does not contain what it prints, so what is counted is the output.
      JSON.stringify({ command: "printf '%s-%s\\n' marker 42; sleep 0.3; echo done" }),
    ].map((word) => `'${word.replaceAll("'", "'\\''")}'`).join(" ");
    // script(1) gives the CLI a pseudo-terminal for stdout and stderr and copies what it wrote.
    const proc = Bun.spawnSync(["script", "-qec", command, "/dev/null"], {
      env: { ...process.env, NO_COLOR: "1" },
      stdin: "ignore",
    });
    const seen = proc.stdout.toString();
    expect(seen).toContain("(Bash: ok)");
    expect(seen.match(/marker-42/g)?.length).toBe(1);
  });
});
