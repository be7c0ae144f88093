/**
 * Loads every policy source into one compiled Policy:
 * managed → user → project → local → flag → cli → session → claude → embedded default.
 * A broken file never becomes an empty policy: the result denies every call and names the file.
 */
import { readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import defaultPolicy from "../../policy/default.json" with { type: "json" };
import type { PermissionMode } from "../tool/types.ts";
import { compileDirectly, type PolicyCompiler } from "./compile-cache.ts";
import type { CompiledRule } from "./compile-rule.ts";
import { FileProblem } from "./json-position.ts";
import type { PathAnchors } from "./path-glob.ts";
import type { CompiledFile, FileContext } from "./policy-file.ts";
import { type DisabledDefault, type LoadedFile, Policy, type SourceDigest } from "./policy.ts";
import { compileRuleList, type ListedRule } from "./rule-list.ts";
import { mergeSandboxSections, type SandboxSource } from "./sandbox-policy.ts";
import { grantsFile, readGrants, readSandboxGrants } from "./session-grants.ts";
import {
  homeOf,
  localPolicyFile,
  managedPolicyFiles,
  projectPolicyFile,
  userPolicyFile,
} from "./policy-files.ts";
import { isTrusted } from "./trust.ts";
import type { Effect, SourceName } from "./types.ts";

export interface LoadOptions {
  /** Workspace root. */
  cwd: string;
  stateDir: string;
  /** `--policy FILE` (the flag source). */
  flagFiles?: string[];
  /** `--allow/--ask/--deny RULE` (the cli source). */
  cliRules?: Partial<Record<Effect, string[]>>;
  /** The mode the caller starts in: a managed ban on bypassPermissions is reported at load. */
  mode?: PermissionMode;
  /** Also read Claude Code settings (also switched on by `"claudeSettings": true` in a policy file). */
  claudeSettings?: boolean;
  /** HOME, XDG_CONFIG_HOME, CLAUDE_CONFIG_DIR, TOOLRT_MANAGED_POLICY; defaults to process.env. */
  env?: Record<string, string | undefined>;
  platform?: NodeJS.Platform;
  /** How sources are compiled: a CompileCache in a long-lived process; default directly. */
  compiler?: PolicyCompiler;
}

export interface LoadResult {
  policy: Policy;
  /** Broken user, project, local, flag, cli, session or Claude files: `policy` denies every call. */
  errors: FileProblem[];
  /** A broken managed policy: `policy` denies every call, naming the file. */
  managedErrors: FileProblem[];
  /** Rules that are skipped, settings that have no effect where they are, sources a lock ignored. */
  warnings: string[];
}

const EMBEDDED_DEFAULT_FILE = "<embedded>/policy/default.json";
export { managedPolicyFiles, userPolicyFile };

export const EMBEDDED_DEFAULT_TEXT = `${JSON.stringify(defaultPolicy, null, 2)}\n`;

export function loadPolicy(options: LoadOptions): LoadResult {
  const env = options.env ?? process.env;
  const cwd = resolve(options.cwd);
  const home = homeOf(env);
  const compiler = options.compiler ?? compileDirectly;
  const trusted = isTrusted(options.stateDir, cwd);
  const errors: FileProblem[] = [];
  const warnings: string[] = [];
  const files: LoadedFile[] = [];
  const disabledRules: DisabledDefault[] = [];
  const rules: CompiledRule[] = [];
  const anchorsAt = (sourceBase: string): PathAnchors => ({ cwd, home, sourceBase });
  const digests: SourceDigest[] = [];
  const digested = (source: SourceName, file: string, text: string) => {
    digests.push({ source, file, sha256: new Bun.CryptoHasher("sha256").update(text).digest("hex") });
    return text;
  };

  const take = (compiled: CompiledFile | undefined) => {
    if (!compiled) return undefined;
    errors.push(...compiled.errors);
    warnings.push(...compiled.warnings.map((w) => w.message));
    if (compiled.loaded) {
      files.push(compiled.loaded);
      rules.push(...compiled.loaded.rules);
    }
    return compiled;
  };
  const sandboxSections: SandboxSource[] = [];
  const readPolicy = (file: string, context: FileContext, required = false) => {
    const compiled = take(
      readText(
        file,
        errors,
        required,
        (text) => compiler.policyText(file, digested(context.source, file, text), context),
      ),
    );
    const sandbox = compiled?.loaded && compiled.spec?.sandbox;
    if (sandbox) sandboxSections.push({ source: context.source, file, trusted: context.trusted, sandbox });
    return compiled;
  };

  let lockedBy: string | undefined;
  let bypassDisabledBy: string | undefined;
  let allowedPlugins: string[] | undefined;
  let allowDisable: { by: string; ids: boolean | string[] } | undefined;
  let wantsClaude = options.claudeSettings === true;
  const note = (compiled: CompiledFile | undefined) => {
    if (compiled?.spec?.claudeSettings === true) wantsClaude = true;
    return compiled;
  };
  for (const file of managedPolicyFiles(env, options.platform ?? process.platform)) {
    const compiled = readPolicy(file, {
      source: "managed",
      anchors: anchorsAt(dirname(file)),
      trusted: true,
    });
    if (compiled?.spec?.lock) lockedBy ??= file;
    if (compiled?.spec?.disableBypassPermissions) bypassDisabledBy ??= file;
    if (compiled?.spec?.allowedPlugins) allowedPlugins ??= compiled.spec.allowedPlugins;
    const ids = compiled?.loaded && compiled.spec?.allowDisable;
    if (ids !== undefined && ids !== true) allowDisable ??= { by: file, ids };
  }
  const managedErrors = errors.splice(0);

  if (lockedBy) {
    warnings.push(`the managed policy ${lockedBy} is locked: only managed rules apply`);
  } else {
    const userFile = userPolicyFile(env);
    const sources: [string, FileContext][] = [
      [userFile, { source: "user", anchors: anchorsAt(dirname(userFile)), trusted: true }],
      [projectPolicyFile(cwd), { source: "project", anchors: anchorsAt(cwd), trusted }],
      [localPolicyFile(cwd), { source: "local", anchors: anchorsAt(cwd), trusted }],
    ];
    for (const [file, context] of sources) note(readPolicy(file, context));
    for (const flag of options.flagFiles ?? []) {
      const file = resolve(cwd, flag);
      const context: FileContext = { source: "flag", anchors: anchorsAt(dirname(file)), trusted: true };
      note(readPolicy(file, context, true));
    }
    rules.push(...cliRules(options.cliRules ?? {}, anchorsAt(cwd), errors, warnings));
    rules.push(...sessionRules(options.stateDir, cwd, anchorsAt(cwd), errors, warnings));
    const granted = sessionSandbox(options.stateDir, cwd);
    if (granted) sandboxSections.push(granted);
    if (wantsClaude) {
      rules.push(...claudeRules(env, cwd, home, trusted, compiler, errors, warnings, digested));
    }
    const embedded = compiler.policyText(
      EMBEDDED_DEFAULT_FILE,
      digested("default", EMBEDDED_DEFAULT_FILE, EMBEDDED_DEFAULT_TEXT),
      {
        source: "default",
        anchors: anchorsAt(cwd),
        trusted: true,
      },
    );
    take(embedded);
    disabledRules.push(
      ...disabledDefaults(files, embedded.loaded?.rules ?? [], trusted, allowDisable, warnings),
    );
  }
  if (options.mode === "bypassPermissions" && bypassDisabledBy) {
    warnings.push(
      `bypassPermissions is disabled by the managed policy ${bypassDisabledBy}; calls are decided as in default mode`,
    );
  }
  const failClosed = managedErrors[0]
    ? `the managed policy is broken (${
      managedErrors[0].message
    }); every tool call is denied until it is fixed`
    : errors[0]
    ? `a policy file is broken (${
      errors[0].message
    }); every tool call is denied until it is fixed (see toolrt policy validate)`
    : undefined;
  const sandbox = mergeSandboxSections(sandboxSections);
  warnings.push(...sandbox.warnings);
  // The default file keeps every rule (its own tests judge it as written); the policy only the live ones.
  const off = new Set(disabledRules.flatMap((d) => d.rules));
  const policy = new Policy(rules.filter((rule) => !off.has(rule)), {
    trusted,
    sandbox: sandbox.policy,
    home,
    files,
    ...(failClosed ? { failClosed } : {}),
    ...(lockedBy ? { lockedBy } : {}),
    ...(bypassDisabledBy ? { bypassDisabledBy } : {}),
    ...(allowedPlugins ? { allowedPlugins } : {}),
    ...(disabledRules.length > 0 ? { disabled: disabledRules } : {}),
    digests,
  });
  return { policy, errors, managedErrors, warnings };
}

/**
 * The default rules the loaded files turn off, each with the first file that does. Project and
 * local files of an untrusted workspace cannot (turning off an ask loosens the policy), and the
 * managed policy's `allowDisable` may forbid it for every file but its own.
 */
function disabledDefaults(
  files: LoadedFile[],
  defaults: CompiledRule[],
  trusted: boolean,
  allowDisable: { by: string; ids: boolean | string[] } | undefined,
  warnings: string[],
): DisabledDefault[] {
  const found: DisabledDefault[] = [];
  for (const file of files) {
    for (const id of file.disable ?? []) {
      if (found.some((d) => d.id === id)) continue;
      const where = `"disable": "${id}" in ${file.file}`;
      if ((file.source === "project" || file.source === "local") && !trusted) {
        warnings.push(`${where} is ignored: the workspace is not trusted (toolrt trust)`);
        continue;
      }
      const allowed = file.source === "managed" || allowDisable === undefined ||
        (Array.isArray(allowDisable.ids) && allowDisable.ids.includes(id));
      if (!allowed) {
        const which = Array.isArray(allowDisable!.ids)
          ? `allows disabling only ${allowDisable!.ids.join(", ") || "no rule"}`
          : "does not allow disabling default rules";
        warnings.push(`${where} is ignored: the managed policy ${allowDisable!.by} ${which}`);
        continue;
      }
      found.push({
        id,
        file: file.file,
        source: file.source,
        rules: defaults.filter((r) => r.meta.id === id),
      });
    }
  }
  return found;
}

function cliRules(
  given: Partial<Record<Effect, string[]>>,
  anchors: PathAnchors,
  errors: FileProblem[],
  warnings: string[],
): CompiledRule[] {
  const listed: ListedRule[] = [];
  for (const effect of ["deny", "ask", "allow"] as const) {
    (given[effect] ?? []).forEach((rule, i) => listed.push({ rule, effect, id: `--${effect}[${i}]` }));
  }
  const { rules, problems } = compileRuleList(listed, {
    source: "cli",
    file: "command line",
    anchors,
    trusted: true,
  });
  for (const problem of problems) {
    const { id, rule } = listed[problem.index]!;
    const message = `${id.replace(/\[\d+\]$/, "")} ${JSON.stringify(rule)}: ${problem.message}`;
    if (problem.skipped) warnings.push(message);
    else errors.push(new FileProblem("command line", 1, problem.column ?? 1, message));
  }
  return rules;
}

function sessionRules(
  stateDir: string,
  cwd: string,
  anchors: PathAnchors,
  errors: FileProblem[],
  warnings: string[],
): CompiledRule[] {
  const file = grantsFile(stateDir, cwd);
  let grants;
  try {
    grants = readGrants(stateDir, cwd);
  } catch (error) {
    errors.push(new FileProblem(file, 1, 1, `cannot read session grants: ${(error as Error).message}`));
    return [];
  }
  const listed = grants.map((g, i) => ({ rule: g.rule, effect: g.effect, id: `session-${i + 1}` }));
  const { rules, problems } = compileRuleList(listed, { source: "session", file, anchors, trusted: true });
  warnings.push(...problems.map((p) => `${file}: ${p.message}`));
  return rules;
}

/** The sandbox exceptions a person granted "always" in this workspace, as a `session` section. */
function sessionSandbox(stateDir: string, cwd: string): SandboxSource | undefined {
  let granted;
  try {
    granted = readSandboxGrants(stateDir, cwd);
  } catch {
    return undefined; // an unreadable grants file is already an error of sessionRules
  }
  if (granted.allowNet.length === 0 && granted.allowWrite.length === 0) return undefined;
  return { source: "session", file: grantsFile(stateDir, cwd), trusted: true, sandbox: granted };
}

function claudeRules(
  env: Record<string, string | undefined>,
  cwd: string,
  home: string,
  trusted: boolean,
  compiler: PolicyCompiler,
  errors: FileProblem[],
  warnings: string[],
  digested: (source: SourceName, file: string, text: string) => string,
): CompiledRule[] {
  const userDir = env.CLAUDE_CONFIG_DIR || join(home, ".claude");
  const settings: [string, string, boolean][] = [
    [join(userDir, "settings.json"), userDir, true],
    [join(cwd, ".claude", "settings.json"), cwd, trusted],
    [join(cwd, ".claude", "settings.local.json"), cwd, trusted],
  ];
  const rules: CompiledRule[] = [];
  for (const [file, sourceBase, isTrustedFile] of settings) {
    const result = readText(
      file,
      errors,
      false,
      (text) =>
        compiler.claudeSettings(
          file,
          digested("claude", file, text),
          { cwd, home, sourceBase },
          isTrustedFile,
        ),
    );
    if (!result) continue;
    errors.push(...result.errors);
    warnings.push(...result.warnings.map((w) => w.message));
    rules.push(...result.rules);
  }
  return rules;
}

/** Reads a file; missing is fine unless required, anything else unreadable is an error. */
function readText<T>(
  file: string,
  errors: FileProblem[],
  required: boolean,
  use: (text: string) => T,
): T | undefined {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT" && !required) return undefined;
    const why = code === "ENOENT"
      ? "no such file"
      : code === "EISDIR"
      ? "is a directory, expected a file"
      : code;
    errors.push(new FileProblem(file, 1, 1, `cannot read the policy: ${why}`));
    return undefined;
  }
  return use(text);
}
