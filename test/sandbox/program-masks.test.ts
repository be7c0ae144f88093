/**
 * Where the stubs for masked programs go, on a scratch tree standing for bin directories: the real
 * file behind links, its hard links, what must stay runnable, the bound on mounts.
 */
import { describe, expect, test } from "bun:test";
import {
  chmodSync,
  linkSync,
  mkdirSync,
  mkdtempSync,
  realpathSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { MAX_STUB_MOUNTS, planProgramMasks, stubText } from "../../src/sandbox/program-masks.ts";

const why = "the ask rule Bash(curl:*) (cli: command line)";

function tree() {
  const root = realpathSync(mkdtempSync(join(tmpdir(), "toolrt-program-masks-")));
  const dirs = ["bin", "sbin", "libexec", "elsewhere"].map((d) => join(root, d));
  for (const d of dirs) mkdirSync(d);
  const [bin, sbin, libexec, elsewhere] = dirs as [string, string, string, string];
  const program = (path: string) => {
    writeFileSync(path, "#!/bin/sh\necho real\n");
    chmodSync(path, 0o755);
    return path;
  };
  return { root, bin, sbin, libexec, elsewhere, program };
}

describe("planProgramMasks", () => {
  test("the real file behind a symbolic link gets the stub (every link reaches it)", () => {
    const t = tree();
    const real = t.program(join(t.libexec, "curl.real"));
    symlinkSync(real, join(t.bin, "curl"));
    const plan = planProgramMasks([{ program: "curl", why }], { binDirs: [t.bin, t.sbin] });
    expect(plan.stubs).toEqual([{ path: real, program: "curl", why }]);
    expect(plan.refusals).toEqual([]);
  });

  test("hard links of the file in the searched directories get stubs too (a busybox-style applet)", () => {
    const t = tree();
    const real = t.program(join(t.bin, "curl"));
    linkSync(real, join(t.sbin, "fetch"));
    const plan = planProgramMasks([{ program: "curl", why }], { binDirs: [t.bin, t.sbin] });
    expect(plan.stubs.map((s) => s.path).sort()).toEqual([real, join(t.sbin, "fetch")].sort());
    expect(plan.notices).toEqual([]);
  });

  test("a hard link outside the searched directories is reported, not silently missed", () => {
    const t = tree();
    const real = t.program(join(t.bin, "curl"));
    linkSync(real, join(t.elsewhere, "curl-copy"));
    const plan = planProgramMasks([{ program: "curl", why }], { binDirs: [t.bin] });
    expect(plan.stubs.map((s) => s.path)).toEqual([real]);
    expect(plan.notices.join("\n")).toContain("1 hard link(s) outside the searched directories");
  });

  test("each copy of that name in the searched directories is masked", () => {
    const t = tree();
    const one = t.program(join(t.bin, "curl"));
    const two = t.program(join(t.sbin, "curl"));
    const plan = planProgramMasks([{ program: "curl", why }], { binDirs: [t.bin, t.sbin] });
    expect(plan.stubs.map((s) => s.path).sort()).toEqual([one, two].sort());
  });

  test("the program that runs the command line is never masked, and that is said", () => {
    const t = tree();
    const shell = t.program(join(t.bin, "bash"));
    const plan = planProgramMasks([{ program: "bash", why }], { binDirs: [t.bin], exempt: [shell] });
    expect(plan.stubs).toEqual([]);
    expect(plan.notices.join("\n")).toContain("bash is not blocked");
  });

  test("an exempt program given by name is found on the searched directories", () => {
    const t = tree();
    t.program(join(t.bin, "bash"));
    const plan = planProgramMasks([{ program: "bash", why }], { binDirs: [t.bin], exempt: ["bash"] });
    expect(plan.stubs).toEqual([]);
  });

  test("no file, a file that is not executable, a file under a hidden path: no stub", () => {
    const t = tree();
    writeFileSync(join(t.bin, "wget"), "not a program");
    t.program(join(t.sbin, "rm"));
    const plan = planProgramMasks(
      [{ program: "curl", why }, { program: "wget", why }, { program: "rm", why }],
      { binDirs: [t.bin, t.sbin], hidden: [t.sbin] },
    );
    expect(plan.stubs).toEqual([]);
  });

  test("no masks: nothing is read, nothing planned", () => {
    expect(planProgramMasks([], { binDirs: ["/nonexistent"] })).toEqual({
      stubs: [],
      texts: new Map(),
      notices: [],
      refusals: [],
    });
  });

  test(`more than ${MAX_STUB_MOUNTS} stubs is a refusal naming the rules' programs`, () => {
    const t = tree();
    const real = t.program(join(t.bin, "multi"));
    for (let i = 0; i < MAX_STUB_MOUNTS; i++) linkSync(real, join(t.bin, `applet${i}`));
    const plan = planProgramMasks([{ program: "multi", why }], { binDirs: [t.bin] });
    expect(plan.stubs.length).toBe(MAX_STUB_MOUNTS + 1);
    expect(plan.refusals.join("\n")).toContain(`naming multi would need ${MAX_STUB_MOUNTS + 1} stub mounts`);
  });

  test("the stub's shell is not a masked one", () => {
    const sh = realpathSync("/bin/sh");
    const name = sh.slice(sh.lastIndexOf("/") + 1);
    const plan = planProgramMasks([{ program: name, why }], {
      binDirs: [sh.slice(0, sh.lastIndexOf("/"))],
    });
    expect(plan.stubs.map((s) => s.path)).toContain(sh);
    const interpreter = /^#!(\S+)/.exec(plan.texts.get(name)!)![1]!;
    expect(realpathSync(interpreter)).not.toBe(sh);
  });
});

describe("stubText", () => {
  test("names the program and the rule on stderr and exits 126, whatever the quoting", () => {
    const dir = mkdtempSync(join(tmpdir(), "toolrt-stub-"));
    const stub = join(dir, "curl");
    const odd = "the ask rule Bash(curl 'it''s':*) (user: /h/it's $HOME `x`)";
    writeFileSync(stub, stubText({ program: "curl", why: odd }, "/bin/sh"));
    chmodSync(stub, 0o755);
    const run = Bun.spawnSync([stub, "https://x.example"], { stderr: "pipe", stdout: "pipe" });
    expect(run.exitCode).toBe(126);
    expect(run.stdout.toString()).toBe("");
    expect(run.stderr.toString()).toContain(`toolrt: curl is blocked in this sandbox by ${odd}`);
    expect(run.stderr.toString()).toContain("make it a command of its own");
  });
});
