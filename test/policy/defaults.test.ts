/**
 * The shipped default rules: each decides at least one of policy/default.json's own tests; secrets
 * files keep asking in every hostile form while templates and public keys are read freely; and any
 * policy file can turn a default off by id (`"disable"`), unless the managed policy forbids it.
 */
import { beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import defaultPolicy from "../../policy/default.json" with { type: "json" };
import { analyzeBashSync } from "../../src/bash/analyze.ts";
import { analyzerDeps, checkCall, withBashParser } from "../../src/cli/check-call.ts";
import { globalsFrom } from "../../src/cli/options.ts";
import { EMBEDDED_DEFAULT_TEXT, type LoadOptions } from "../../src/policy/load.ts";
import { compilePolicyText } from "../../src/policy/policy-file.ts";
import { runPolicyTests } from "../../src/policy/policy-tests.ts";
import { setTrust } from "../../src/policy/trust.ts";
import { type Sandbox, sandbox } from "./helpers.ts";

beforeAll(() => withBashParser());

async function decision(box: Sandbox, tool: string, input: unknown, options: Partial<LoadOptions> = {}) {
  const loaded = box.load(options);
  const globals = { ...globalsFrom({ cwd: box.cwd, stateDir: box.stateDir }), color: false };
  const decided = await checkCall(tool, input, loaded.policy, globals, analyzerDeps);
  return { ...decided, errors: loaded.errors.map((e) => e.toString()), loadWarnings: loaded.warnings };
}
const read = (file_path: string) => ({ file_path });
const bash = (command: string) => ({ command });

test("every default rule decides at least one of the default policy's own tests", () => {
  const box = sandbox();
  const anchors = { cwd: box.cwd, home: box.home, sourceBase: box.cwd };
  const compiled = compilePolicyText("default.json", EMBEDDED_DEFAULT_TEXT, {
    source: "default",
    anchors,
    trusted: true,
  });
  const outcomes = runPolicyTests(compiled.loaded!, {
    cwd: box.cwd,
    home: box.home,
    analyzeBash: analyzeBashSync,
  });
  const deciding = new Set(
    outcomes.filter((o) => o.passed).flatMap((o) => o.decision!.matched.map((m) => m.id)),
  );
  const ids = defaultPolicy.rules.map((r) => r.id);
  expect(ids.every((id) => /^[a-z][a-z-]+$/.test(id))).toBe(true);
  expect(ids.filter((id) => !deciding.has(id))).toEqual([]);
});

describe("secrets files", () => {
  const box = sandbox();
  const outside = join(box.root, "outside");
  beforeAll(() => {
    mkdirSync(outside, { recursive: true });
    writeFileSync(join(outside, ".env"), "SECRET=1\n");
    for (
      const name of [".env", ".env.local", ".env.sample", ".env.template", ".env.dist", "id_ed25519.pub"]
    ) {
      writeFileSync(join(box.cwd, name), "x\n");
    }
    mkdirSync(join(box.cwd, "linked"));
    symlinkSync(join(box.cwd, ".env"), join(box.cwd, "linked", ".env.example"));
    symlinkSync(join(outside, ".env"), join(box.cwd, "linked", ".env.dist"));
    mkdirSync(join(box.cwd, "dir.pub"));
    writeFileSync(join(box.cwd, "dir.pub", "id_rsa"), "x\n");
    mkdirSync(join(box.cwd, "only-template"));
    writeFileSync(join(box.cwd, "only-template", ".env.example"), "A=\n");
  });

  test("templates and public keys are read without asking", async () => {
    for (const path of [".env.example", ".env.sample", ".env.template", ".env.dist", "id_ed25519.pub"]) {
      expect(`${path}: ${(await decision(box, "Read", read(path))).decision}`).toBe(`${path}: allow`);
    }
    const templates = await decision(box, "Bash", bash("cat only-template/.env*"));
    expect(templates.decision).toBe("allow");
  });

  test(".env, .env.local, .env.production and every case of them ask", async () => {
    for (
      const path of [".env", ".env.local", ".env.production", ".ENV", ".Env.Local", "app/.env.PRODUCTION"]
    ) {
      const decided = await decision(box, "Read", read(path));
      expect(`${path}: ${decided.decision} ${decided.matched[0]?.id}`).toBe(`${path}: ask secrets-files`);
    }
  });

  test("a template that is a symlink to a secrets file asks, by its target", async () => {
    const inside = await decision(box, "Read", read("linked/.env.example"));
    expect([inside.decision, inside.matched[0]?.id]).toEqual(["ask", "secrets-files"]);
    expect((await decision(box, "Read", read("linked/.env.dist"))).decision).toBe("ask");
    expect((await decision(box, "Bash", bash("cat linked/.env.example"))).decision).toBe("ask");
  });

  test("an exception names the file itself, not what lies in a directory of that name", async () => {
    for (const path of [".env.example/.env", "dir.pub/id_rsa", "a/.env.sample/.env.local"]) {
      const decided = await decision(box, "Read", read(path));
      expect(`${path}: ${decided.decision} ${decided.matched[0]?.id}`).toBe(`${path}: ask secrets-files`);
    }
  });

  test("shell patterns are judged by the files they match", async () => {
    for (const command of ["cat .env*", "cat .en?", "cat .[e]nv", "head -1 .ENV"]) {
      const decided = await decision(box, "Bash", bash(command));
      expect(`${command}: ${decided.decision}`).toBe(`${command}: ask`);
    }
  });

  test("a public key in ~/.ssh is no credential: an allow for it is not beaten by secrets-home", async () => {
    mkdirSync(join(box.home, ".ssh"), { recursive: true });
    const allow = { cliRules: { allow: ["Read(~/.ssh/*)"] } };
    expect((await decision(box, "Read", read(join(box.home, ".ssh/id_ed25519.pub")), allow)).decision).toBe(
      "allow",
    );
    const key = await decision(box, "Read", read(join(box.home, ".ssh/id_ed25519")), allow);
    expect([key.decision, key.matched[0]?.id]).toEqual(["ask", "secrets-home"]);
  });
});

describe('"disable": default rules by id', () => {
  test("a --policy file turns a default off, and the decision says which file did", async () => {
    const box = sandbox();
    const file = box.write("off.json", { disable: ["secrets-files"] });
    const decided = await decision(box, "Read", read(".env"), { flagFiles: [file] });
    expect(decided.decision).toBe("allow");
    // Each pattern of the rule that would have matched (`.env`, `*.env`), all of that one rule.
    expect(decided.disabledDefaults).toContainEqual(
      { id: "secrets-files", rule: "Read(.env)", effect: "ask", disabledBy: file, source: "flag" },
    );
    expect(new Set(decided.disabledDefaults?.map((d) => d.id))).toEqual(new Set(["secrets-files"]));
    // Only this one: the other defaults still hold.
    expect((await decision(box, "Read", read("~/.aws/credentials"), { flagFiles: [file] })).decision).toBe(
      "ask",
    );
  });

  test("a work-loss guard turned off lets a broad allow decide", async () => {
    const box = sandbox();
    box.write(join(box.home, ".config/toolrt/policy.json"), { disable: ["git-push-force"] });
    const allow = { cliRules: { allow: ["Bash(git:*)"] } };
    expect((await decision(box, "Bash", bash("git push -f origin main"), allow)).decision).toBe("allow");
    expect((await decision(box, "Bash", bash("git reset --hard"), allow)).decision).toBe("ask");
  });

  test("unknown and catastrophic ids are errors at their line and column, naming the known ids", async () => {
    const box = sandbox();
    const text = '{\n  "disable": [\n    "secrets-file",\n    "rm-root"\n  ]\n}\n';
    const file = box.write("bad.json", text);
    const decided = await decision(box, "Read", read("src/a.ts"), { flagFiles: [file] });
    expect(decided.decision).toBe("deny");
    expect(decided.errors).toEqual([
      expect.stringContaining(
        `${file}:3:5: disable[0]: unknown default rule id "secrets-file"; the default rules are: read-workspace, secrets-home, secrets-files,`,
      ),
      expect.stringContaining(`${file}:4:5: disable[1]: "rm-root" is a catastrophic command`),
    ]);
    expect(decided.errors[1]).toContain("cannot be disabled");
  });

  test("the managed policy may forbid it, or allow only listed ids; its own disable always applies", async () => {
    const box = sandbox();
    const file = box.write("off.json", { disable: ["secrets-files", "git-clean"] });
    const managed = join(box.managedDir, "managed-policy.json");
    box.write(managed, { allowDisable: false });
    const forbidden = await decision(box, "Read", read(".env"), { flagFiles: [file] });
    expect(forbidden.decision).toBe("ask");
    expect(forbidden.loadWarnings).toContain(
      `"disable": "secrets-files" in ${file} is ignored: the managed policy ${managed} does not allow disabling default rules`,
    );
    box.write(managed, { allowDisable: ["git-clean"] });
    expect((await decision(box, "Read", read(".env"), { flagFiles: [file] })).decision).toBe("ask");
    const listed = await decision(box, "Bash", bash("git clean -f"), {
      flagFiles: [file],
      cliRules: { allow: ["Bash(git:*)"] },
    });
    expect(listed.decision).toBe("allow");
    box.write(managed, { allowDisable: false, disable: ["secrets-files"] });
    expect((await decision(box, "Read", read(".env"))).decision).toBe("allow");
  });

  test("a project file disables only once the workspace is trusted", async () => {
    const box = sandbox();
    box.write(join(box.cwd, ".toolrt/policy.json"), { disable: ["secrets-files"] });
    const untrusted = await decision(box, "Read", read(".env"));
    expect(untrusted.decision).toBe("ask");
    expect(untrusted.loadWarnings.join("\n")).toContain("is ignored: the workspace is not trusted");
    setTrust(box.stateDir, box.cwd);
    expect((await decision(box, "Read", read(".env"))).decision).toBe("allow");
  });

  test('"allowDisable" outside the managed policy is a warning and does nothing', async () => {
    const box = sandbox();
    const file = box.write("user.json", { allowDisable: false });
    const loaded = box.load({ flagFiles: [file] });
    expect(loaded.warnings).toEqual([
      `${file}:2:3: "allowDisable" only takes effect in the managed policy; ignored here`,
    ]);
  });
});
