import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { runCli } from "../helpers/cli.ts";
import { FIXTURE_PLUGINS, workspace } from "./helpers.ts";

function cli(ws: ReturnType<typeof workspace>, ...args: string[]) {
  return runCli(["--cwd", ws.cwd, "--state-dir", ws.stateDir, "plugin", ...args], {
    env: { XDG_CONFIG_HOME: ws.env.XDG_CONFIG_HOME! },
  });
}

describe("toolrt plugin", () => {
  test("install enables here; disable and enable switch it; list shows state and components", () => {
    const ws = workspace();
    const installed = cli(ws, "install", join(FIXTURE_PLUGINS, "typescript-lsp"));
    expect(installed.code, installed.stderr).toBe(0);
    expect(installed.stdout).toContain(
      `installed typescript-lsp 1.0.0 in ${ws.env.XDG_CONFIG_HOME}/toolrt/plugins`,
    );
    expect(installed.stdout).toContain("state in");

    const listed = JSON.parse(cli(ws, "list", "--json").stdout);
    expect(listed).toEqual([expect.objectContaining({
      name: "typescript-lsp",
      scope: "user",
      state: "enabled",
      lspServers: ["typescript"],
    })]);
    const tools = runCli(["--cwd", ws.cwd, "--state-dir", ws.stateDir, "tools", "--json"], {
      env: { XDG_CONFIG_HOME: ws.env.XDG_CONFIG_HOME! },
    });
    expect(JSON.parse(tools.stdout).find((t: any) => t.name === "LSP")).toMatchObject({
      origin: "plugin",
      server: "typescript-lsp",
      deferred: false,
      alwaysLoad: true,
    });

    expect(cli(ws, "disable", "typescript-lsp").stdout).toContain("typescript-lsp (user): disabled");
    expect(cli(ws, "enable", "typescript-lsp").stdout).toBe("typescript-lsp (user): enabled\n");
  });

  test("install --project puts it in the workspace; a second install needs --force", () => {
    const ws = workspace();
    expect(cli(ws, "install", "--project", join(FIXTURE_PLUGINS, "review-kit")).code).toBe(0);
    const again = cli(ws, "install", "--project", join(FIXTURE_PLUGINS, "review-kit"));
    expect(again.code).toBe(2);
    expect(again.stderr).toContain("already installed here; pass --force to replace it");
    expect(cli(ws, "install", "--project", "--force", join(FIXTURE_PLUGINS, "review-kit")).stdout)
      .toStartWith(
        "replaced review-kit 0.3.0",
      );
    expect(cli(ws, "list").stdout).toContain(
      "review-kit 0.3.0 (project) enabled\n  mcp: tracker; hooks: PostToolUse",
    );
  });

  test("a broken plugin is refused at install and reported by validate, with file and field; exit 2", () => {
    const ws = workspace();
    const refused = cli(ws, "install", join(FIXTURE_PLUGINS, "broken-manifest"));
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain("broken-manifest/plugin.json: lspServers.python.extensionToLanguage:");
    const validated = cli(ws, "validate", join(FIXTURE_PLUGINS, "broken-manifest"));
    expect(validated.code).toBe(2);
    expect(validated.stdout).toContain("plugin.json: version: Invalid input");
    expect(cli(ws, "validate", join(FIXTURE_PLUGINS, "review-kit")).code).toBe(0);
  });

  test("enabling an unknown plugin is a usage error", () => {
    const run = cli(workspace(), "enable", "nope");
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("no plugin named nope is installed");
  });
});
