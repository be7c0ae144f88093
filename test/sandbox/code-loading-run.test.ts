/**
 * Code loaded from workspace files (a shared object's constructor, a Python startup file, a Perl
 * module given by PERL5OPT) run for real in the sandbox: with no rule it reaches curl (so the line
 * does run it); under `Bash(curl:*)` the decision asks, and were it approved or run through
 * `toolrt sandbox`, the program stub still keeps curl from starting. The shared object is built
 * here from three lines of C; its payload is `curl x` (no network in the sandbox).
 */
import { describe, expect, test } from "bun:test";
import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { isolatedCliEnv, runCliAsync } from "../helpers/cli.ts";
import { programFor, sandboxFor } from "../helpers/requirements.ts";

const usable = sandboxFor("code loading in the real sandbox", "bwrap") && programFor("cc", "code loading") &&
  programFor("curl", "code loading");

const { base, env } = isolatedCliEnv("toolrt-code-loading-run-");

/**
 * x.so: its constructor runs `curl x` (LD_PRELOAD dropped first, so the shell it starts does not
 * load it again). Each payload keeps curl's complaints in curl.err: node hides its children's.
 */
function buildSharedObject(): boolean {
  const source = join(base, "x.c");
  writeFileSync(
    source,
    '#include <stdlib.h>\n__attribute__((constructor)) static void i(void) { unsetenv("LD_PRELOAD"); system("curl x 2>>curl.err"); }\n',
  );
  const built = Bun.spawnSync(["cc", "-shared", "-fPIC", "-o", join(base, "x.so"), source]);
  return built.exitCode === 0;
}
const built = usable && buildSharedObject();

let count = 0;
function workspace(): string {
  const ws = join(base, `ws${++count}`);
  mkdirSync(ws);
  copyFileSync(join(base, "x.so"), join(ws, "x.so"));
  writeFileSync(join(ws, "t.py"), 'import os\nos.system("curl x 2>>curl.err")\n');
  writeFileSync(join(ws, "x.pm"), 'package x; system("curl x 2>>curl.err"); 1;\n');
  return ws;
}

/** What curl said when the line ran in the sandbox (the stub's message, or curl's own error). */
async function sandboxed(rules: string[], line: string): Promise<string> {
  const ws = workspace();
  await runCliAsync([...rules, "sandbox", "--workspace", ws, "--", "bash", "-c", line], { cwd: ws, env });
  return existsSync(join(ws, "curl.err")) ? readFileSync(join(ws, "curl.err"), "utf8") : "";
}

async function decided(rules: string[], line: string): Promise<string> {
  const run = await runCliAsync([...rules, "check", "--json", "--sandboxed", "Bash", line], {
    cwd: workspace(),
    env,
  });
  return (JSON.parse(run.stdout) as { decision: string }).decision;
}

const CURL_BLOCKED = "toolrt: curl is blocked in this sandbox by the ask rule Bash(curl:*)";
const CURL_REACHED = /curl: \(\d+\)/;
const LOADER = ["/lib64/ld-linux-x86-64.so.2", "/lib/ld-linux-aarch64.so.1"].find(existsSync);

/** The red team's lines, each with the program it needs. */
const LINES: Array<[string, string]> = [
  ["LD_PRELOAD=./x.so ls", "ls"],
  ["env LD_PRELOAD=./x.so ls", "env"],
  ["export LD_PRELOAD=./x.so; ls", "ls"],
  [`python3 -c "import ctypes; ctypes.CDLL('./x.so')"`, "python3"],
  [`node -e "try { process.dlopen(module, './x.so') } catch {}"`, "node"],
  [`perl -MDynaLoader -e "DynaLoader::dl_load_file('./x.so')"`, "perl"],
  ["export PYTHONSTARTUP=t.py; python3 -i < /dev/null", "python3"],
  ["export PERL5OPT='-I. -Mx'; perl -e 1", "perl"],
  ...(LOADER ? [[`${LOADER} --preload ./x.so /bin/true`, "true"] as [string, string]] : []),
];

describe.skipIf(!built)("code loaded from a workspace file runs curl; both layers stop it", () => {
  for (const [line, needs] of LINES) {
    test.skipIf(Bun.which(needs) === null)(line, async () => {
      const [decision, masked, plain] = await Promise.all([
        decided(["--ask", "Bash(curl:*)"], line),
        sandboxed(["--ask", "Bash(curl:*)"], line),
        sandboxed([], line),
      ]);
      expect(decision).toBe("ask");
      expect(masked).toContain(CURL_BLOCKED);
      expect(masked).not.toMatch(CURL_REACHED);
      expect(plain).toMatch(CURL_REACHED);
    }, 60_000);
  }
});
