import { describe, expect, test } from "bun:test";
import { z } from "zod";
import { decidePermission } from "../../src/exec/permission.ts";
import { rulesPolicy } from "../../src/exec/rules-policy.ts";
import { NO_HOOKS } from "../../src/exec/hooks/runner.ts";
import { setTrust } from "../../src/policy/trust.ts";
import { buildTool } from "../../src/tool/build-tool.ts";
import { testContext } from "../helpers/session-context.ts";
import { rules, sandbox } from "../policy/helpers.ts";

const writeTool = buildTool({
  name: "Write",
  description: "",
  prompt: () => "",
  inputSchema: z.object({ file_path: z.string(), content: z.string() }),
  call: async () => ({ data: "" }),
  getPath: (input) => input.file_path,
});

function requestIn(box: ReturnType<typeof sandbox>, filePath: string) {
  const ctx = testContext({ cwd: box.cwd, stateDir: box.stateDir });
  return {
    tool: writeTool,
    input: { file_path: filePath, content: "" },
    ctx,
    toolPermission: { behavior: "passthrough" as const },
  };
}

describe("rulesPolicy", () => {
  test("cites the deciding rule with its id and file", () => {
    const box = sandbox();
    box.write("managed/managed-policy.json", rules({ id: "no-env", effect: "deny", match: "Edit(.env)" }));
    const verdict = rulesPolicy(box.load().policy)(requestIn(box, ".env"));
    expect(verdict.decision).toBe("deny");
    expect(verdict.rule).toBe("Edit(.env) (no-env)");
    expect(verdict.source).toContain("managed: ");
  });
  test("an explicit ask rule is hard: a hook's allow cannot skip it", async () => {
    const box = sandbox();
    box.write(
      "managed/managed-policy.json",
      rules({ id: "ask-docs", effect: "ask", match: "Edit(docs/**)" }),
    );
    const policy = rulesPolicy(box.load().policy);
    const request = requestIn(box, "docs/a.md");
    expect(policy(request).hookMayAllow).toBe(false);
    const outcome = await decidePermission(request, policy, { ...NO_HOOKS, decision: "allow" }, undefined);
    expect(outcome.decision).toBe("deny");
  });
  test("a protected path is hard too", () => {
    const box = sandbox();
    expect(rulesPolicy(box.load().policy)(requestIn(box, ".git/config")).hookMayAllow).toBe(false);
  });
  test("an ordinary ask (no rule) may be allowed by a hook", async () => {
    const box = sandbox();
    const policy = rulesPolicy(box.load().policy);
    const request = requestIn(box, "src/a.ts");
    expect(policy(request)).toMatchObject({ decision: "ask", hookMayAllow: true });
    const outcome = await decidePermission(request, policy, { ...NO_HOOKS, decision: "allow" }, undefined);
    expect(outcome.decision).toBe("allow");
  });
  test("the second denial of the same rule carries guidance", () => {
    const box = sandbox();
    box.write("managed/managed-policy.json", rules({ id: "no-env", effect: "deny", match: "Edit(.env)" }));
    const policy = rulesPolicy(box.load().policy);
    expect(policy(requestIn(box, ".env")).guidance).toBeUndefined();
    expect(policy(requestIn(box, ".env")).guidance).toContain("denied 2 times");
  });
});

describe("hooks from policy files", () => {
  const hookFile = (command: string) => ({
    hooks: { PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command }] }] },
  });
  test("managed and user hooks all run, managed first", () => {
    const box = sandbox();
    box.write("managed/managed-policy.json", hookFile("managed.sh"));
    box.write("home/.config/toolrt/policy.json", hookFile("user.sh"));
    const hooks = box.load().policy.hooks();
    expect(hooks.PreToolUse?.map((g) => g.hooks[0]!.command)).toEqual(["managed.sh", "user.sh"]);
  });
  test("a cloned repository's hooks do not run until the workspace is trusted", () => {
    const box = sandbox();
    box.write("work/.toolrt/policy.json", hookFile("./evil.sh"));
    const untrusted = box.load();
    expect(untrusted.policy.hooks()).toEqual({});
    expect(untrusted.warnings.join("\n")).toContain("hooks of an untrusted workspace do not run");
    setTrust(box.stateDir, box.cwd);
    expect(box.load().policy.hooks().PreToolUse?.[0]?.hooks[0]?.command).toBe("./evil.sh");
  });
  test("a malformed hook entry is a positioned error", () => {
    const box = sandbox();
    box.write("work/.toolrt/policy.json", { hooks: { PreToolUse: [{ hooks: [{ type: "command" }] }] } });
    const loaded = box.load();
    expect(loaded.errors[0]?.message).toMatch(/policy\.json:\d+:\d+: .*hooks/);
  });
});
