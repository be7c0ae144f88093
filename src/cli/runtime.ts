/**
 * The composition root: loads the policy, connects the MCP servers, and builds pools and sessions
 * from the global options — the same way for `tools`, `run`, `serve`, `hook` and `agent` (and each
 * subagent of an agent).
 */
import { policyDigestsOf } from "../audit/decision.ts";
import { auditableInput, type AuditEvent, AuditLog } from "../audit/log.ts";
import { analyzeBash } from "../bash/analyze.ts";
import type { BashAnalysis } from "../bash/types.ts";
import type { SandboxAsker } from "../exec/processes/sandbox-exceptions.ts";
import { sandboxedLaunch } from "../exec/processes/sandboxed-launch.ts";
import { loadPolicy, type LoadResult } from "../policy/load.ts";
import { DEFAULT_SANDBOX_POLICY } from "../policy/sandbox-policy.ts";
import { DenialTracker } from "../policy/denials.ts";
import { masksForLine, namedPrograms, programMasks } from "../policy/program-rules.ts";
import { grantForSession } from "../policy/session-grants.ts";
import { getAllBaseTools } from "../pool/base-tools.ts";
import { isDeferredIn } from "../pool/assemble.ts";
import { ToolPool } from "../pool/tool-pool.ts";
import { rulesPolicy } from "../exec/rules-policy.ts";
import { readRuleFor } from "../policy/read-guard.ts";
import { createSession, type RuntimeSession } from "../exec/session.ts";
import type { McpManager } from "../mcp/manager.ts";
import { pluginMcpServers } from "../plugins/contributions.ts";
import { PluginHost } from "../plugins/host.ts";
import { PoolFanOut } from "../pool/fan-out.ts";
import { DiscoveredTools } from "../search/discovered.ts";
import { shellCommandOf } from "../tool/shell.ts";
import type { AnyTool, InvokedBy, ToolContext } from "../tool/types.ts";
import { mcpResourceTools } from "../tools/mcp-resources/index.ts";
import type { Telemetry } from "../telemetry/api.ts";
import { createSkillTool, SkillCatalog } from "../tools/skill/tool.ts";
import { createToolSearchTool } from "../tools/tool-search/tool.ts";
import { ConfigError } from "./errors.ts";
import { type GlobalOptions, loadOptionsOf, permissionModeOf, poolModeOf } from "./options.ts";
import { openMcp } from "./mcp.ts";
import { openCliTelemetry } from "./telemetry.ts";

/**
 * Loads the policy of the global options. A broken user, project, flag or CLI rule is a
 * configuration error (exit 2); a broken managed file is not: the policy then denies every call.
 */
export function loadForCli(globals: GlobalOptions): LoadResult {
  const loaded = loadPolicy(loadOptionsOf(globals));
  if (loaded.errors.length > 0) {
    const problems = loaded.errors.map((e) => e.message).join("\n");
    throw new ConfigError(`${problems}\n(toolrt policy validate lists every problem of the policy files)`);
  }
  return loaded;
}

export interface PoolOptions {
  /** `tool_reference` blocks for the Anthropic API; JSON schemas in text for every other client. */
  searchResultStyle?: "tool_reference" | "schemas";
}

export interface RuntimeOptions {
  /**
   * The person to ask when the sandbox blocks a host or a path (interactive `run` and `agent`);
   * without one, the host is refused and the result names the exception.
   */
  sandboxAsker?: SandboxAsker;
  /**
   * "wait" (default): MCP servers connect before the runtime is returned, each bounded by its own
   * timeout, so a one-shot command sees their tools. "background": they connect while the runtime
   * is already in use, each one's tools joining the pools as it connects (`toolrt serve`, which
   * must answer its client at once).
   */
  mcpStartup?: "wait" | "background";
}

export interface RuntimePool {
  pool: ToolPool;
  /** The deferred tools the model has found through this pool's ToolSearch. */
  discovered: DiscoveredTools;
}

export interface Runtime {
  readonly policy: LoadResult;
  readonly mcp: McpManager;
  /** Enabled plugins: their skills, language servers (the LSP tool), MCP servers and hooks. */
  readonly plugins: PluginHost;
  /** The built-in tools, Bash and ExecCommand running their commands in this runtime's sandbox. */
  readonly baseTools: readonly AnyTool[];
  /** Decisions, calls and spans exported over OTLP, when telemetry is on. */
  readonly telemetry?: Telemetry;
  /**
   * A pool over `tools` (default: `baseTools`) with its own ToolSearch, fed by the MCP servers.
   */
  makePool(tools?: readonly AnyTool[], options?: PoolOptions): RuntimePool;
  openSession(
    pool: ToolPool,
    invokedBy: InvokedBy,
    agent?: ToolContext["agent"],
    state?: ToolContext["session"],
  ): RuntimeSession;
  /** Stops the MCP and language servers and removes the sandbox's cgroup; sessions stop their own tasks. */
  close(): Promise<void>;
}

/** Loads the policy and the enabled plugins, and starts every MCP server, plugins' servers included. */
export async function openRuntime(globals: GlobalOptions, options: RuntimeOptions = {}): Promise<Runtime> {
  const loaded = loadForCli(globals);
  const { plugins, skills, pluginTools } = openPlugins(globals, loaded);
  const mcp = openMcp(
    globals,
    plugins.active.map((plugin) => ({
      file: plugin.manifestFile,
      mcpServers: pluginMcpServers([plugin]).mcpServers,
    })),
  );
  // The Bash parser loads on the first analysis (the pipeline analyses before it decides).
  if (options.mcpStartup === "background") mcp.startAll();
  const [telemetry] = await Promise.all([
    openCliTelemetry(globals, loaded.policy.state),
    options.mcpStartup === "background" ? undefined : mcp.connectAll(),
  ]);
  const policyDigest = policyDigestsOf(loaded.policy.state).digest;
  const sandbox = runtimeSandbox(globals, loaded, options.sandboxAsker, telemetry);
  const baseTools = getAllBaseTools({ wrapLaunch: sandbox });
  // "Always allow" answers become session rules, shared by every session of this runtime.
  let rules = loaded.policy;
  const denials = new DenialTracker();
  const discoveredIn = new WeakMap<ToolPool, DiscoveredTools>();
  const grant = (rule: string) => {
    rules = grantForSession(rules, globals.stateDir, globals.cwd, rule);
  };

  return {
    policy: loaded,
    mcp,
    plugins,
    baseTools,
    ...(telemetry ? { telemetry } : {}),
    makePool(tools = baseTools, options = {}) {
      const discovered = new DiscoveredTools();
      // ToolSearch reads the pool it belongs to on every call: a getter breaks the cycle.
      const toolSearch = createToolSearchTool({
        deferredTools: () => pool.current.tools.filter((tool) => isDeferredIn(pool.current, tool)),
        discovered,
        resultStyle: options.searchResultStyle ?? "schemas",
        stateDir: globals.stateDir,
        scope: () => loaded.policy.searchScope(),
      });
      const builtins = [...tools, toolSearch, createSkillTool(skills), ...mcpResourceTools(mcp)];
      const pool: ToolPool = new ToolPool(builtins, {
        mode: poolModeOf(globals.mode),
        denyRules: loaded.policy.blanketDenies(),
        deferral: loaded.policy.deferralOverrides(),
      });
      mcp.attach(pool);
      pluginTools.attach(pool);
      discoveredIn.set(pool, discovered);
      return { pool, discovered };
    },
    openSession(pool, invokedBy, agent, state) {
      // The agent's model calls a deferred tool only once ToolSearch found it (as the API requires);
      // a person at the CLI or an MCP client may call any tool by name — permission still decides.
      const discovered = discoveredIn.get(pool);
      const discovery = invokedBy === "provider" && discovered
        ? { discovered, isDeferred: (tool: AnyTool) => isDeferredIn(pool.current, tool) }
        : undefined;
      return createSession({
        ...(discovery ? { discovery } : {}),
        unavailable: (name) => mcp.unavailableReason(name),
        pool,
        policy: (request) => rulesPolicy(rules, denials, sandbox.placeOf)(request),
        readGuard: (path, ctx) => readRuleFor(rules, path, ctx),
        analyze: analyzeShellCommand,
        hooks: loaded.policy.hooks(),
        pluginHooks: plugins.hooks(),
        enrichers: [plugins.diagnosticsEnricher],
        cwd: globals.cwd,
        stateDir: globals.stateDir,
        mode: permissionModeOf(globals.mode),
        invokedBy,
        ...(agent ? { agent } : {}),
        ...(state ? { state } : {}),
        grant,
        ...(telemetry ? { telemetry } : {}),
        policyDigest,
      });
    },
    close: async () => {
      await Promise.all([mcp.close(), plugins.close(), sandbox.close()]);
    },
  };
}

/** The analysis stage of the pipeline: every shell-running tool's command goes through the analyzer. */
async function analyzeShellCommand(tool: AnyTool, input: unknown): Promise<BashAnalysis | undefined> {
  const command = shellCommandOf(tool.name, input);
  return command === undefined ? undefined : await analyzeBash(command);
}

/**
 * The launch wrapper of every process tool of a runtime: one sandbox profile from the policy's
 * `sandbox` settings with the workspace (cwd) writable; runs outside it go to the audit log (and
 * telemetry); runs the sandbox stopped are counted by telemetry as violations.
 */
function runtimeSandbox(
  globals: GlobalOptions,
  loaded: LoadResult,
  asker: SandboxAsker | undefined,
  telemetry: Telemetry | undefined,
) {
  const audit = AuditLog.inStateDir(globals.stateDir);
  const notice = (event: AuditEvent) => {
    const record = audit.append(event);
    telemetry?.record(record);
  };
  const masks = programMasks(loaded.policy.rules);
  return sandboxedLaunch({
    policy: loaded.policy.state.sandbox ?? DEFAULT_SANDBOX_POLICY,
    ...(masks.length
      ? {
        programMasks: async (command: string) =>
          masksForLine(masks, namedPrograms((await analyzeBash(command)).commands)),
      }
      : {}),
    workspace: globals.cwd,
    grantsDir: globals.stateDir,
    ...(asker ? { asker } : {}),
    onUnsandboxed: (run) =>
      notice({
        kind: "notice",
        input: auditableInput({ command: run.command }),
        cwd: run.cwd,
        detail: `ran without the sandbox: ${run.reason}`,
      }),
    onQuarantined: (run) =>
      notice({
        kind: "notice",
        input: auditableInput({ command: run.command }),
        cwd: run.cwd,
        detail: `sandbox quarantine: ${run.lines.join("; ")}`,
      }),
    onAutorunChanged: (run) =>
      notice({
        kind: "notice",
        input: auditableInput({ command: run.command }),
        cwd: run.cwd,
        detail: run.detail,
      }),
    // The model is told in the result; the fleet hears of it through telemetry.
    onBlocked: telemetry && ((run) => {
      telemetry.record({
        kind: "notice",
        input: auditableInput({ command: run.command }),
        cwd: run.cwd,
        detail: `sandbox blocked (${run.kind}): ${run.explanation}`,
      });
      telemetry.sandboxViolation(run.kind);
    }),
  });
}

/** The workspace's enabled plugins (as the managed allow-list permits), loaded. */
export function openPlugins(globals: GlobalOptions, loaded: LoadResult) {
  const skills = new SkillCatalog();
  const pluginTools = new PoolFanOut();
  const allowed = loaded.policy.state.allowedPlugins;
  const plugins = new PluginHost({
    pool: pluginTools,
    skills,
    cwd: globals.cwd,
    stateDir: globals.stateDir,
    ...(allowed ? { allowedPlugins: allowed } : {}),
  });
  plugins.reload();
  return { plugins, skills, pluginTools };
}

/** The common case: one runtime, the built-in pool, one session. `close()` ends all of it. */
export async function openDefaultSession(
  globals: GlobalOptions,
  invokedBy: InvokedBy,
  options: PoolOptions & RuntimeOptions & { state?: ToolContext["session"] } = {},
): Promise<RuntimePool & { session: RuntimeSession; runtime: Runtime; close(): Promise<void> }> {
  const runtime = await openRuntime(globals, options);
  const { pool, discovered } = runtime.makePool(runtime.baseTools, options);
  const session = runtime.openSession(pool, invokedBy, undefined, options.state);
  return {
    pool,
    discovered,
    session,
    runtime,
    close: async () => {
      await session.close();
      await runtime.close();
    },
  };
}
