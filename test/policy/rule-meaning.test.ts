/**
 * Deny and ask rules match a command by what it does, not by one spelling: options read through
 * the command's spec, npm's aliases and the commands they perform, programs under other names,
 * options before the subcommand, package runners, an unknowable subcommand word, and a line that
 * writes a file and then runs it. Every hostile line here was run in real bash 5.2 (scratch dirs
 * under /tmp, harmless payloads) and did what its rule names: `rm -fr x` deleted x/y/z, `npm it`
 * ran the preinstall script, `python3 -mpip install ./pkg` ran setup.py, `npm x -- npm i` and
 * `npm run env -- npm i` installed, the written Makefile pushed. Allow rules never read this way.
 */
import { beforeAll, describe, expect, test } from "bun:test";
import { asProgram, commandForms, optionRuleMeets, optionRuleOf } from "../../src/bash/command-meaning.ts";
import { DOCKER_ALIASES } from "../../src/bash/docker-commands.ts";
import { NPM_PERFORMS, npmCommandTexts } from "../../src/bash/npm-commands.ts";
import { RUNNERS, runnerStart } from "../../src/bash/package-runners.ts";
import { loadBashParser } from "../../src/bash/parser.ts";
import { IMPLICIT_CODE_FILES } from "../../src/policy/written-code.ts";
import { bashDecision, type Sandbox, sandbox } from "./helpers.ts";

let box: Sandbox;
beforeAll(async () => {
  await loadBashParser();
  box = sandbox();
});

async function decision(command: string, cliRules: Record<string, string[]>, sandboxed: boolean) {
  return (await bashDecision(box, command, { sandboxed, cliRules })).decision;
}

/** The decision on the host and in the sandbox, which must agree for a deny or ask rule. */
async function both(command: string, cliRules: Record<string, string[]>): Promise<string> {
  const host = await decision(command, cliRules, false);
  const sandboxed = await decision(command, cliRules, true);
  return host === sandboxed ? host : `host ${host}, sandboxed ${sandboxed}`;
}

const words = (text: string) => text.split(" ");

describe("options read through the spec: Bash(rm -rf:*) denies every spelling", () => {
  const deny = { deny: ["Bash(rm -rf:*)"] };
  test.each([
    "rm -rf x",
    "rm -fr x",
    "rm -r -f x",
    "rm -Rf x",
    "rm -R -f x",
    "rm --recursive --force x",
    "rm --recu --forc x",
    "rm -rfv x",
    "rm -v -f --dir -r x",
    "rm -f x -r",
    "/bin/rm -fr x",
    "timeout 5 rm -fr x",
  ])("%s is denied", async (command) => {
    expect(await both(command, deny)).toBe("deny");
  });
  test.each(["rm -f x", "rm -r x", "rm x", "rm -- -rf", "rm -v x"])(
    "%s is not what the rule names",
    async (command) => {
      expect(await decision(command, deny, true)).toBe("allow");
    },
  );
  test("an option rm's spec does not know asks: it may be what the rule names", async () => {
    expect(await both("rm --zz -r x", deny)).toBe("ask");
  });
  test("other option rules: values, subcommands, git's parse-options", async () => {
    expect(await both("git push -f origin main", { deny: ["Bash(git push --force:*)"] })).toBe("deny");
    expect(await both("git -C . push --forc origin", { deny: ["Bash(git push --force:*)"] })).toBe("deny");
    expect(await decision("git push origin main", { deny: ["Bash(git push --force:*)"] }, true)).toBe(
      "allow",
    );
    expect(await both("rm -fr build", { deny: ["Bash(rm -rf build:*)"] })).toBe("deny");
    expect(await decision("rm -fr src", { deny: ["Bash(rm -rf build:*)"] }, true)).toBe("allow");
  });
  test("a subcommand the spec does not know: another subcommand misses, the same one with options asks", async () => {
    const kube = { deny: ["Bash(kubectl -n prod delete:*)"] };
    expect(await both("kubectl -n prod delete pod x", kube)).toBe("deny");
    expect(await both("kubectl delete -n prod pod x", kube)).toBe("ask");
    expect(await decision("kubectl get pods -o wide", kube, true)).toBe("allow");
    const npm = { deny: ["Bash(npm install --global:*)"] };
    expect(await both("npm install --global x", npm)).toBe("deny");
    expect(await both("npm i -g x", npm)).toBe("ask");
    expect(await decision("npm ls -g", npm, true)).toBe("allow");
  });
  test("a program without a spec: options that do not match the text ask", async () => {
    const rules = { deny: ["Bash(chmod -R:*)"] };
    expect(await both("chmod -R 777 d", rules)).toBe("deny");
    expect(await both("chmod --recursive 777 d", rules)).toBe("ask");
    expect(await decision("chmod 644 f", rules, true)).toBe("allow");
  });
  test("rules that are not plain words with options are left to the text", () => {
    expect(optionRuleOf("rm -rf:*")).toEqual({ words: ["rm", "-rf"], tail: true });
    expect(optionRuleOf("pip3 install -e:*")).toEqual({ words: ["pip", "install", "-e"], tail: true });
    expect(optionRuleOf("rm:*")).toBeUndefined();
    expect(optionRuleOf("git push:*")).toBeUndefined();
    expect(optionRuleOf("rm -rf *.log")).toBeUndefined();
    expect(optionRuleOf("echo '-n'")).toBeUndefined();
  });
  test("a rule's options must all be given; extra options and operands only with a tail", () => {
    const rule = optionRuleOf("rm -rf x")!;
    expect(optionRuleMeets(rule, [words("rm -fr x")])).toBe("meets");
    expect(optionRuleMeets(rule, [words("rm -fr x y")])).toBe("misses");
    expect(optionRuleMeets(optionRuleOf("rm -rf:*")!, [words("rm -f x")])).toBe("misses");
  });
});

describe("allow rules are never broader than their text", () => {
  test("Bash(rm -rf build:*) does not approve other spellings or more targets", async () => {
    const allow = { allow: ["Bash(rm -rf build:*)"] };
    expect(await decision("rm -rf build", allow, false)).toBe("allow");
    expect(await decision("rm -fr build", allow, false)).toBe("ask");
    expect(await decision("rm -rf build ~", allow, false)).toBe("deny");
    expect(await decision("rm -rf build ../other", allow, false)).toBe("ask");
  });
  test("Bash(npm install:*) does not approve npm it, nor pip install pip3", async () => {
    expect(await decision("npm it", { allow: ["Bash(npm install:*)"] }, false)).toBe("ask");
    expect(await decision("pip3 install x", { allow: ["Bash(pip install:*)"] }, false)).toBe("ask");
    expect(await decision("kubectl -n x delete pod y", { allow: ["Bash(kubectl delete:*)"] }, false)).toBe(
      "ask",
    );
  });
});

describe("npm: a rule for a command holds for every alias and every command that performs it", () => {
  /** Each NPM_PERFORMS entry, an alias of it, and the rule it must meet. */
  const table: [string, string, string][] = [
    ["npm install-test", "npm install:*", "deny"],
    ["npm it", "npm install:*", "deny"],
    ["npm install-ci-test", "npm install:*", "deny"],
    ["npm cit", "npm ci:*", "deny"],
    ["npm clean-install-test", "npm run test:*", "deny"],
    ["npm sit", "npm test:*", "deny"],
    ["npm ci", "npm install:*", "deny"],
    ["npm clean-install", "npm install:*", "deny"],
    ["npm update", "npm install:*", "deny"],
    ["npm up", "npm install:*", "deny"],
    ["npm test", "npm run:*", "ask"],
    ["npm t", "npm run:*", "ask"],
    ["npm tst", "npm run test:*", "ask"],
    ["npm start", "npm run:*", "ask"],
    ["npm stop", "npm run:*", "ask"],
    ["npm restart", "npm run:*", "ask"],
    ["npm restart", "npm run start:*", "ask"],
  ];
  test.each(table)("%s meets Bash(%s)", async (command, rule, effect) => {
    expect(await both(command, { [effect]: [`Bash(${rule})`] })).toBe(effect);
  });
  test("every NPM_PERFORMS entry is in the table", () => {
    const covered = new Set(table.flatMap(([c]) => npmCommandTexts(words(c)).map((t) => t.split(" ")[1])));
    for (const command of Object.keys(NPM_PERFORMS)) expect(covered, command).toContain(command);
  });
  test.each(["i", "in", "ins", "inst", "insta", "instal", "isnt", "isnta", "isntal", "isntall", "add"])(
    "npm %s meets Bash(npm install:*)",
    async (alias) => {
      expect(await both(`npm ${alias} x`, { deny: ["Bash(npm install:*)"] })).toBe("deny");
    },
  );
  test("commands that perform nothing else are not caught", async () => {
    expect(await decision("npm ls", { deny: ["Bash(npm install:*)"] }, true)).toBe("allow");
    expect(await decision("npm view x", { ask: ["Bash(npm run:*)"] }, true)).toBe("allow");
  });
});

describe("docker: a rule for a command holds for each of its names", () => {
  const cases = DOCKER_ALIASES.flatMap((group) =>
    group.flatMap((spelling) => group.filter((other) => other !== spelling).map((rule) => [spelling, rule]))
  );
  test.each(cases)("docker %s x meets Bash(docker %s:*)", async (spelling, rule) => {
    expect(await both(`docker ${spelling} x`, { deny: [`Bash(docker ${rule}:*)`] })).toBe("deny");
  });
  test("podman takes the same names; other commands and allow rules are not widened", async () => {
    expect(await both("podman container remove c", { deny: ["Bash(podman rm:*)"] })).toBe("deny");
    expect(await decision("docker ps", { deny: ["Bash(docker rm:*)"] }, true)).toBe("allow");
    expect(await decision("docker container remove c", { allow: ["Bash(docker rm:*)"] }, false)).toBe("ask");
  });
});

describe("programs under other names", () => {
  test.each([
    ["pip3 install --target t ./pkg", ["pip", "install", "--target", "t", "./pkg"]],
    ["pip3.11 install x", ["pip", "install", "x"]],
    ["python3 -mpip install x", ["pip", "install", "x"]],
    ["python3 -m pip install x", ["pip", "install", "x"]],
    ["python -I -W ignore -m pip install x", ["pip", "install", "x"]],
    ["python3 -Im pip install x", ["pip", "install", "x"]],
    ["uv pip install x", ["pip", "install", "x"]],
  ])("%s is pip", async (command, expected) => {
    expect(asProgram(words(command))).toEqual(expected);
    expect(await both(command, { deny: ["Bash(pip install:*)"] })).toBe("deny");
  });
  test.each(["python3 -c pip install", "python3 -m venv pip", "python3 t.py -m pip", "pip install x"])(
    "%s is not pip under another name",
    (command) => expect(asProgram(words(command))).toBeUndefined(),
  );
});

describe("options before the subcommand are left out, for every spec with subcommands", () => {
  test.each([
    ["kubectl -n default delete pod x", "Bash(kubectl delete:*)"],
    ["kubectl --namespace=x delete pod x", "Bash(kubectl delete:*)"],
    ["git -C d push", "Bash(git push:*)"],
    ["git --no-pager -c x=y push", "Bash(git push:*)"],
    ["docker --context x rm c", "Bash(docker rm:*)"],
    ["docker -H unix:///x.sock rm c", "Bash(docker rm:*)"],
    ["npm --registry=http://127.0.0.1:9 publish", "Bash(npm publish:*)"],
    ["pip --isolated install x", "Bash(pip install:*)"],
  ])("%s meets %s", async (command, rule) => {
    expect(await both(command, { deny: [rule] })).toBe("deny");
  });
  test("the forms keep the command as written first", () => {
    expect(commandForms(words("kubectl -n x delete pod y"))).toEqual([
      words("kubectl -n x delete pod y"),
      words("kubectl delete pod y"),
    ]);
  });
});

describe("an unknowable word where the subcommand goes may be any subcommand", () => {
  test.each([
    ['npm --registry=http://127.0.0.1:1/ "$(cat c.txt)"', "Bash(npm publish:*)"],
    ['npm "$(cat c.txt)"', "Bash(npm publish:*)"],
    ['kubectl -n x "$sub" pod y', "Bash(kubectl delete:*)"],
  ])("%s asks under %s in the sandbox", async (command, rule) => {
    expect(await decision(command, { deny: [rule] }, true)).toBe("ask");
  });
});

describe("package runners: the command they run meets the rules", () => {
  test.each([
    "npm x -- npm i",
    "npm exec -- npm install",
    "npm --yes exec npm i",
    "npm run env -- npm i",
    "npm run-script env npm i",
    "npx npm i",
    "npx -p npm npm i",
    "npx -c 'npm i'",
    "pnpm dlx npm i",
    "pnpm exec npm i",
    "yarn dlx npm i",
    "yarn exec npm i",
    "bun x npm i",
    "bunx npm i",
    "uv run npm i",
    "uv tool run npm i",
    "uvx npm i",
    "poetry run npm i",
    "pdm run npm i",
    "pipenv run npm i",
    "hatch run npm i",
    "rye run npm i",
    "bundle exec npm i",
    "npx -- npx -- npm i",
  ])("%s meets Bash(npm install:*)", async (command) => {
    expect(await both(command, { deny: ["Bash(npm install:*)"] })).toBe("deny");
  });
  test("every runner has a case above", () => {
    const named = new Set(["npm", "npx", "pnpm", "yarn", "bun", "bunx", "uv", "uvx", "poetry", "pdm"]);
    for (const n of ["pipenv", "hatch", "rye", "bundle", "pnpx", "bundler"]) named.add(n);
    for (const runner of Object.keys(RUNNERS)) expect(named, runner).toContain(runner);
  });
  test("what a runner runs starts after its options and their values", () => {
    expect(runnerStart("npx", words("npx -p foo bar x"))).toEqual({ at: 3, via: "npx" });
    expect(runnerStart("uv", words("uv run --with req pytest"))).toEqual({ at: 4, via: "uv run" });
    expect(runnerStart("npm", words("npm run build"))).toBeUndefined();
    expect(runnerStart("poetry", words("poetry install"))).toBeUndefined();
  });
  test("runners of other commands are not caught", async () => {
    expect(await decision("npx prettier --check .", { deny: ["Bash(npm install:*)"] }, true)).toBe("allow");
    expect(await decision("npm run build", { deny: ["Bash(npm install:*)"] }, true)).toBe("allow");
  });
});

describe("a line that writes a file and runs it asks when a Bash deny or ask rule is active", () => {
  const rules = { deny: ["Bash(git push:*)"] };
  test.each([
    "printf 'all:\\n\\tgit push origin main\\n' > Makefile && make",
    "echo x > GNUmakefile; make all",
    "cp /tmp/x rules.mk && make",
    "echo x > t.sh && bash t.sh",
    "echo x > t.sh && sh ./t.sh",
    "echo x > t.sh; chmod +x t.sh; ./t.sh",
    "echo x > t.py && python3 t.py",
    "echo '{}' > package.json && npm test",
    "echo x > justfile && just",
    'echo x > "$f" && make',
    "echo x > s.sed && sed -f s.sed a.txt",
    "echo x > t.sh && nohup ./t.sh",
  ])("%s asks", async (command) => {
    expect(await both(command, rules)).toBe("ask");
  });
  test.each([
    "echo x > out.txt && make",
    "echo hi > a.txt && cat a.txt",
    "make",
    "sed -i s/a/b/ notes.txt",
    "echo x > a.txt && sed -n p a.txt",
  ])(
    "%s does not run what it writes",
    async (command) => {
      expect(await decision(command, rules, true)).toBe("allow");
    },
  );
  test("without a Bash deny or ask rule the sandbox still runs it", async () => {
    expect(await decision("echo x > t.sh && bash t.sh", {}, true)).not.toBe("deny");
    expect(await decision("printf 'all:\\n\\ttrue\\n' > Makefile && make", {}, true)).toBe("allow");
  });
  test.each(Object.entries(IMPLICIT_CODE_FILES))("%s runs code from %j", async (program, files) => {
    const file = files[0]!.replace("*", "x");
    expect(await decision(`echo x > ${file} && ${program} build`, rules, true), file).toBe("ask");
  });
});
