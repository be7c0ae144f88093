/** Permission modes and the paths no mode but bypassPermissions writes without asking. */
import type { PermissionMode } from "../tool/types.ts";

export const PERMISSION_MODES = [
  "default",
  "acceptEdits",
  "plan",
  "bypassPermissions",
  "dontAsk",
] as const satisfies readonly PermissionMode[];

const PROTECTED_DIRS = new Set([
  ".git",
  ".vscode",
  ".idea",
  ".husky",
  ".cargo",
  ".devcontainer",
  ".yarn",
  ".mvn",
  ".claude",
]);

const PROTECTED_FILES = new Set([
  ".gitconfig",
  ".gitmodules",
  ".bashrc",
  ".bash_profile",
  ".bash_login",
  ".bash_aliases",
  ".bash_logout",
  ".zshrc",
  ".zprofile",
  ".zshenv",
  ".zlogin",
  ".zlogout",
  ".profile",
  ".envrc",
  ".npmrc",
  ".yarnrc",
  ".yarnrc.yml",
  ".pnp.cjs",
  ".pnp.loader.mjs",
  ".pnpmfile.cjs",
  "bunfig.toml",
  ".bunfig.toml",
  ".bazelrc",
  ".bazelversion",
  ".bazeliskrc",
  ".pre-commit-config.yaml",
  "lefthook.yml",
  "lefthook.yaml",
  ".lefthook.yml",
  ".lefthook.yaml",
  "gradle-wrapper.properties",
  "maven-wrapper.properties",
  ".devcontainer.json",
  ".ripgreprc",
  "pyrightconfig.json",
  ".mcp.json",
  ".claude.json",
  // Toolchain files that may name the program that runs: rustup's `[toolchain] path`, mise's
  // `path:` versions and hooks (mise also reads .tool-versions).
  "rust-toolchain",
  "rust-toolchain.toml",
  "mise.toml",
  ".mise.toml",
  ".tool-versions",
]);

/**
 * Protected paths (claude-code-compat.md §4): writes ask in every mode but bypassPermissions, and
 * allow rules do not pre-approve them. `.claude/worktrees` is the one exception inside `.claude`.
 */
export function isProtectedPath(absolutePath: string): boolean {
  const segments = absolutePath.split("/").filter(Boolean);
  const name = segments.at(-1) ?? "";
  if (PROTECTED_FILES.has(name)) return true;
  return segments.some((segment, i) => {
    const dirHasChild = i < segments.length - 1;
    if (segment === ".claude") return !(dirHasChild && segments[i + 1] === "worktrees");
    if (segment === "git" && segments[i - 1] === ".config") return true;
    return PROTECTED_DIRS.has(segment);
  });
}

/** Tools whose calls count as file edits for acceptEdits and whose rules are `Edit(...)` rules. */
export const EDIT_TOOLS = new Set(["Edit", "Write", "NotebookEdit", "MultiEdit"]);
/** Tools covered by `Read(...)` rules. */
export const READ_TOOLS = new Set(["Read", "Grep", "Glob", "LS"]);
/** Bash commands acceptEdits runs without asking when every path they write is inside the workspace. */
export const ACCEPT_EDITS_COMMANDS = new Set(["mkdir", "touch", "rm", "rmdir", "mv", "cp"]);
