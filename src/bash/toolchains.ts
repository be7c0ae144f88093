/**
 * Programs whose behaviour a file in the directory they run in (or above it) picks: the program
 * that really runs, the host they contact, where they write. rustup's proxies obey `rust-toolchain.toml`, whose `path` may name any
 * directory: with `[toolchain] path = "/abs/dir"` in the workspace, `cargo --version` ran
 * `/abs/dir/bin/cargo` (verified with rustup 1.29). Policy looks for the files when it checks.
 */

/** Reviewed data: each family of programs, the files that pick what they run or reach, and why that matters. */
const TOOLCHAIN_FILES: readonly { programs: readonly string[]; files: readonly string[]; why: string }[] = [
  {
    programs: [
      "cargo",
      "rustc",
      "rustup",
      "rustdoc",
      "rustfmt",
      "cargo-fmt",
      "cargo-clippy",
      "clippy-driver",
    ],
    files: ["rust-toolchain", "rust-toolchain.toml"],
    why: "runs the toolchain FILE picks, which may be any program",
  },
  // With `registry=http://127.0.0.1:18766/ logs-dir=/tmp/x cache=/tmp/y` in a workspace .npmrc,
  // `npm ls` sent its update check to that host and wrote its debug log and stamp in /tmp/x and /tmp/y
  // (npm 10). yarn's `yarnPath` runs any script; bun reads bunfig.toml and .npmrc alike.
  {
    programs: ["npm", "npx", "pnpm"],
    files: [".npmrc"],
    why: "reads FILE, which picks the registry it contacts and where it writes its logs and cache",
  },
  {
    programs: ["yarn"],
    files: [".yarnrc.yml", ".yarnrc", ".npmrc"],
    why: "reads FILE, which may name the program yarn runs (yarnPath) and the registry it contacts",
  },
  {
    programs: ["bun", "bunx"],
    files: ["bunfig.toml", ".npmrc"],
    why: "reads FILE, which picks the registry it contacts and scripts it preloads",
  },
];

export const TOOLCHAIN_PROGRAMS: ReadonlySet<string> = new Set(TOOLCHAIN_FILES.flatMap((t) => t.programs));

/** The files that pick what `program` runs or reaches. */
export function toolchainFiles(program: string): readonly string[] {
  return TOOLCHAIN_FILES.find((t) => t.programs.includes(program))?.files ?? [];
}

/** Why a file found for `program` keeps it from running unasked (`FILE` stands for the file). */
export function toolchainWhy(program: string, file: string): string {
  const why = TOOLCHAIN_FILES.find((t) => t.programs.includes(program))?.why ?? "reads FILE";
  return `${program} ${why.replace("FILE", file)}`;
}
