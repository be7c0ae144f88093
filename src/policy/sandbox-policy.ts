/**
 * The policy's `sandbox` sections merged into one `SandboxPolicy`. Pure.
 *
 * - A setting of one value (`enabled`, `allowUnsandboxedCommands`, `allowLocalhost`, `whenUnavailable`,
 *   `runAsRoot`, and each of `limits`): the most authoritative file that sets it wins (managed, then flag,
 *   local, project, user).
 * - Lists that take away (`denyRead`, `denyWrite`, `unsetEnv`): every file adds to them.
 * - Lists that give (`allowWrite`, `allowNet`, `excludedCommands`, `allowRead`): every file adds to them,
 *   unless the managed policy sets that list: then only the managed entries count.
 * - `autoAllow` is on unless a file turns it off: `false` anywhere wins (so a managed policy forces it
 *   off, and any file may ask for more prompts, trusted or not). Likewise `privateTmp` is off unless a
 *   file turns it on: `true` anywhere wins (no file can undo another's private /tmp).
 * - A project or local file of an untrusted workspace cannot loosen anything: its `enabled: false`,
 *   `allowUnsandboxedCommands: true`, `allowLocalhost: true`, `whenUnavailable: "warn"`, `runAsRoot: true`,
 *   give-lists and limits above the defaults are ignored, with a warning.
 */
import { SOURCE_ORDER } from "./policy.ts";
import { DEFAULT_LIMITS, type SandboxLimits } from "../sandbox/profile.ts";
import type { SandboxSection } from "./schema.ts";
import type { SourceName } from "./types.ts";

type Scalar = "enabled" | "allowUnsandboxedCommands" | "allowLocalhost" | "whenUnavailable" | "runAsRoot";
type GiveList = "allowWrite" | "allowNet" | "excludedCommands" | "allowRead";
type TakeList = "denyRead" | "denyWrite" | "unsetEnv";

export interface SandboxPolicy {
  enabled: boolean;
  /** Sandboxed shell calls that nothing but "no rule allows it" stops run without a prompt. */
  autoAllow: boolean;
  allowUnsandboxedCommands: boolean;
  /** macOS: localhost (the host's) for listening and connecting; Linux sandboxes have their own. */
  allowLocalhost: boolean;
  whenUnavailable: "refuse" | "warn";
  /** When toolrt runs as root: keep root inside instead of the workspace owner's uid. */
  runAsRoot: boolean;
  /** Empty /tmp and /var/tmp of the sandbox's own instead of the host's, read-only. */
  privateTmp: boolean;
  /** Credential locations (hidden by default) commands may read. */
  allowRead: string[];
  /** Limits some file set; the rest keep the sandbox's defaults. */
  limits: Partial<SandboxLimits>;
  allowWrite: string[];
  allowNet: string[];
  excludedCommands: string[];
  denyRead: string[];
  denyWrite: string[];
  unsetEnv: string[];
  /** The file each single-valued setting came from, or "default": for messages that say where to change it. */
  origin: Record<Scalar | "autoAllow" | "privateTmp", string>;
}

export interface SandboxSource {
  source: SourceName;
  file: string;
  /** False for project and local files of an untrusted workspace. */
  trusted: boolean;
  sandbox: SandboxSection;
}

const SCALARS: readonly Scalar[] = [
  "enabled",
  "allowUnsandboxedCommands",
  "allowLocalhost",
  "whenUnavailable",
  "runAsRoot",
];
const GIVE_LISTS: readonly GiveList[] = ["allowWrite", "allowNet", "excludedCommands", "allowRead"];
const TAKE_LISTS: readonly TakeList[] = ["denyRead", "denyWrite", "unsetEnv"];
/** The value of each single-valued setting that loosens the sandbox. */
const LOOSE: { [K in Scalar]: SandboxPolicy[K] } = {
  enabled: false,
  allowUnsandboxedCommands: true,
  allowLocalhost: true,
  whenUnavailable: "warn",
  runAsRoot: true,
};

export const DEFAULT_SANDBOX_POLICY: SandboxPolicy = {
  enabled: true,
  autoAllow: true,
  allowUnsandboxedCommands: false,
  allowLocalhost: false,
  whenUnavailable: "refuse",
  runAsRoot: false,
  privateTmp: false,
  allowRead: [],
  limits: {},
  allowWrite: [],
  allowNet: [],
  excludedCommands: [],
  denyRead: [],
  denyWrite: [],
  unsetEnv: [],
  origin: {
    enabled: "default",
    autoAllow: "default",
    allowUnsandboxedCommands: "default",
    allowLocalhost: "default",
    whenUnavailable: "default",
    runAsRoot: "default",
    privateTmp: "default",
  },
};

/** @example mergeSandboxSections([{ source: "user", file, trusted: true, sandbox: { allowNet: ["registry.npmjs.org"] } }]) */
export function mergeSandboxSections(
  sources: readonly SandboxSource[],
): { policy: SandboxPolicy; warnings: string[] } {
  const warnings: string[] = [];
  const ordered = [...sources].sort((a, b) =>
    SOURCE_ORDER.indexOf(a.source) - SOURCE_ORDER.indexOf(b.source)
  );
  const sections = ordered.map((s) => ({ ...s, sandbox: s.trusted ? s.sandbox : tightOnly(s, warnings) }));
  const origin = { ...DEFAULT_SANDBOX_POLICY.origin };
  const scalar = <K extends Scalar>(key: K): SandboxPolicy[K] => {
    const from = sections.find((s) => s.sandbox[key] !== undefined);
    if (!from) return DEFAULT_SANDBOX_POLICY[key];
    origin[key] = `${from.source} policy ${from.file}`;
    return from.sandbox[key] as SandboxPolicy[K];
  };
  const policy: SandboxPolicy = {
    ...DEFAULT_SANDBOX_POLICY,
    enabled: scalar("enabled"),
    allowUnsandboxedCommands: scalar("allowUnsandboxedCommands"),
    allowLocalhost: scalar("allowLocalhost"),
    whenUnavailable: scalar("whenUnavailable"),
    runAsRoot: scalar("runAsRoot"),
    limits: mergeLimits(sections),
    origin,
  };
  const autoAllowOff = sections.find((s) => s.sandbox.autoAllow === false);
  if (autoAllowOff) {
    policy.autoAllow = false;
    origin.autoAllow = `${autoAllowOff.source} policy ${autoAllowOff.file}`;
  }
  const privateTmpOn = sections.find((s) => s.sandbox.privateTmp === true);
  if (privateTmpOn) {
    policy.privateTmp = true;
    origin.privateTmp = `${privateTmpOn.source} policy ${privateTmpOn.file}`;
  }
  for (const key of TAKE_LISTS) policy[key] = unique(sections.flatMap((s) => s.sandbox[key] ?? []));
  for (const key of GIVE_LISTS) {
    const managed = sections.filter((s) => s.source === "managed" && s.sandbox[key] !== undefined);
    const counted = managed.length > 0 ? managed : sections;
    for (const s of sections) {
      if (!counted.includes(s) && s.sandbox[key]?.length) {
        warnings.push(`${s.file}: sandbox.${key} is ignored: the managed policy sets this list`);
      }
    }
    policy[key] = unique(counted.flatMap((s) => s.sandbox[key] ?? []));
  }
  return { policy, warnings };
}

/** The section without what would loosen the sandbox, with a warning per dropped setting. */
function tightOnly(source: SandboxSource, warnings: string[]): SandboxSection {
  const kept: Record<string, unknown> = { ...source.sandbox };
  const dropped: string[] = [
    ...SCALARS.filter((key) => source.sandbox[key] === LOOSE[key]),
    ...GIVE_LISTS.filter((key) => source.sandbox[key]?.length),
  ];
  for (const key of dropped) delete kept[key];
  const limits = { ...source.sandbox.limits };
  for (const key of LIMIT_KEYS) {
    const value = limits[key];
    const field = LIMIT_FIELDS[key];
    const standard = DEFAULT_LIMITS[field];
    if (value !== undefined && standard !== null && value > standard) {
      delete limits[key];
      dropped.push(`limits.${key}`);
    }
  }
  if (source.sandbox.limits) kept.limits = limits;
  if (dropped.length > 0) {
    warnings.push(
      `${source.file}: sandbox.${dropped.join(", sandbox.")} ignored: the workspace is not trusted ` +
        "and its policy cannot loosen the sandbox (toolrt trust)",
    );
  }
  return kept as SandboxSection;
}

type LimitKey = keyof NonNullable<SandboxSection["limits"]>;
/** The policy's names for the profile's limits. */
const LIMIT_FIELDS: Record<LimitKey, keyof SandboxLimits> = {
  processes: "maxProcesses",
  memory: "maxMemoryBytes",
  cpuSeconds: "maxCpuSeconds",
  wallSeconds: "maxWallSeconds",
  tmpSize: "maxTmpBytes",
};
const LIMIT_KEYS = Object.keys(LIMIT_FIELDS) as LimitKey[];

/** Per limit, the most authoritative file that sets it wins (`sections` come in that order). */
function mergeLimits(sections: readonly { sandbox: SandboxSection }[]): Partial<SandboxLimits> {
  const limits: Partial<SandboxLimits> = {};
  for (const key of LIMIT_KEYS) {
    const value = sections.find((s) => s.sandbox.limits?.[key] !== undefined)?.sandbox.limits?.[key];
    if (value !== undefined) limits[LIMIT_FIELDS[key]] = value;
  }
  return limits;
}

const unique = (values: string[]) => [...new Set(values)];
