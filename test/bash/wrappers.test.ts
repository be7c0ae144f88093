import { describe, expect, test } from "bun:test";
import { analyzeBash, rulesMayAllow } from "../../src/bash/analyze.ts";
import { SAFE_ENV_VARS } from "../../src/bash/wrappers.ts";

/** Wrapper → a command using it and the rule text of the command that really runs. */
const TRANSPARENT: [string, string, string][] = [
  ["time", "time npm test", "npm test"],
  ["timeout", "timeout 5 npm run test unit", "npm run test unit"],
  ["timeout with options", "timeout -k 2 --signal=TERM 10s make", "make"],
  ["nice", "nice -n 5 cargo build", "cargo build"],
  ["nohup", "nohup npm start", "npm start"],
  ["stdbuf", "stdbuf -oL npm test", "npm test"],
  ["command", "command git status", "git status"],
  ["builtin", "builtin cd src", "cd src"],
  ["noglob", "noglob git add x", "git add x"],
  ["exec", "exec npm test", "npm test"],
  ["env with assignments", "env NODE_ENV=test npm test", "npm test"],
  ["bare xargs", "xargs grep TODO", "grep TODO"],
  ["nested", "time nice -n 1 timeout 5 npm test", "npm test"],
];

/** Wrappers that run another command: the outer stays (and asks), the inner is judged too. */
const EXECUTING: [string, string, string][] = [
  ["sudo", "sudo -u bob git status", "git status"],
  ["doas", "doas ls", "ls"],
  ["setsid", "setsid -f npm start", "npm start"],
  ["ionice", "ionice -c 3 make", "make"],
  ["flock", "flock /tmp/l make", "make"],
  ["xargs with flags", "ls | xargs -0 -n 1 grep x", "grep x"],
  ["taskset", "taskset 0x1 make", "make"],
];

/** Shell code given as a string: the wrapper vanishes and the code is analyzed. */
const SCRIPTS: [string, string, string[]][] = [
  ["bash -c", "bash -c 'git status && ls'", ["git status", "ls"]],
  ["sh -c", `sh -c "npm test"`, ["npm test"]],
  ["zsh -lc", "zsh -lc 'make'", ["make"]],
  ["eval", "eval git status", ["git status"]],
  ["watch", "watch -n 1 git status", ["watch -n 1 git status", "git status"]],
  ["su -c", "su -c 'make install' root", ["su -c make install root", "make install"]],
  ["flock -c", "flock /tmp/l -c 'make'", ["flock /tmp/l -c make", "make"]],
];

describe("wrappers", () => {
  for (const [name, command, ruleText] of TRANSPARENT) {
    test(`${name} is stripped for rules`, async () => {
      const a = await analyzeBash(command);
      expect(a.commands.map((c) => c.ruleText)).toEqual([ruleText]);
      expect(a.commands[0]!.argv[0]).toBe(command.split(" ")[0]!);
    });
  }
  for (const [name, command, inner] of EXECUTING) {
    test(`${name} runs another command: inner judged, outer not prefix-allowable`, async () => {
      const a = await analyzeBash(command);
      const innerCommand = a.commands.find((c) => c.ruleText === inner);
      expect(innerCommand?.via).toBeDefined();
      expect(a.commands.some((c) => c.noAutoAllow.some((n) => n.includes("runs another command")))).toBe(
        true,
      );
      expect(rulesMayAllow(a)).toBe(false);
    });
  }
  for (const [name, command, ruleTexts] of SCRIPTS) {
    test(`${name}: the code inside is analyzed`, async () => {
      const a = await analyzeBash(command);
      expect(a.commands.map((c) => c.ruleText)).toEqual(ruleTexts);
      expect(a.commands.at(-1)!.via).toBeDefined();
    });
  }
  test("nohup is stripped but not read-only (it writes nohup.out)", async () => {
    expect((await analyzeBash("nohup ls")).readOnly).toBe(false);
    expect((await analyzeBash("timeout 5 ls")).readOnly).toBe(true);
  });
  test("a shell reading its standard input or a script file is kept and cannot be prefix-allowed", async () => {
    for (const c of ["echo ls | sh", "bash script.sh", "bash -s"]) {
      expect(rulesMayAllow(await analyzeBash(c)), c).toBe(false);
    }
  });
  test("shell code nested too deeply asks", async () => {
    const a = await analyzeBash(`bash -c "sh -c 'bash -c \\"sh -c ls\\"'"`);
    expect(a.parse).toBe("too-complex");
  });
});

describe("environment assignments", () => {
  test("safe variables are stripped for allow rules", async () => {
    for (const name of ["NODE_ENV", "RUST_LOG", "GOOS", "LANG", "LC_ALL"]) {
      expect(SAFE_ENV_VARS.has(name)).toBe(true);
      const a = await analyzeBash(`${name}=x npm run build`);
      expect(a.commands[0]!.ruleText).toBe("npm run build");
      expect(a.commands[0]!.hasUnsafeEnv).toBe(false);
      expect(a.prefix).toBe("npm run");
    }
  });
  test("a safe variable whose value names a file is not safe (glibc opens TZ=/path as a zone file)", async () => {
    for (
      const assignment of [
        "TZ=/home/u/.aws/credentials",
        "TZ=:/home/u/.aws/credentials",
        "TZ=../../../home/u/.ssh/id_rsa",
        "TZ=:../../x",
        "TZ=~/.aws/credentials",
        "LANG=../../../tmp/x",
        "LC_ALL=/tmp/x",
        "TZ=$F",
      ]
    ) {
      const a = await analyzeBash(`${assignment} date`);
      expect(a.commands[0]!.hasUnsafeEnv, assignment).toBe(true);
      expect(a.readOnly, assignment).toBe(false);
    }
    for (
      const assignment of ["TZ=UTC", "TZ=America/New_York", "TZ=:Europe/Paris", "TZ=EST5EDT,M3.2.0,M11.1.0"]
    ) {
      const a = await analyzeBash(`${assignment} date`);
      expect(a.commands[0]!.hasUnsafeEnv, assignment).toBe(false);
      expect(a.readOnly, assignment).toBe(true);
    }
  });
  test("GOFLAGS is not safe: -toolexec names a program go runs", async () => {
    expect(SAFE_ENV_VARS.has("GOFLAGS")).toBe(false);
    expect((await analyzeBash("GOFLAGS=-toolexec=./x go vet ./...")).commands[0]!.hasUnsafeEnv).toBe(true);
  });
  test("any other variable stays and blocks prefix allow rules, but deny rules still see the command", async () => {
    for (const name of ["LD_PRELOAD", "PATH", "GIT_SSH_COMMAND", "PAGER", "FOO"]) {
      const a = await analyzeBash(`${name}=x rm -rf build`);
      expect(a.commands[0]!.hasUnsafeEnv).toBe(true);
      expect(a.commands[0]!.ruleText).toBe("rm -rf build");
      expect(a.commands[0]!.env).toEqual({ [name]: "x" });
    }
  });
  test("env -S and unknown env options keep env as the command", async () => {
    expect((await analyzeBash("env -S 'rm -rf x'")).commands[0]!.noAutoAllow[0]).toContain("env -S");
  });
});

/**
 * git's own program directory holds `git-<subcommand>` programs: verified in real git 2.39,
 * `/usr/lib/git-core/git-push origin main` pushed and `/usr/lib/git-core/git-reset --hard` threw
 * away an uncommitted change. Rules and the work-loss guard see them as `git <subcommand>`.
 */
describe("programs in git's exec path are git", () => {
  const forms: [string, string][] = [
    ["/usr/lib/git-core/git-push origin main", "git push origin main"],
    ["/usr/libexec/git-core/git-push", "git push"],
    ["/usr/lib/git-core/git push -f", "git push -f"],
    ["/opt/homebrew/opt/git/libexec/git-core/git-commit -m x", "git commit -m x"],
  ];
  for (const [command, rule] of forms) {
    test(command, async () => {
      const a = await analyzeBash(command);
      expect(a.commands.map((c) => c.ruleText)).toEqual([rule]);
    });
  }
  test("the work-loss guard sees git-reset --hard", async () => {
    const a = await analyzeBash("/usr/lib/git-core/git-reset --hard");
    expect(a.workLoss.map((w) => w.id)).toEqual(["git-reset-hard"]);
  });
  test("a git-push elsewhere is not git", async () => {
    const a = await analyzeBash("./tools/git-push origin");
    expect(a.commands[0]!.ruleText).toBe("./tools/git-push origin");
  });
});

/**
 * An alias set on the command line is what git runs: verified in real git 2.39, each of these
 * threw away an uncommitted change or pushed. Aliases read from config files stay unknown here.
 */
describe("git aliases defined on the command line are read as what they stand for", () => {
  const forms: [string, string[]][] = [
    ["git -c alias.rh='reset --hard' rh", ["git reset --hard"]],
    ["git -calias.p=push p origin main", ["git push origin main"]],
    // Rules read git from its subcommand (`git x`); deny and ask rules see the words as written too.
    ["git -c alias.x='!git reset --hard' x", ["git x", "git reset --hard"]],
  ];
  for (const [command, rules] of forms) {
    test(command, async () => {
      const a = await analyzeBash(command);
      expect(a.commands.map((c) => c.ruleText)).toEqual(rules);
    });
  }
  test("the work-loss guard sees through them", async () => {
    for (const command of ["git -c alias.rh='reset --hard' rh", "git -c alias.x='!git reset --hard' x"]) {
      expect((await analyzeBash(command)).workLoss.map((w) => w.id), command).toEqual(["git-reset-hard"]);
    }
  });
  test("a shell alias is not read-only", async () => {
    expect(rulesMayAllow(await analyzeBash("git -c alias.x='!ls' x"))).toBe(false);
  });
});
