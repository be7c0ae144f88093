/**
 * Named sets a policy or `toolrt sandbox` may use instead of spelling them out, all opt-in:
 * package registries as `allowNet` entries (`@npm`, `@pypi`, `@crates`, `@go`, `@maven`) and the
 * package managers' download caches as one `allowWrite` entry (`@package-caches`). Reviewed data:
 * each registry preset lists the hosts its client downloads from (no mirrors, no publishing hosts).
 */
import { existsSync } from "node:fs";
import { join } from "node:path";

export const NET_PRESETS: Readonly<Record<string, readonly string[]>> = {
  /** npm and yarn classic (tarballs come from the registry host itself). */
  "@npm": ["registry.npmjs.org", "registry.yarnpkg.com"],
  /** pip, uv, poetry: the index and the file host. */
  "@pypi": ["pypi.org", "files.pythonhosted.org"],
  /** cargo: the sparse index, the API and the crate downloads. */
  "@crates": ["index.crates.io", "crates.io", "static.crates.io"],
  /** go: the module proxy and the checksum database. */
  "@go": ["proxy.golang.org", "sum.golang.org"],
  /** Maven Central, for mvn and gradle. */
  "@maven": ["repo.maven.apache.org", "repo1.maven.org"],
};

export const WRITE_PRESETS: Readonly<Record<string, readonly string[]>> = {
  /**
   * Download caches only, never configuration (`~/.npmrc`, `~/.cargo/config.toml` stay read-only).
   * On macOS some of the same tools keep them under `~/Library/Caches` (and pnpm its store under
   * `~/Library/pnpm`): those are listed by name, never `~/Library/Caches` as a whole, where other
   * applications keep caches they later load and trust.
   */
  "@package-caches": [
    "~/.npm",
    "~/.cache/yarn",
    "~/Library/Caches/Yarn",
    "~/.cache/pnpm",
    "~/Library/Caches/pnpm",
    "~/.local/share/pnpm/store",
    "~/Library/pnpm/store",
    "~/.bun/install/cache",
    "~/.cache/pip",
    "~/Library/Caches/pip",
    "~/.cache/uv",
    "~/.cache/pypoetry",
    "~/Library/Caches/pypoetry",
    "~/.cargo/registry",
    "~/.cargo/git",
    "~/go/pkg/mod",
    "~/.cache/go-build",
    "~/Library/Caches/go-build",
    "~/.m2/repository",
    "~/.gradle/caches",
  ],
};

export const isPreset = (entry: string) => entry.startsWith("@");

/**
 * `allowNet` and `allowWrite` with every preset replaced: a registry preset by its hosts, a cache
 * preset by those of its directories that exist under `home` (a cache a tool never made is not
 * created here: the tool's first run outside the sandbox makes it, or `mkdir -p` once). Unknown
 * presets are dropped and named in `problems`.
 *
 * @example expandPresets({ allowNet: ["@npm"], allowWrite: ["@package-caches"] }, homedir())
 */
export function expandPresets(
  settings: { allowNet?: readonly string[]; allowWrite?: readonly string[] },
  home: string,
  exists: (path: string) => boolean = existsSync,
): { allowNet: string[]; allowWrite: string[]; problems: string[] } {
  const problems: string[] = [];
  const expand = (
    entries: readonly string[],
    table: Readonly<Record<string, readonly string[]>>,
    field: string,
    keep: (value: string) => boolean = () => true,
  ) =>
    unique(entries.flatMap((entry) => {
      if (!isPreset(entry)) return [entry];
      const found = Object.hasOwn(table, entry) ? table[entry] : undefined;
      if (!found) problems.push(unknownPreset(field, entry));
      return (found ?? []).filter(keep);
    }));
  return {
    allowNet: expand(settings.allowNet ?? [], NET_PRESETS, "allowNet"),
    allowWrite: expand(
      settings.allowWrite ?? [],
      WRITE_PRESETS,
      "allowWrite",
      (path) => exists(join(home, path.slice(2))),
    ),
    problems,
  };
}

/** The message for a preset name nobody defined, naming the ones that exist. */
export function unknownPreset(field: string, name: string): string {
  const table = field === "allowNet" ? NET_PRESETS : WRITE_PRESETS;
  return `unknown ${field} preset ${name}; known: ${Object.keys(table).join(", ")}`;
}

const unique = (values: string[]) => [...new Set(values)];
