import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { McpApprovals } from "../../src/mcp/approvals.ts";
import { expandServerConfig, McpConfigError, parseServerConfig } from "../../src/mcp/config.ts";
import { loadMcpConfig, type McpConfigFiles } from "../../src/mcp/config-sources.ts";

describe("server config shape", () => {
  test("type is inferred: command → stdio, url → http", () => {
    expect(parseServerConfig({ command: "node", args: ["s.js"] }, "f").type).toBe("stdio");
    expect(parseServerConfig({ url: "https://example.com/mcp" }, "f").type).toBe("http");
    expect(parseServerConfig({ type: "sse", url: "https://example.com/sse" }, "f").type).toBe("sse");
  });

  test("errors name the file, the server and the field", () => {
    expect(() => parseServerConfig({ url: "ftp://x" }, "a.json: mcpServers.s")).toThrow(
      "a.json: mcpServers.s.url: url must be an http(s) URL",
    );
    expect(() => parseServerConfig({ args: [] }, "a.json: mcpServers.s")).toThrow(
      /expected `command` \(stdio\)/,
    );
    expect(() => parseServerConfig({ command: "x", bogus: 1 }, "f")).toThrow(McpConfigError);
  });

  test("${VAR} and ${VAR:-default} expand; unset variables are reported", () => {
    const config = parseServerConfig({
      url: "https://${HOST}/mcp",
      headers: { Authorization: "Bearer ${TOKEN}", X: "${MODE:-fast}" },
    }, "f");
    const { value, missing } = expandServerConfig(config, { HOST: "example.com" });
    expect(value.type === "http" && value.url).toBe("https://example.com/mcp");
    expect(value.type === "http" && value.headers.X).toBe("fast");
    expect(missing).toEqual(["TOKEN"]);
  });
});

describe("scopes, managed policy and approval", () => {
  let dir: string;
  let files: McpConfigFiles;
  const write = (file: string, value: unknown) => writeFileSync(file, JSON.stringify(value));
  const load = () => loadMcpConfig(files, { workspace: join(dir, "ws"), stateDir: join(dir, "state") });
  const reasonOf = (name: string) => load().servers.find((s) => s.name === name)?.disabledReason;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), "toolrt-mcp-config-"));
    mkdirSync(join(dir, "ws"));
    files = {
      managed: join(dir, "managed.json"),
      user: join(dir, "user.json"),
      project: join(dir, "ws", ".mcp.json"),
      flag: [],
    };
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  test("an empty or blank .mcp.json is no servers, with a note saying so", () => {
    for (const text of ["", "  \n\t\n"]) {
      writeFileSync(files.project, text);
      const { servers, notes } = load();
      expect(servers).toEqual([]);
      expect(notes).toEqual([
        `${files.project} is empty: no MCP servers from it (write {"mcpServers": {}} to say so)`,
      ]);
    }
  });

  test("a broken .mcp.json is an error at its line and column", () => {
    const cases: [string, string][] = [
      ['{\n  "mcpServers": {\n    "gh": { "command": "x", }\n  }\n}\n', ":3:29: not valid JSON"],
      ['{\n  "mcpServers": {\n    "gh": { "command": 5 }\n  }\n}\n', ":3:24: mcpServers.gh.command:"],
      ['{\n  "mcpServers": {\n    "gh": { "args": [] }\n  }\n}\n', ":3:11: mcpServers.gh"],
      ['{ "mcpServers": [] }', ":1:17: mcpServers must be an object"],
      ["[]", ":1:1: expected an object"],
    ];
    for (const [text, where] of cases) {
      writeFileSync(files.project, text);
      expect(load).toThrow(McpConfigError);
      expect(load).toThrow(`${files.project}${where}`);
    }
  });

  test("a name defined twice: the higher scope wins and the other is noted", () => {
    write(files.user, { mcpServers: { gh: { command: "user-gh" } } });
    write(files.managed, { mcpServers: { gh: { command: "managed-gh" } } });
    const { servers, notes } = load();
    expect(servers.map((s) => [s.name, s.scope])).toEqual([["gh", "managed"]]);
    expect(notes[0]).toContain("gh from user");
  });

  test("a project server needs approval, and a changed one needs it again", () => {
    write(files.project, { mcpServers: { local: { command: "run-me" } } });
    expect(reasonOf("local")).toContain("awaiting approval: run `toolrt mcp approve local`");
    const approvals = new McpApprovals(join(dir, "state"));
    approvals.approve(join(dir, "ws"), "local", load().servers[0]!.config);
    expect(reasonOf("local")).toBeUndefined();
    write(files.project, { mcpServers: { local: { command: "run-something-else" } } });
    expect(reasonOf("local")).toContain("changed since it was approved");
  });

  test("managed policy can pre-approve project servers", () => {
    write(files.project, { mcpServers: { local: { command: "run-me" }, other: { command: "x" } } });
    write(files.managed, { enabledMcpjsonServers: ["local"] });
    expect(reasonOf("local")).toBeUndefined();
    expect(reasonOf("other")).toContain("awaiting approval");
  });

  test("managed deny beats everything; an allow list keeps out the rest but not managed servers", () => {
    write(files.user, {
      mcpServers: {
        ok: { url: "https://mcp.corp.com/x" },
        evil: { url: "https://evil.com/x" },
        bad: { command: "b" },
      },
    });
    write(files.managed, {
      mcpServers: { corp: { command: "corp" } },
      allowedMcpServers: [{ serverUrl: "https://*.corp.com/*" }, "bad"],
      deniedMcpServers: [{ serverCommand: ["b"] }],
    });
    expect(reasonOf("ok")).toBeUndefined();
    expect(reasonOf("corp")).toBeUndefined();
    expect(reasonOf("evil")).toBe("not in the managed policy's allowedMcpServers");
    expect(reasonOf("bad")).toContain("denied by managed policy");
  });

  test("two server names that normalise alike: the second is disabled, saying why", () => {
    write(files.user, { mcpServers: { "my.server": { command: "a" }, "my_server": { command: "b" } } });
    expect(reasonOf("my_server")).toContain("collides with server my.server");
  });

  test("`disabled: true` keeps a server configured but stopped", () => {
    write(files.user, { mcpServers: { off: { command: "a", disabled: true } } });
    expect(reasonOf("off")).toContain("disabled in");
  });

  test("a broken file is an error naming the file; a missing --mcp-config file too", () => {
    writeFileSync(files.project, "{ nope");
    expect(load).toThrow(files.project);
    rmSync(files.project);
    files.flag = [join(dir, "missing.json")];
    expect(load).toThrow(`${join(dir, "missing.json")}: no such file`);
  });
});
