/** A loaded, compiled policy: every rule of every source, indexed by tool name for fast decisions. */
import type { CompiledRule } from "./compile-rule.ts";
import { ruleReason } from "./decide.ts";
import { type HooksConfig, mergeHooks } from "./hooks-schema.ts";
import type { SandboxPolicy } from "./sandbox-policy.ts";
import type { PolicyTestSpec, SearchScopeName } from "./schema.ts";
import type { SourceName } from "./types.ts";

/** One policy file that was read, kept for `toolrt policy test` and `validate`. */
export interface LoadedFile {
  source: SourceName;
  file: string;
  rules: CompiledRule[];
  tests: PolicyTestSpec[];
  /** Where the file's tests sit, for messages: `tests[i]` → line. */
  testLines: number[];
  /** Hooks the file configures (only from trusted sources). */
  hooks?: HooksConfig;
  /** Ids of default rules the file turns off (`"disable"`), checked against the defaults. */
  disable?: string[];
  /** The file's `tools` section: deferral overrides, search scope, and how `toolrt serve` offers deferred tools. */
  toolLoading?: {
    alwaysLoad?: string[];
    defer?: string[];
    search?: SearchScopeName;
    searchServers?: string[];
    serveDeferred?: "search" | "list";
  };
}

/** What ToolSearch may find: built-in tools, MCP tools (of these servers only, when listed). */
export interface SearchScope {
  builtins: boolean;
  mcp: boolean;
  servers?: string[];
  /** The files that narrowed it, for messages. */
  setBy: string[];
}

/** The sha256 of a policy source's text as it was read (for the audit log and telemetry). */
export interface SourceDigest {
  source: SourceName;
  file: string;
  sha256: string;
}

/** A shipped default rule a policy file turned off by id (`"disable"`), kept to say so in decisions. */
export interface DisabledDefault {
  id: string;
  /** The file that disabled it, and its source. */
  file: string;
  source: SourceName;
  /** The default's compiled rules of that id. */
  rules: CompiledRule[];
}

export interface PolicyState {
  /** Set when the policy must deny every call (a broken managed or other policy file). */
  failClosed?: string;
  /** The managed file that disables bypassPermissions mode, if any. */
  bypassDisabledBy?: string;
  /** The managed allow-list of plugin names, if any: no other plugin loads. */
  allowedPlugins?: string[];
  /** The managed file that locks the policy to managed rules, if any. */
  lockedBy?: string;
  trusted: boolean;
  home: string;
  files: LoadedFile[];
  /** How Bash and ExecCommand run: the `sandbox` sections of the policy files, merged (absent: the defaults). */
  sandbox?: SandboxPolicy;
  /** Default rules turned off by id, and by which file. */
  disabled?: DisabledDefault[];
  /** Every policy and settings text that was read, with its digest. */
  digests?: SourceDigest[];
}

/** Sources from the most to the least authoritative; decisions list matched rules in this order. */
export const SOURCE_ORDER: readonly SourceName[] = [
  "managed",
  "cli",
  "flag",
  "local",
  "project",
  "user",
  "session",
  "claude",
  "default",
];

export class Policy {
  /** Path rules apply by the kind of access, whatever the tool. */
  readonly pathRules: CompiledRule[];
  private readonly byName = new Map<string, CompiledRule[]>();
  private readonly globbed: CompiledRule[] = [];
  private readonly cache = new Map<string, CompiledRule[]>();
  /** Path rules by the literal directory their glob starts with. */
  private readonly byDir = new Map<string, CompiledRule[]>();
  private readonly position = new Map<CompiledRule, number>();

  readonly rules: CompiledRule[];

  constructor(rules: CompiledRule[], readonly state: PolicyState) {
    this.rules = [...rules].sort((a, b) =>
      SOURCE_ORDER.indexOf(a.meta.source) - SOURCE_ORDER.indexOf(b.meta.source)
    );
    this.pathRules = this.rules.filter((r) => r.scope === "path");
    this.rules.forEach((rule, i) => this.position.set(rule, i));
    for (const rule of this.pathRules) {
      const dir = rule.path!.prefix;
      const list = this.byDir.get(dir) ?? [];
      list.push(rule);
      this.byDir.set(dir, list);
    }
    for (const rule of this.rules) {
      if (rule.scope === "path") continue;
      if (!rule.toolNames) {
        this.globbed.push(rule);
        continue;
      }
      for (const name of rule.toolNames) {
        const list = this.byName.get(name) ?? [];
        list.push(rule);
        this.byName.set(name, list);
      }
    }
  }

  /**
   * Deny rules that cover whole tools (no specifier, input test or condition): the pool removes
   * those tools before the model sees them.
   */
  blanketDenies(): { rule: string; source: string; reason: string; covers: (toolName: string) => boolean }[] {
    return this.rules
      .filter((r) => r.meta.effect === "deny" && r.scope === "call" && !r.inputTest && !r.when)
      .map((r) => ({
        rule: r.meta.rule,
        source: r.meta.file ? `${r.meta.source} (${r.meta.file})` : r.meta.source,
        reason: ruleReason(r, undefined),
        covers: (name: string) => r.coversTool(name) && (r.toolFilter?.(name) ?? true),
      }));
  }

  /** Every file's `alwaysLoad` and `defer` lists together (they change what loads, not what may run). */
  deferralOverrides(): { alwaysLoad: string[]; defer: string[] } {
    const sections = this.state.files.flatMap((file) => (file.toolLoading ? [file.toolLoading] : []));
    return {
      alwaysLoad: sections.flatMap((s) => s.alwaysLoad ?? []),
      defer: sections.flatMap((s) => s.defer ?? []),
    };
  }

  /** `tools.serveDeferred` of the most authoritative file that sets it. */
  serveDeferred(): "search" | "list" | undefined {
    for (const source of SOURCE_ORDER) {
      const file = this.state.files.find((f) => f.source === source && f.toolLoading?.serveDeferred);
      if (file) return file.toolLoading!.serveDeferred;
    }
    return undefined;
  }

  /**
   * What ToolSearch may find, all files together: each `search` and `searchServers` only narrows
   * (a user file cannot widen what a managed one allows), so the kinds and the server lists intersect.
   */
  searchScope(): SearchScope {
    // A policy that denies every call lets nothing be found either.
    if (this.state.failClosed) return { builtins: false, mcp: false, setBy: [this.state.failClosed] };
    let builtins = true, mcp = true;
    let servers: string[] | undefined;
    const setBy: string[] = [];
    for (const file of this.state.files) {
      const { search, searchServers } = file.toolLoading ?? {};
      if (search === undefined && searchServers === undefined) continue;
      setBy.push(file.file);
      if (search === "mcp-only" || search === "none") builtins = false;
      if (search === "builtins-only" || search === "none") mcp = false;
      if (searchServers) {
        servers = servers ? servers.filter((s) => searchServers.includes(s)) : [...searchServers];
      }
    }
    return { builtins, mcp, ...(servers ? { servers } : {}), setBy };
  }

  /** Every file's hooks in source order (managed first): all of them run, as in Claude Code. */
  hooks(): HooksConfig {
    return mergeHooks(
      SOURCE_ORDER.flatMap((source) =>
        this.state.files.filter((f) => f.source === source).map((f) => f.hooks)
      ),
    );
  }

  /** Call- and command-scoped rules covering this tool, in source order. */
  rulesFor(tool: string): CompiledRule[] {
    let rules = this.cache.get(tool);
    if (!rules) {
      const named = new Set(this.byName.get(tool) ?? []);
      rules = this.rules.filter((r) => named.has(r) || (this.globbed.includes(r) && r.coversTool(tool)));
      this.cache.set(tool, rules);
    }
    return rules;
  }

  /** Path rules that could match any of these absolute paths (their directory is an ancestor), in order. */
  pathRulesFor(paths: readonly string[]): CompiledRule[] {
    const found = new Set<CompiledRule>();
    for (const path of paths) {
      let end = 0;
      while (end !== -1) {
        for (const rule of this.byDir.get(path.slice(0, end)) ?? []) found.add(rule);
        end = path.indexOf("/", end + 1);
      }
      for (const rule of this.byDir.get(path) ?? []) found.add(rule);
    }
    return [...found].sort((a, b) => this.position.get(a)! - this.position.get(b)!);
  }

  private disabledView: Policy | undefined;

  /** The disabled default rules as a policy of their own, to tell which of them a call would have met. */
  disabledDefaults(): Policy | undefined {
    const disabled = this.state.disabled;
    if (!disabled || disabled.length === 0) return undefined;
    return this.disabledView ??= new Policy(disabled.flatMap((d) => d.rules), {
      ...this.state,
      disabled: [],
    });
  }

  /** The same policy with more rules (session grants added while running). */
  withRules(more: CompiledRule[]): Policy {
    return new Policy([...this.rules, ...more], this.state);
  }
}
