/** The policy file format. `toolrt policy schema` prints its JSON Schema. */
import { z } from "zod";
import { isPreset, NET_PRESETS, unknownPreset, WRITE_PRESETS } from "../sandbox/presets.ts";
import { CREDENTIAL_PATHS } from "../sandbox/credentials.ts";
import { parseSize } from "../sandbox/limits.ts";
import { hooksConfigSchema } from "./hooks-schema.ts";
import { PERMISSION_MODES } from "./modes.ts";

const effect = z.enum(["allow", "ask", "deny"]);
const ruleStrings = z.union([z.string(), z.array(z.string()).min(1)]);

export const policyRuleSchema = z.strictObject({
  id: z.string().min(1).describe("Stable name of the rule, printed with every decision it makes"),
  effect: effect.describe("deny beats ask beats allow, across every source"),
  match: ruleStrings.optional().describe(
    "Rule string(s) in Claude Code's grammar: Tool, Tool(specifier), Bash(npm run:*), Read(./src/**)",
  ),
  tool: ruleStrings.optional().describe(
    "Tool name(s) or name globs the call must have; alone, it matches every call of those tools",
  ),
  except: ruleStrings.optional().describe(
    "Path rule strings this path rule leaves alone (Read(.env.example)); a symlink still matches by its target",
  ),
  when: z.unknown().optional().describe("JSON-Logic condition over the facts object (see policy/README.md)"),
  reason: z.string().optional().describe("Shown to the user and the model when this rule decides"),
  description: z.string().optional().describe("A note for readers of the policy; never shown"),
}).refine((rule) => rule.match !== undefined || rule.tool !== undefined, {
  message: 'a rule needs "match" (rule strings) or "tool" (tool names)',
});

export const policyTestSchema = z.strictObject({
  name: z.string().optional(),
  tool: z.string().min(1),
  input: z.union([z.string(), z.record(z.string(), z.unknown())]).describe(
    "The tool input; for Bash the command string is enough",
  ),
  expect: effect,
  mode: z.enum(PERMISSION_MODES).optional(),
  readOnly: z.boolean().optional().describe("What the tool says about this input (default: not read-only)"),
  agent: z.strictObject({ depth: z.number().int().min(0), type: z.string().optional() }).optional(),
});

const paths = z.array(z.string().min(1, "an empty path"));
const HOST = /^(?:(?:\*\.)?[A-Za-z0-9](?:[A-Za-z0-9.-]*[A-Za-z0-9])?|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?$/;

/** What ToolSearch may find; each policy file can only narrow it (see `Policy.searchScope`). */
export const SEARCH_SCOPES = ["all", "mcp-only", "builtins-only", "none"] as const;
export type SearchScopeName = (typeof SEARCH_SCOPES)[number];

/** Which tools load on turn one and which wait behind ToolSearch (names, globs or MCP servers). */
export const toolLoadingSchema = z.strictObject({
  alwaysLoad: z.array(z.string().min(1)).optional().describe(
    "Tools sent in full on every turn, never deferred (e.g. mcp__github__create_pull_request, mcp__jira)",
  ),
  defer: z.array(z.string().min(1)).optional().describe(
    "Tools kept out of turn one, found through ToolSearch",
  ),
  search: z.enum(SEARCH_SCOPES).optional().describe(
    'Which deferred tools ToolSearch may find: "all" (default), "mcp-only", "builtins-only" or "none"',
  ),
  searchServers: z.array(z.string().min(1)).optional().describe(
    "The only MCP servers (or plugins) whose tools ToolSearch may find (default: every one)",
  ),
  serveDeferred: z.enum(["search", "list"]).optional().describe(
    "How `toolrt serve` offers deferred tools to MCP clients: search (listed once found with ToolSearch, " +
      "callable by exact name before) or list (all listed); `serve --deferred` overrides it",
  ),
});

const size = z.union([
  z.number().int().positive(),
  z.string().refine((text) => parseSize(text) !== null, "expected bytes or a size such as 512M or 2G"),
]).transform((value) => typeof value === "number" ? value : parseSize(value)!);

/** Resource limits of one sandboxed command (processes and memory: of the session's commands together). */
export const sandboxLimitsSchema = z.strictObject({
  processes: z.number().int().positive().optional().describe("Processes and threads at once (default 2048)"),
  memory: size.optional().describe("Memory, the private $TMPDIR included: bytes or 512M, 8G (default 8G)"),
  cpuSeconds: z.number().int().positive().optional().describe("CPU seconds per process (default: none)"),
  wallSeconds: z.number().int().positive().optional().describe(
    "Seconds until the command and all it started are killed (default: none)",
  ),
  tmpSize: size.optional().describe("Size of the private $TMPDIR, a tmpfs: bytes or 512M, 2G (default 2G)"),
});

/** How Bash and ExecCommand run in the sandbox. Merging across files: `sandbox-policy.ts`. */
export const sandboxSectionSchema = z.strictObject({
  enabled: z.boolean().optional().describe("Run Bash and ExecCommand commands in the sandbox (default true)"),
  autoAllow: z.boolean().optional().describe(
    "Sandboxed Bash and ExecCommand calls that no deny or ask rule, check or protected path stops run " +
      "without a prompt (default true; false in any file, e.g. the managed one, turns it off)",
  ),
  allowWrite: z.array(
    z.string().min(1, "an empty path").refine(
      (entry) => !isPreset(entry) || Object.hasOwn(WRITE_PRESETS, entry),
      { error: (issue) => unknownPreset("allowWrite", String(issue.input)) },
    ),
  ).optional().describe(
    "Writable paths besides the workspace and $TMPDIR (relative to the workspace, or ~/...), or @package-caches",
  ),
  denyRead: paths.optional().describe("Paths a sandboxed command may not read (e.g. ~/.ssh)"),
  allowRead: z.array(z.enum(CREDENTIAL_PATHS as [string, ...string[]], {
    error: (issue) =>
      `${String(issue.input)} is not a credential location hidden by default; those are: ${
        CREDENTIAL_PATHS.join(", ")
      }`,
  })).optional().describe(
    "Credential locations hidden by default (~/.ssh, ~/.aws, ~/.npmrc, /etc/shadow ...) that commands may read",
  ),
  denyWrite: paths.optional().describe("Paths inside writable ones that stay read-only"),
  allowNet: z.array(
    z.string().refine((entry) => isPreset(entry) ? Object.hasOwn(NET_PRESETS, entry) : HOST.test(entry), {
      error: (issue) =>
        isPreset(String(issue.input))
          ? unknownPreset("allowNet", String(issue.input))
          : "expected a host: example.com, *.example.com or example.com:443, or a registry preset such as @npm",
    }),
  ).optional().describe(
    "Hosts reachable through the sandbox's proxy (default: no network), or registry presets: @npm, @pypi, @crates, @go, @maven",
  ),
  allowLocalhost: z.boolean().optional().describe(
    "macOS: commands may listen on and connect to localhost, any port, the host's own (default false; " +
      "Linux sandboxes always have a private loopback)",
  ),
  unsetEnv: z.array(z.string().min(1)).optional().describe(
    "Environment-variable name globs dropped besides the default secret-looking ones",
  ),
  excludedCommands: z.array(z.string().trim().min(1, "an empty command prefix")).optional().describe(
    "Command prefixes that run without the sandbox (`docker`, `npm run deploy`); only simple commands match",
  ),
  allowUnsandboxedCommands: z.boolean().optional().describe(
    "Whether Bash's dangerouslyDisableSandbox is honoured (default false: the command runs sandboxed)",
  ),
  runAsRoot: z.boolean().optional().describe(
    "When toolrt runs as root: commands keep root instead of running as the workspace owner (default false)",
  ),
  privateTmp: z.boolean().optional().describe(
    "Commands get empty /tmp and /var/tmp of their own instead of seeing the host's read-only (default " +
      "false; other sessions' files there stay unseen, but so do scripts left there to run). true in any file wins",
  ),
  limits: sandboxLimitsSchema.optional().describe(
    "Processes, memory, CPU time, wall time and $TMPDIR size of sandboxed commands",
  ),
  whenUnavailable: z.enum(["refuse", "warn"]).optional().describe(
    'No sandbox on this machine: "refuse" the command (default) or "warn" and run it without one',
  ),
});

const headerName = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/** OTLP export of decisions and calls. How it combines with OTEL_* variables: src/telemetry/README.md. */
export const telemetrySectionSchema = z.strictObject({
  enabled: z.boolean().optional().describe(
    "Export decisions and tool calls over OTLP (default false). Set in the managed policy, nothing else can change it",
  ),
  endpoint: z.url({ protocol: /^https?$/, error: "expected an http:// or https:// URL" }).optional().describe(
    "The collector's OTLP/HTTP base URL (/v1/logs, /v1/metrics, /v1/traces are added), like OTEL_EXPORTER_OTLP_ENDPOINT",
  ),
  protocol: z.enum(["http/protobuf", "http/json"]).optional().describe(
    "Like OTEL_EXPORTER_OTLP_PROTOCOL (default http/protobuf)",
  ),
  headers: z.record(z.string().regex(headerName, "expected an HTTP header name"), z.string()).optional()
    .describe("Sent with every export, e.g. an Authorization header; like OTEL_EXPORTER_OTLP_HEADERS"),
  resourceAttributes: z.record(z.string().min(1), z.string()).optional().describe(
    "Added to every record's resource, like OTEL_RESOURCE_ATTRIBUTES (e.g. team, fleet)",
  ),
  includeInput: z.boolean().optional().describe(
    "Send the redacted, bounded tool input with each decision (default true; false sends only its digest)",
  ),
});

export const policyFileSchema = z.strictObject({
  $schema: z.string().optional(),
  description: z.string().optional(),
  lock: z.boolean().optional().describe("Managed policy only: no rules but managed ones apply"),
  disableBypassPermissions: z.boolean().optional().describe(
    "Managed policy only: bypassPermissions mode acts as default mode",
  ),
  claudeSettings: z.boolean().optional().describe("Also read permission rules from Claude Code settings"),
  disable: z.array(z.string().min(1, "an empty rule id")).optional().describe(
    "Ids of shipped default rules to turn off (e.g. secrets-files, git-push-force); catastrophic " +
      "commands cannot be turned off, and the managed policy may forbid it (allowDisable)",
  ),
  allowDisable: z.union([z.boolean(), z.array(z.string().min(1, "an empty rule id"))]).optional().describe(
    "Managed policy only: whether other files may disable default rules (false: none; a list: only these ids)",
  ),
  allowedPlugins: z.array(z.string().min(1)).optional().describe(
    "Managed policy only: the plugins that may load (an empty list blocks every plugin)",
  ),
  hooks: hooksConfigSchema.optional().describe(
    "Claude Code-style hooks (PreToolUse, PostToolUse, PostToolUseFailure); project and local files need trust",
  ),
  sandbox: sandboxSectionSchema.optional().describe(
    "The sandbox of Bash and ExecCommand; managed values win (see policy/README.md)",
  ),
  tools: toolLoadingSchema.optional().describe(
    "Deferral overrides (alwaysLoad, defer), what ToolSearch may find (search, searchServers) and how " +
      "`toolrt serve` offers deferred tools (serveDeferred)",
  ),
  telemetry: telemetrySectionSchema.optional().describe(
    "OTLP export of decisions and calls; read from managed, user and --policy files only (see policy/README.md)",
  ),
  rules: z.array(policyRuleSchema).default([]),
  tests: z.array(policyTestSchema).default([]),
});

export type PolicyRuleSpec = z.infer<typeof policyRuleSchema>;
export type PolicyTestSpec = z.infer<typeof policyTestSchema>;
export type PolicyFileSpec = z.infer<typeof policyFileSchema>;
export type SandboxSection = z.infer<typeof sandboxSectionSchema>;
export type TelemetrySection = z.infer<typeof telemetrySectionSchema>;

/** The JSON Schema of a policy file. */
export function policyJsonSchema(): Record<string, unknown> {
  return z.toJSONSchema(policyFileSchema, { io: "input", unrepresentable: "any" }) as Record<string, unknown>;
}
