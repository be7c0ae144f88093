/**
 * Programs named by bare-program deny and ask rules, kept from starting inside the real sandbox:
 * each way found to run them past the analyzer (a program of the line that runs another, shell
 * features that run code from strings) runs for real under `toolrt sandbox` with the rule, and the
 * stub blocks it with its message; the same line without the rule reaches the real program (so the
 * line does run it). A line whose analysis now names the program is caught before it runs (the
 * rule asks or denies, so the person approves what runs): for those the decision is checked
 * instead, since an approved line keeps the programs it names. One layer or the other always holds.
 * Payloads are harmless: `curl x` (no network in the sandbox) and `rm x` of a scratch file.
 */
import { describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, realpathSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { analyzeBash } from "../../src/bash/analyze.ts";
import { namedPrograms } from "../../src/policy/program-rules.ts";
import { type CliRun, isolatedCliEnv, runCliAsync } from "../helpers/cli.ts";
import { sandboxFor } from "../helpers/requirements.ts";

const usable = sandboxFor("program masks in the real sandbox", "bwrap");

/** No real HOME, state dir, user or managed policy: only the rules each test gives. */
const { base, env } = isolatedCliEnv("toolrt-program-masks-run-");

let count = 0;
/** A workspace: a git repository with a.txt committed then changed, t.sh running curl, a file x. */
function workspace(): string {
  const ws = join(base, `ws${++count}`);
  mkdirSync(ws);
  const git = (...args: string[]) =>
    Bun.spawnSync(["git", "-c", "user.name=t", "-c", "user.email=t@t", ...args], { cwd: ws, env });
  git("init", "-q");
  writeFileSync(join(ws, "a.txt"), "one\n");
  git("add", "a.txt");
  git("commit", "-qm", "init");
  writeFileSync(join(ws, "a.txt"), "one\ntwo\n");
  writeFileSync(join(ws, "t.sh"), "curl x\n");
  writeFileSync(join(ws, "x"), "scratch\n");
  return ws;
}

async function sandboxed(rules: string[], line: string, ws = workspace()): Promise<CliRun & { ws: string }> {
  const run = await runCliAsync([...rules, "sandbox", "--workspace", ws, "--", "bash", "-c", line], {
    cwd: ws,
    env,
  });
  return { ...run, ws };
}

const CURL_BLOCKED = "toolrt: curl is blocked in this sandbox by the ask rule Bash(curl:*)";
const RM_BLOCKED = "toolrt: rm is blocked in this sandbox by the deny rule Bash(rm:*)";
const CURL_REACHED = /curl: \(\d+\)/;

/** Lines that reach curl by ways the analyzer missed, with the program each needs. */
const CURL_LINES: Array<[string, string]> = [
  ["sed -n '1e curl x' a.txt", "sed"],
  ["ssh -o ProxyCommand='curl x' h", "ssh"],
  ["git -c protocol.ext.allow=always ls-remote 'ext::curl x'", "git"],
  ["git -c core.fsmonitor='curl x' status", "git"],
  ["git -c diff.external='curl x' diff", "git"],
  ["tar --use-compress-program='curl x' -cf x.tar a.txt", "tar"],
  ["declare -i n='a[$(curl x)]'", "bash"],
  ["gdb -batch -ex 'shell curl x'", "gdb"],
  ["source t.sh", "bash"],
  [". t.sh", "bash"],
  ["ENV=t.sh sh -i", "sh"],
  ["shopt -s expand_aliases\nalias c=curl\nc x", "bash"],
  ["PS4='$(curl x)' ; set -x; :", "bash"],
  ["set -o xtrace; PS4='$(curl x)'; true", "bash"],
  ["echo ${x:=`curl x`}", "bash"],
  ["x='a[$(curl x)]'; [[ x -eq 1 ]]", "bash"],
  ["x='a[$(curl x)]'; let x", "bash"],
  ["x='a[$(curl x)]'; declare -i y=x", "bash"],
  // Ways around a stub: a copy, a link in the workspace, another name, another path, the loader.
  ["sed -n '1e cp /usr/bin/curl ./c && ./c x' a.txt", "sed"],
  ["sed -n '1e ln -s /usr/bin/curl ./c && ./c x' a.txt", "sed"],
  ["sed -n \"1e bash -c 'exec -a ls curl x'\" a.txt", "sed"],
  ["sed -n '1e PATH=/sbin:/usr/sbin:/usr/local/bin:/bin curl x' a.txt", "sed"],
  ["sed -n '1e /proc/self/root/usr/bin/curl x' a.txt", "sed"],
];

/** Lines that reach rm past a deny rule. */
const RM_LINES: Array<[string, string]> = [
  ["tar -cf y.tar --checkpoint=1 --checkpoint-action=exec='rm x' a.txt", "tar"],
  ["ex -c '!rm x' -c q a.txt", "ex"],
  ["make --eval='$(shell rm x)'", "make"],
  ["make -E '$(shell rm x)' -f /dev/null", "make"],
];

const have = (program: string) => Bun.which(program) !== null;

/** The analysis names `program` in `line`: then the rule itself meets it before anything runs. */
const names = async (line: string, program: string) =>
  namedPrograms((await analyzeBash(line)).commands).has(program);

/** The sandboxed decision for `line` under `rule`. */
async function decided(rule: string[], line: string): Promise<string> {
  const run = await runCliAsync([...rule, "check", "--json", "--sandboxed", "Bash", line], {
    cwd: workspace(),
    env,
  });
  return (JSON.parse(run.stdout) as { decision: string }).decision;
}

describe.skipIf(!usable)("a program a bare-program rule names cannot start inside the sandbox", () => {
  for (const [line, needs] of CURL_LINES) {
    test.skipIf(!have(needs) || !have("curl"))(`Bash(curl:*) asks: ${JSON.stringify(line)}`, async () => {
      if (await names(line, "curl")) {
        return void expect(await decided(["--ask", "Bash(curl:*)"], line)).toBe("ask");
      }
      const [masked, plain] = await Promise.all([
        sandboxed(["--ask", "Bash(curl:*)"], line),
        sandboxed([], line),
      ]);
      expect(masked.stderr).toContain(CURL_BLOCKED);
      expect(masked.stderr).not.toMatch(CURL_REACHED);
      expect(plain.stderr).not.toContain("is blocked in this sandbox");
      expect(plain.stderr).toMatch(CURL_REACHED);
    }, 60_000);
  }

  for (const [line, needs] of RM_LINES) {
    test.skipIf(!have(needs))(`Bash(rm:*) denied: ${JSON.stringify(line)}`, async () => {
      if (await names(line, "rm")) {
        return void expect(await decided(["--deny", "Bash(rm:*)"], line)).toBe("deny");
      }
      const [masked, plain] = await Promise.all([
        sandboxed(["--deny", "Bash(rm:*)"], line),
        sandboxed([], line),
      ]);
      expect(masked.stderr).toContain(RM_BLOCKED);
      expect(existsSync(join(masked.ws, "x"))).toBe(true);
      expect(existsSync(join(plain.ws, "x"))).toBe(false);
    }, 60_000);
  }

  test("the dynamic loader opening the program gets the stub, not curl", async () => {
    const loader = ["/lib64/ld-linux-x86-64.so.2", "/lib/ld-linux-aarch64.so.1"].find(existsSync);
    if (!loader) return void console.warn("skipping the dynamic loader case: no known loader path");
    const line = `sed -n '1e ${loader} /usr/bin/curl x' a.txt`;
    const [masked, plain] = await Promise.all([
      sandboxed(["--ask", "Bash(curl:*)"], line),
      sandboxed([], line),
    ]);
    expect(masked.stderr).not.toMatch(CURL_REACHED);
    expect(plain.stderr).toMatch(CURL_REACHED);
  }, 60_000);
});

describe.skipIf(!usable)("what stays as it was", () => {
  test("a line that names the program itself runs it (the person approved it)", async () => {
    const run = await sandboxed(["--ask", "Bash(curl:*)"], "curl --version");
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^curl \d/);
    expect(run.stderr).not.toContain("is blocked");
  }, 60_000);

  test("a subcommand rule masks nothing: all of git still runs", async () => {
    const ws = workspace();
    const explained = await runCliAsync(
      ["--deny", "Bash(git push:*)", "sandbox", "--workspace", ws, "--explain"],
      { cwd: ws, env },
    );
    expect(explained.stdout).toContain(
      "unless the command line names them (deny and ask rules naming a bare program, --mask-program): none",
    );
    const run = await sandboxed(["--deny", "Bash(git push:*)"], "sed -n '1e git --version' a.txt", ws);
    expect(run.stdout).toMatch(/git version/);
  }, 60_000);

  test("no rules: no masks, and --explain says so", async () => {
    const ws = workspace();
    const run = await runCliAsync(["sandbox", "--workspace", ws, "--explain"], { cwd: ws, env });
    expect(run.stdout).toMatch(/names them .*: none\n/);
  }, 60_000);

  test("--explain lists each stub with its rule and source", async () => {
    const ws = workspace();
    const run = await runCliAsync(
      ["--deny", "Bash(rm:*)", "sandbox", "--workspace", ws, "--explain"],
      { cwd: ws, env },
    );
    expect(run.stdout).toContain(
      `${realpathSync(Bun.which("rm")!)} (rm: the deny rule Bash(rm:*) (cli: command line))`,
    );
  }, 60_000);

  test("--mask-program masks without a rule; --policy-rules off leaves the policy's rules out", async () => {
    const line = "sed -n '1e curl x' a.txt";
    const ws = workspace();
    const flagged = await runCliAsync(
      [
        "--ask",
        "Bash(rm:*)",
        "sandbox",
        "--workspace",
        ws,
        "--mask-program=curl=the team's rule",
        "--policy-rules",
        "off",
        "--",
        "bash",
        "-c",
        `${line}; sed -n '1e rm x' a.txt`,
      ],
      { cwd: ws, env },
    );
    expect(flagged.stderr).toContain("toolrt: curl is blocked in this sandbox by the team's rule");
    expect(flagged.stderr).not.toContain("rm is blocked");
    expect(existsSync(join(ws, "x"))).toBe(false);
  }, 60_000);

  test("a broken policy file is refused, naming it, rather than run without its masks", async () => {
    const ws = workspace();
    const policy = join(ws, "broken.json");
    writeFileSync(policy, "{ not json");
    const run = await runCliAsync(
      ["--policy", policy, "sandbox", "--workspace", ws, "--", "true"],
      { cwd: ws, env },
    );
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("the policy could not be read");
    expect(run.stderr).toContain("broken.json");
  }, 60_000);
});

describe.skipIf(!usable)("the Bash tool's sandboxed runs", () => {
  test(
    "toolrt run Bash: a program of the approved line cannot start a program an ask rule names",
    async () => {
      const ws = workspace();
      writeFileSync(join(ws, "Makefile"), "all:\n\tcurl x\n");
      const bash = (command: string) =>
        runCliAsync(
          ["--cwd", ws, "--ask", "Bash(curl:*)", "run", "--yes", "Bash", JSON.stringify({ command })],
          { cwd: ws, env },
        );
      const [make, direct] = await Promise.all([bash("make"), bash("curl -sS x")]);
      expect(make.stdout).toContain(CURL_BLOCKED);
      expect(make.stdout).not.toMatch(CURL_REACHED);
      // The person approved `curl -sS x` itself: it runs (and finds no network).
      expect(direct.stdout).toMatch(CURL_REACHED);
      expect(direct.stdout).not.toContain("is blocked");
    },
    60_000,
  );
});
