/**
 * `toolrt hook --sandbox`'s rewritten command: every profile setting of the policy reaches
 * `toolrt sandbox` as a flag, any command text survives the host shell's parsing byte for byte,
 * and the command's exit status, stdout and stderr are what it gives outside the sandbox.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fastSandboxArgs } from "../../src/cli/sandbox-command.ts";
import { selfCommand, shellLine } from "../../src/hook/command.ts";
import {
  LIMIT_FLAGS,
  SANDBOX_FLAGS,
  SANDBOX_SWITCHES,
  sandboxedCommand,
} from "../../src/hook/sandboxed-command.ts";
import { DEFAULT_SANDBOX_POLICY, type SandboxPolicy } from "../../src/policy/sandbox-policy.ts";
import { detectSandbox } from "../../src/sandbox/detect.ts";

const dir = realpathSync(mkdtempSync(join(tmpdir(), "toolrt-hook-sandbox-")));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** What bash makes of a line: its words, read back NUL-separated. */
function wordsOf(line: string): string[] {
  const run = Bun.spawnSync(["bash", "--noprofile", "--norc", "-c", `printf '%s\\0' ${line}`]);
  expect(run.exitCode, run.stderr.toString()).toBe(0);
  return run.stdout.toString().split("\0").slice(0, -1);
}

const HOSTILE = [
  "it's",
  `"double" and 'single'`,
  "$HOME ${PATH} $(id) `id` $'\\t' \\$",
  "back\\slash\\\\ and trailing\\",
  "new\nline\r\nand\ttab",
  "cat <<'EOF'\nline $x `y`\nEOF\necho done",
  "!! !$ history ^x^y",
  "-starts-with-dash",
  "",
  " ",
  "*?[a-z]{1,2}~",
  "ünïcødé ✓ \u202e bidi",
  String.fromCharCode(...Array.from({ length: 255 }, (_, i) => i + 1)),
];

describe("shellLine", () => {
  test.each(HOSTILE.map((text) => [JSON.stringify(text).slice(0, 40), text]))(
    "%s survives bash",
    (_name, text) => {
      expect(wordsOf(shellLine(["x", text, "y"]))).toEqual(["x", text, "y"]);
    },
  );

  test("random text (no NUL) survives bash, 300 cases", () => {
    let seed = 16;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const words = Array.from({ length: 300 }, () =>
      Array.from({ length: Math.floor(random() * 24) }, () => {
        const pick = random();
        // Mostly shell-significant ASCII, some control bytes and non-ASCII text.
        if (pick < 0.7) return "'\"\\$`!;&|<>(){}[]*?~#= \n\tabc"[Math.floor(random() * 32)] ?? "a";
        if (pick < 0.85) return String.fromCharCode(1 + Math.floor(random() * 31));
        return String.fromCodePoint(0xa0 + Math.floor(random() * 0x2000));
      }).join(""));
    const line = shellLine(words);
    expect(wordsOf(line)).toEqual(words);
  });
});

describe("sandboxedCommand", () => {
  const policy: SandboxPolicy = {
    ...DEFAULT_SANDBOX_POLICY,
    allowWrite: ["~/.cache/x", "-odd path"],
    denyRead: ["~/.ssh"],
    denyWrite: ["secrets"],
    allowNet: ["@npm", "example.com:443"],
    unsetEnv: ["MY_*"],
    allowRead: ["~/.npmrc"],
    limits: {
      maxProcesses: 64,
      maxMemoryBytes: 1024 ** 3,
      maxCpuSeconds: 5,
      maxWallSeconds: 60,
      maxTmpBytes: 1024,
    },
  };

  test("every profile list of the policy reaches toolrt sandbox as its flag", () => {
    const argv = wordsOf(sandboxedCommand("npm test", policy, "/w s", ["/opt/toolrt"]));
    expect(argv[0]).toBe("/opt/toolrt");
    const parsed = fastSandboxArgs(argv.slice(1));
    expect(parsed?.options).toEqual({
      workspace: "/w s",
      allowWrite: policy.allowWrite,
      denyRead: policy.denyRead,
      denyWrite: policy.denyWrite,
      allowNet: policy.allowNet,
      unsetEnv: policy.unsetEnv,
      allowRead: policy.allowRead,
      maxProcesses: "64",
      maxMemory: String(1024 ** 3),
      maxCpuSeconds: "5",
      maxWallSeconds: "60",
      tmpSize: "1024",
      policyRules: "off",
    });
    expect(Object.keys(policy.limits).sort()).toEqual(Object.keys(LIMIT_FLAGS).sort());
    expect(parsed?.command).toEqual(["bash", "--noprofile", "--norc", "-c", "npm test"]);
  });

  test("the programs the hook's rules keep from starting reach it as --mask-program, with their rule", () => {
    const masks = [
      { program: "curl", why: "the ask rule Bash(curl:*) (claude: /h/.claude/settings.json)" },
      { program: "rm", why: "the deny rule Bash(rm:*) (user: /h/it's policy.json)" },
    ];
    const argv = wordsOf(sandboxedCommand("make", policy, "/w", ["/opt/toolrt"], masks));
    const parsed = fastSandboxArgs(argv.slice(1));
    expect(parsed?.options.maskProgram).toEqual(masks.map((m) => `${m.program}=${m.why}`));
    // The policy files are not read again: the hook's rules (Claude Code's included) are these.
    expect(parsed?.options.policyRules).toBe("off");
    expect(parsed?.command).toEqual(["bash", "--noprofile", "--norc", "-c", "make"]);
  });

  test("runAsRoot reaches it as --run-as-root, only when on; limits not set are not flags", () => {
    const on = wordsOf(sandboxedCommand("npm test", { ...policy, runAsRoot: true }, "/w", ["/opt/toolrt"]));
    expect(fastSandboxArgs(on.slice(1))?.options.runAsRoot).toBe(true);
    const plain = sandboxedCommand("npm test", { ...policy, limits: {} }, "/w", ["/opt/toolrt"]);
    expect(plain).not.toContain("--run-as-root");
    expect(plain).not.toContain("--max-");
  });

  test("privateTmp reaches it as --private-tmp, only when on", () => {
    const on = wordsOf(sandboxedCommand("npm test", { ...policy, privateTmp: true }, "/w", ["/opt/toolrt"]));
    expect(fastSandboxArgs(on.slice(1))?.options.privateTmp).toBe(true);
    expect(sandboxedCommand("npm test", policy, "/w", ["/opt/toolrt"])).not.toContain("--private-tmp");
  });

  test("allowLocalhost reaches it as --allow-localhost, only when on", () => {
    const on = wordsOf(
      sandboxedCommand("npm test", { ...policy, allowLocalhost: true }, "/w", ["/opt/toolrt"]),
    );
    expect(fastSandboxArgs(on.slice(1))?.options.allowLocalhost).toBe(true);
    expect(sandboxedCommand("npm test", policy, "/w", ["/opt/toolrt"])).not.toContain("--allow-localhost");
  });

  test("every field of the policy's sandbox section is either a flag or decided before the rewrite", () => {
    // A new profile setting must reach `toolrt sandbox`, or the rewritten command runs with less.
    const decidedBefore = [
      "enabled",
      "autoAllow",
      "excludedCommands",
      "allowUnsandboxedCommands",
      "whenUnavailable",
      "origin",
    ];
    expect(Object.keys(DEFAULT_SANDBOX_POLICY).sort()).toEqual(
      [...Object.keys(SANDBOX_FLAGS), ...Object.keys(SANDBOX_SWITCHES), "limits", ...decidedBefore].sort(),
    );
  });
});

const usable = detectSandbox().available;
if (!usable) console.warn("skipping rewritten-command runs: no sandbox here");

describe.skipIf(!usable)("the rewritten command, run as the host's shell runs it", () => {
  writeFileSync(join(dir, ".mcp.json"), '{ "mcpServers": {} }\n');
  const run = (argv: string[]) => {
    const result = Bun.spawnSync(argv, {
      cwd: dir,
      // The home beside the workspace: a sandbox whose workspace holds the home is refused.
      env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: `${dir}-home` },
    });
    return {
      code: result.exitCode,
      out: result.stdout.toString("latin1"),
      err: result.stderr.toString("latin1"),
    };
  };
  const commands = [
    "printf '%s|' \"it's\" '$HOME' \"a\\\\b\" 'back\\slash' && echo \"done\" >&2; exit 3",
    "cat <<'EOF'\nline $x `y` \\\nEOF\necho two lines",
    "printf '\\001\\177\\200\\377ü' ; printf 'err\\n' 1>&2",
    "x='a b'; set -- $x; echo $#; exit 42",
    'echo "$(echo nested "quotes")"',
  ];
  test.each(commands.map((c) => [JSON.stringify(c).slice(0, 40), c]))(
    "%s: same status, stdout and stderr",
    (_name, command) => {
      const direct = run(["bash", "--noprofile", "--norc", "-c", command]);
      const line = sandboxedCommand(command, DEFAULT_SANDBOX_POLICY, dir, selfCommand());
      const sandboxed = run(["bash", "-c", line]);
      expect(sandboxed).toEqual(direct);
    },
    30_000,
  );
});
