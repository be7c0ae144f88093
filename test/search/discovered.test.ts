import { describe, expect, test } from "bun:test";
import { decideDeferral } from "../../src/pool/deferral.ts";
import { ToolPool } from "../../src/pool/tool-pool.ts";
import { DiscoveredTools } from "../../src/search/discovered.ts";
import type { AnyTool } from "../../src/tool/types.ts";
import { fakeTool, mcpTool } from "../helpers/fake-tools.ts";

const isDeferred = (tool: AnyTool) => decideDeferral(tool).deferred;

describe("DiscoveredTools.resolve", () => {
  const pool = new ToolPool([fakeTool("Read")], { mode: "default", denyRules: [] });
  pool.setSource("mcp:github", [mcpTool("github", "create_issue"), mcpTool("github", "get_me")]);
  const lookup = (name: string) => pool.find(name);

  test("a loaded tool is callable without discovery", () => {
    const found = new DiscoveredTools();
    expect(found.resolve("Read", lookup, isDeferred)).toMatchObject({ ok: true });
  });

  test("a deferred tool needs discovery first, with Claude Code's error", () => {
    const found = new DiscoveredTools();
    expect(found.resolve("mcp__github__create_issue", lookup, isDeferred)).toEqual({
      ok: false,
      message: "No such tool available: mcp__github__create_issue",
    });
    found.add([pool.find("mcp__github__create_issue")!]);
    expect(found.resolve("mcp__github__create_issue", lookup, isDeferred)).toMatchObject({ ok: true });
  });

  test("discovery survives a pool refresh that brings the server back", () => {
    const found = new DiscoveredTools();
    found.add([pool.find("mcp__github__get_me")!]);
    pool.setSource("mcp:github", [mcpTool("github", "get_me")]);
    const resolved = found.resolve("mcp__github__get_me", lookup, isDeferred);
    expect(resolved).toMatchObject({ ok: true });
    // The tool object is the refreshed one, not the one found earlier.
    expect(resolved.ok && resolved.tool).toBe(pool.find("mcp__github__get_me")!);
  });

  test("a discovered tool that vanished fails with an error naming its server", () => {
    const found = new DiscoveredTools();
    found.add([pool.find("mcp__github__get_me")!]);
    pool.removeSource("mcp:github");
    const resolved = found.resolve("mcp__github__get_me", lookup, isDeferred);
    expect(resolved.ok).toBe(false);
    expect(!resolved.ok && resolved.message).toContain('MCP server "github" no longer provides it');
    expect(found.names).toEqual(["mcp__github__get_me"]);
  });

  test("an unknown name is no such tool", () => {
    expect(new DiscoveredTools().resolve("Nope", lookup, isDeferred)).toEqual({
      ok: false,
      message: "No such tool available: Nope",
    });
  });
});
