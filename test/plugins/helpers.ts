/** A workspace with its own user plugin dir and state dir, and a pool with a plugin host on it. */
import { afterAll } from "bun:test";
import { cpSync, mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, dirname, join } from "node:path";
import { createSession, type RuntimeSession } from "../../src/exec/session.ts";
import { setEnabled } from "../../src/plugins/enablement.ts";
import { PluginHost, type PluginHostOptions } from "../../src/plugins/host.ts";
import { projectPluginDir, userPluginDir } from "../../src/plugins/locations.ts";
import { getAllBaseTools } from "../../src/pool/base-tools.ts";
import { ToolPool } from "../../src/pool/tool-pool.ts";
import type { AnyTool } from "../../src/tool/types.ts";
import { createSkillTool, SkillCatalog } from "../../src/tools/skill/tool.ts";
import { toolOnlyPolicy } from "../helpers/tool-only-policy.ts";

export const FIXTURE_PLUGINS = join(import.meta.dir, "../../fixtures/plugins");
export const FIXTURE_PROJECT = join(import.meta.dir, "../../fixtures/lsp-project");
const NODE_BIN = join(import.meta.dir, "../../node_modules/.bin");

export interface Workspace {
  cwd: string;
  stateDir: string;
  /** XDG_CONFIG_HOME pointing at a private user plugin dir; PATH finds tsc and bun. */
  env: NodeJS.ProcessEnv;
}

const made: string[] = [];
// Removed after the file, not after each test: one workspace may serve a whole describe block.
afterAll(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

export function workspace(options: { project?: string } = {}): Workspace {
  const root = realpathSync(mkdtempSync(join(tmpdir(), "toolrt-plugins-")));
  made.push(root);
  const cwd = join(root, "ws");
  if (options.project) cpSync(options.project, cwd, { recursive: true });
  else mkdirSync(cwd);
  const path = [NODE_BIN, dirname(process.execPath), process.env.PATH ?? ""].join(delimiter);
  return {
    cwd,
    stateDir: join(root, "state"),
    env: { ...process.env, XDG_CONFIG_HOME: join(root, "config"), PATH: path },
  };
}

/**
 * Puts a fixture plugin into the user or project plugin dir, enabled in the workspace unless told
 * not to. A symlink, not a copy, so the fixture servers' relative imports of src/ keep working.
 */
export function install(
  ws: Workspace,
  fixture: string,
  options: { scope?: "user" | "project"; enable?: boolean } = {},
): string {
  const parent = options.scope === "project" ? projectPluginDir(ws.cwd) : userPluginDir(ws.env);
  const target = join(parent, fixture);
  mkdirSync(parent, { recursive: true });
  symlinkSync(join(FIXTURE_PLUGINS, fixture), target);
  if (options.enable !== false) setEnabled(ws.stateDir, ws.cwd, fixture, true);
  return target;
}

export interface Harness {
  pool: ToolPool;
  host: PluginHost;
  skills: SkillCatalog;
  /** How many times the pool was rebuilt. */
  refreshes: () => number;
}

export function harness(
  ws: Workspace,
  options: Partial<PluginHostOptions> & { builtins?: AnyTool[] } = {},
): Harness {
  const skills = new SkillCatalog();
  const pool = new ToolPool([...(options.builtins ?? getAllBaseTools()), createSkillTool(skills)], {
    mode: "default",
    denyRules: [],
  });
  let refreshes = 0;
  pool.onChange(() => refreshes++);
  const host = new PluginHost({ pool, skills, cwd: ws.cwd, stateDir: ws.stateDir, env: ws.env, ...options });
  return { pool, host, skills, refreshes: () => refreshes };
}

export const visibleNames = (pool: ToolPool) => pool.current.tools.map((tool) => tool.name);

export interface PluginSession extends Harness {
  session: RuntimeSession;
  /** One call through the pipeline, "ask" answered with allow-once; the text the model would read. */
  call(name: string, input: object): Promise<{ isError: boolean; text: string }>;
}

/** A session over the harness's pool with the diagnostics enricher, the way the CLI runtime wires it. */
export function pluginSession(ws: Workspace, options: Parameters<typeof harness>[1] = {}): PluginSession {
  const h = harness(ws, options);
  h.host.reload();
  const session = createSession({
    pool: h.pool,
    policy: toolOnlyPolicy,
    cwd: ws.cwd,
    stateDir: ws.stateDir,
    mode: "default",
    invokedBy: "cli",
    audit: false,
    enrichers: [h.host.diagnosticsEnricher],
    onClose: () => h.host.close(),
  });
  let id = 0;
  const call = async (name: string, input: object) => {
    const outcome = await session.execute(
      { id: `call-${id++}`, name, input },
      { ask: async () => ({ behavior: "allow-once" }) },
    );
    return { isError: outcome.isError, text: outcome.content.map((b: any) => b.text ?? "").join("\n") };
  };
  return { ...h, session, call };
}
