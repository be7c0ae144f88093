import { describe, expect, test } from "bun:test";
import { decideDeferral } from "../../src/pool/deferral.ts";
import { fakeTool, mcpTool } from "../helpers/fake-tools.ts";

const plainMcp = fakeTool("mcp__github__create_issue", {
  origin: { kind: "mcp", server: "github", originalName: "create_issue" },
});

describe("decideDeferral", () => {
  const cases: [
    string,
    ReturnType<typeof fakeTool>,
    Parameters<typeof decideDeferral>[1],
    boolean,
    string,
  ][] = [
    ["a built-in loads on turn one", fakeTool("Read"), {}, false, "builtin tools load on turn one"],
    ["MCP tools defer by default", plainMcp, {}, true, "MCP tools are deferred by default (server github)"],
    [
      "shouldDefer defers a built-in",
      fakeTool("WebFetch", { shouldDefer: true }),
      {},
      true,
      "marked shouldDefer",
    ],
    [
      "alwaysLoad beats shouldDefer",
      fakeTool("Bash", { shouldDefer: true, alwaysLoad: true }),
      {},
      false,
      "marked alwaysLoad",
    ],
    [
      "ToolSearch never defers",
      fakeTool("ToolSearch", { shouldDefer: true }),
      { defer: ["*"] },
      false,
      "never",
    ],
    [
      "settings alwaysLoad by name",
      plainMcp,
      { alwaysLoad: ["mcp__github__create_issue"] },
      false,
      "alwaysLoad",
    ],
    ["settings alwaysLoad by server", plainMcp, { alwaysLoad: ["mcp__github"] }, false, "mcp__github"],
    [
      "settings alwaysLoad by glob",
      plainMcp,
      { alwaysLoad: ["mcp__*__create_*"] },
      false,
      "mcp__*__create_*",
    ],
    [
      "settings alwaysLoad beats settings defer",
      plainMcp,
      { alwaysLoad: ["mcp__github"], defer: ["*"] },
      false,
      "alwaysLoad",
    ],
    [
      "settings defer a built-in",
      fakeTool("NotebookEdit"),
      { defer: ["Notebook*"] },
      true,
      "settings defer: Notebook*",
    ],
    [
      "the tool's alwaysLoad beats settings defer",
      fakeTool("Read", { alwaysLoad: true }),
      { defer: ["Read"] },
      false,
      "alwaysLoad",
    ],
    [
      "a non-matching override changes nothing",
      mcpTool("slack", "post"),
      { alwaysLoad: ["mcp__github"] },
      true,
      "shouldDefer",
    ],
  ];
  for (const [label, tool, overrides, deferred, reason] of cases) {
    test(label, () => {
      const decision = decideDeferral(tool, overrides);
      expect(decision.deferred, label).toBe(deferred);
      expect(decision.reason, label).toContain(reason);
    });
  }
});
