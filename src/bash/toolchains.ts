/**
 * Programs that are proxies: the program that really runs is picked by a file in the directory
 * they run in or above it. rustup's proxies obey `rust-toolchain.toml`, whose `path` may name any
 * directory: with `[toolchain] path = "/abs/dir"` in the workspace, `cargo --version` ran
 * `/abs/dir/bin/cargo` (verified with rustup 1.29). Policy looks for the files when it checks.
 */

/** Reviewed data: each proxy family, its programs and the files that pick what they run. */
const TOOLCHAIN_FILES: readonly { programs: readonly string[]; files: readonly string[] }[] = [
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
  },
];

export const TOOLCHAIN_PROGRAMS: ReadonlySet<string> = new Set(TOOLCHAIN_FILES.flatMap((t) => t.programs));

/** The files that pick what `program` runs. */
export function toolchainFiles(program: string): readonly string[] {
  return TOOLCHAIN_FILES.find((t) => t.programs.includes(program))?.files ?? [];
}
