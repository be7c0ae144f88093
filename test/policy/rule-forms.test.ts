/** Every rule form of the grammar, and the path anchoring table of claude-code-compat.md §2.3. */
import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { bashCall, decideIn, rules, sandbox } from "./helpers.ts";
import { decide } from "../../src/policy/decide.ts";
import { buildRequest } from "../../src/policy/request.ts";
import type { Effect } from "../../src/policy/types.ts";

const box = sandbox();

function withCli(effect: Effect, ...list: string[]) {
  const loaded = box.load({ cliRules: { [effect]: list } });
  expect(loaded.errors).toEqual([]);
  return loaded;
}

describe("Bash command patterns", () => {
  const cases: [string, string, boolean][] = [
    ["Bash(npm run test)", "npm run test", true],
    ["Bash(npm run test)", "npm run test unit", false],
    ["Bash(npm run test *)", "npm run test", true],
    ["Bash(npm run test *)", "npm run test unit", true],
    ["Bash(npm run test *)", "npm run testx", false],
    ["Bash(npm run:*)", "npm run build", true],
    ["Bash(npm run:*)", "npm runner", false],
    ["Bash(git * main)", "git push origin main", true],
    ["Bash(git * main)", "git push origin dev", false],
    ["Bash(* --version)", "node --version", true],
    ["Bash(ls *)", "ls", true],
    ["Bash(ls *)", "lsof", false],
    ["Bash(lsof*)", "lsof -v", true],
    ["Bash(ls*)", "lsblk", true],
    ["Bash", "anything at all", true],
    ["Bash(*)", "anything at all", true],
  ];
  for (const [rule, command, allowed] of cases) {
    test(`${rule} ${allowed ? "covers" : "does not cover"} \`${command}\``, () => {
      const decision = decideIn(box, withCli("allow", rule), bashCall(command));
      expect(decision.decision, decision.reason).toBe(allowed ? "allow" : "ask");
    });
  }
});

describe("path rules: anchoring", () => {
  const cwd = box.cwd;
  const home = box.home;
  const cases: [string, string, boolean][] = [
    ["Read(//etc/**)", "/etc/hostname", true],
    ["Read(//etc/shadow)", "/etc/shadow", true],
    ["Read(//etc/shadow)", "/etc/passwd", false],
    ["Read(~/notes/**)", join(home, "notes/a.md"), true],
    ["Read(~/notes/**)", join(cwd, "notes/a.md"), false],
    ["Read(/docs/**)", join(cwd, "docs/a.md"), true],
    ["Read(/docs/**)", join(cwd, "sub/docs/a.md"), false],
    ["Read(./src/**)", join(cwd, "src/a/b.ts"), true],
    ["Read(lib/x/**)", join(cwd, "lib/x/y.ts"), true],
    ["Read(lib/x/**)", join(cwd, "pkg/lib/x/y.ts"), false],
    ["Read(secret.txt)", join(cwd, "sub/deeper/secret.txt"), true],
    ["Read(*.pem)", join(cwd, "certs/a.pem"), true],
    ["Read(src/*.ts)", join(cwd, "src/a.ts"), true],
    ["Read(src/*.ts)", join(cwd, "src/a/b.ts"), false],
    ["Read(src/**/*.ts)", join(cwd, "src/a/b.ts"), true],
    ["Read(src/**/*.ts)", join(cwd, "src/b.ts"), true],
  ];
  for (const [rule, path, denied] of cases) {
    test(`deny ${rule} ${denied ? "covers" : "does not cover"} ${path.replace(box.root, "$ROOT")}`, () => {
      const decision = decideIn(box, withCli("deny", rule), { tool: "Read", input: { file_path: path } });
      expect(decision.decision === "deny", decision.reason).toBe(denied);
    });
  }

  test("a single-segment dir pattern is anchored for allow, any depth for deny", () => {
    const nested = join(box.cwd, "pkg/notes/a.txt");
    const top = join(box.cwd, "notes/a.txt");
    const allow = withCli("allow", "Edit(notes/**)");
    expect(decideIn(box, allow, { tool: "Edit", input: { file_path: top } }).decision).toBe("allow");
    expect(decideIn(box, allow, { tool: "Edit", input: { file_path: nested } }).decision).toBe("ask");
    const deny = withCli("deny", "Edit(notes/**)");
    expect(decideIn(box, deny, { tool: "Edit", input: { file_path: nested } }).decision).toBe("deny");
  });

  test("/path is anchored at the source: project root, user config dir, the --policy file's dir", () => {
    const local = sandbox();
    local.write("work/.toolrt/policy.json", rules({ id: "p", effect: "deny", match: "Read(/p/**)" }));
    local.write("home/.config/toolrt/policy.json", rules({ id: "u", effect: "deny", match: "Read(/u/**)" }));
    const flag = local.write("elsewhere/flag.json", rules({ id: "f", effect: "deny", match: "Read(/f/**)" }));
    const loaded = local.load({ flagFiles: [flag] });
    const read = (path: string) => decideIn(local, loaded, { tool: "Read", input: { file_path: path } });
    expect(read(join(local.cwd, "p/x")).matched.map((m) => m.id)).toEqual(["p"]);
    expect(read(join(local.home, ".config/toolrt/u/x")).matched.map((m) => m.id)).toEqual(["u"]);
    expect(read(join(local.root, "elsewhere/f/x")).matched.map((m) => m.id)).toEqual(["f"]);
    expect(read(join(local.cwd, "u/x")).decision).toBe("allow");
  });

  test("Claude settings anchor /path at ~/.claude for user settings", () => {
    const local = sandbox();
    local.write("home/.claude/settings.json", { permissions: { deny: ["Read(/agents/**)"] } });
    const loaded = local.load({ claudeSettings: true });
    const decision = decideIn(local, loaded, {
      tool: "Read",
      input: { file_path: join(local.home, ".claude/agents/a.md") },
    });
    expect(decision.decision).toBe("deny");
    expect(decision.matched[0]).toMatchObject({ source: "claude", id: "permissions.deny[0]" });
  });

  test("symlinks: deny if link or target matches; allow needs both", () => {
    const loaded = box.load({ cliRules: { deny: ["Read(//secret/**)"], allow: ["Edit(./out/**)"] } });
    const link = join(box.cwd, "link.txt");
    const request = { tool: "Read", input: { file_path: link }, cwd: box.cwd };
    expect(decide(buildRequest(request), loaded.policy).decision).toBe("allow");
    const realpath = (p: string) => (p === link ? "/secret/key" : p);
    expect(decide(buildRequest(request, {}, { realpath }), loaded.policy).decision).toBe("deny");
    const out = join(box.cwd, "out/a.txt");
    const escape = (p: string) => (p === out ? "/tmp/elsewhere/a.txt" : p);
    const edit = decide(
      buildRequest({ tool: "Edit", input: { file_path: out }, cwd: box.cwd }, {}, { realpath: escape }),
      loaded.policy,
    );
    expect(edit.decision).toBe("ask");
  });
});

describe("Read and Edit families", () => {
  test("Read(...) covers Read, Grep and Glob; a Read deny also blocks edits there", () => {
    const loaded = withCli("deny", "Read(./private/**)");
    const path = join(box.cwd, "private/x.txt");
    for (const tool of ["Read", "Edit", "Write"]) {
      expect(decideIn(box, loaded, { tool, input: { file_path: path } }).decision).toBe("deny");
    }
    expect(
      decideIn(box, loaded, { tool: "Grep", input: { pattern: "x", path: join(box.cwd, "private") } })
        .decision,
    )
      .toBe("deny");
    expect(
      decideIn(box, loaded, { tool: "Glob", input: { pattern: "*", path: join(box.cwd, "private") } })
        .decision,
    )
      .toBe("deny");
  });

  test("Edit(...) covers Edit, Write and NotebookEdit, and its allow grants reading", () => {
    const loaded = withCli("allow", "Edit(//srv/data/**)");
    for (const tool of ["Edit", "Write"]) {
      expect(decideIn(box, loaded, { tool, input: { file_path: "/srv/data/a" } }).decision).toBe("allow");
    }
    expect(
      decideIn(box, loaded, { tool: "NotebookEdit", input: { notebook_path: "/srv/data/a.ipynb" } }).decision,
    )
      .toBe("allow");
    expect(decideIn(box, loaded, { tool: "Read", input: { file_path: "/srv/data/a" } }).decision).toBe(
      "allow",
    );
  });

  test("Write(...), NotebookEdit(...) and Glob(...) rules are skipped with a warning", () => {
    const loaded = box.load({ cliRules: { deny: ["Write(./x)", "NotebookEdit(./y)", "Glob(./z)"] } });
    expect(loaded.warnings).toHaveLength(3);
    expect(loaded.warnings[0]).toContain("never consulted; write Edit(...) instead");
    expect(loaded.warnings[2]).toContain("write Read(...) instead");
  });
});

describe("other tools", () => {
  const fetch = (url: string) => ({ tool: "WebFetch", input: { url, prompt: "p" } });
  const domains: [string, string, boolean][] = [
    ["WebFetch(domain:example.com)", "https://EXAMPLE.com./a", true],
    ["WebFetch(domain:example.com)", "https://api.example.com/a", false],
    ["WebFetch(domain:*.example.com)", "https://a.b.example.com/", true],
    ["WebFetch(domain:*.example.com)", "https://example.com/", false],
    ["WebFetch(domain:*)", "https://anything.org/", true],
    ["WebFetch(domain:api*.example.com)", "https://api2.example.com/", true],
    ["WebFetch(domain:api*.example.com)", "https://api.x.example.com/", false],
  ];
  for (const [rule, url, allowed] of domains) {
    test(`${rule} ${allowed ? "covers" : "does not cover"} ${url}`, () => {
      expect(decideIn(box, withCli("allow", rule), fetch(url)).decision).toBe(allowed ? "allow" : "ask");
    });
  }

  test("mcp__server covers every tool of the server; mcp__server__tool one tool", () => {
    const server = withCli("deny", "mcp__github");
    expect(decideIn(box, server, { tool: "mcp__github__create_issue", input: {} }).decision).toBe("deny");
    expect(decideIn(box, server, { tool: "mcp__githubx__a", input: {} }).decision).toBe("ask");
    const one = withCli("allow", "mcp__github__get_issue");
    expect(decideIn(box, one, { tool: "mcp__github__get_issue", input: {} }).decision).toBe("allow");
    expect(decideIn(box, one, { tool: "mcp__github__get_issues", input: {} }).decision).toBe("ask");
  });

  test("tool-name globs: deny may glob anything, allow only after mcp__<server>__", () => {
    expect(decideIn(box, withCli("deny", "mcp__*"), { tool: "mcp__a__b", input: {} }).decision).toBe("deny");
    expect(decideIn(box, withCli("allow", "mcp__gh__get_*"), { tool: "mcp__gh__get_x", input: {} }).decision)
      .toBe("allow");
    const skipped = box.load({ cliRules: { allow: ["*", "B*", "mcp__*"] } });
    expect(skipped.warnings).toHaveLength(3);
    expect(skipped.warnings[0]).toContain("only after a literal mcp__<server>__");
    expect(decideIn(box, skipped, { tool: "mcp__a__b", input: {} }).decision).toBe("ask");
  });

  test("Agent(type) matches the subagent type; Task is the old name", () => {
    const loaded = withCli("deny", "Agent(Explore)");
    expect(decideIn(box, loaded, { tool: "Agent", input: { subagent_type: "Explore" } }).decision).toBe(
      "deny",
    );
    expect(decideIn(box, loaded, { tool: "Task", input: { subagent_type: "Explore" } }).decision).toBe(
      "deny",
    );
    expect(decideIn(box, loaded, { tool: "Agent", input: { subagent_type: "Plan" } }).decision).toBe("ask");
  });

  test("parameter rules: deny and ask only, exact or * wildcard, a missing field never matches", () => {
    const loaded = withCli("deny", "Bash(run_in_background:true)", "mcp__db__query(sql: DROP *)");
    const bg = decideIn(box, loaded, { tool: "Bash", input: { command: "ls", run_in_background: true } });
    expect(bg.decision).toBe("deny");
    expect(decideIn(box, loaded, { tool: "mcp__db__query", input: { sql: "DROP TABLE x" } }).decision).toBe(
      "deny",
    );
    expect(decideIn(box, loaded, { tool: "mcp__db__query", input: { sql: "SELECT 1" } }).decision).toBe(
      "ask",
    );
    expect(decideIn(box, loaded, { tool: "mcp__db__query", input: {} }).decision).toBe("ask");
    const allow = box.load({ cliRules: { allow: ["Bash(timeout:5)"] } });
    expect(allow.warnings[0]).toContain("parameter rules (field:value) only deny or ask");
  });

  test("Skill(name *) matches the skill and its arguments", () => {
    const loaded = withCli("allow", "Skill(deploy *)");
    expect(decideIn(box, loaded, { tool: "Skill", input: { skill: "deploy", args: "staging" } }).decision)
      .toBe("allow");
    expect(decideIn(box, loaded, { tool: "Skill", input: { skill: "deployx" } }).decision).toBe("ask");
  });

  test("tools without a specifier grammar take the bare name", () => {
    expect(
      decideIn(box, withCli("allow", "WebSearch"), { tool: "WebSearch", input: { query: "q" } }).decision,
    )
      .toBe("allow");
    const loaded = box.load({ cliRules: { deny: ["WebSearch(foo)"] } });
    expect(loaded.warnings[0]).toContain("WebSearch takes no specifier except parameter rules");
  });
});
