/**
 * Paths that stay read-only inside every writable root, whatever the settings say: things another
 * program (the user's shell, git, an editor, an agent) later runs or trusts without asking.
 */
import { AUTORUN_FILES } from "./autorun-files.ts";

export interface ProtectedEntry {
  /** Relative to a writable root, `/`-separated. */
  path: string;
  /** A file or a directory (for sandboxes that guard a name before it exists). */
  kind: "file" | "dir";
  /** Only protected when the root's `.git` is a directory (so `git init` keeps working). */
  insideGitDir?: boolean;
}

const SHELL_RC_FILES = [
  ".bashrc",
  ".bash_profile",
  ".bash_login",
  ".bash_logout",
  ".profile",
  ".zshrc",
  ".zshenv",
  ".zprofile",
  ".zlogin",
  ".zlogout",
];

/**
 * What git reads hooks, config or the location of the rest of a repository from, relative to a git
 * directory (a `.git`, a submodule's `.git/modules/<name>`, a worktree's `.git/worktrees/<name>`).
 */
export const GIT_DIR_PROTECTED: readonly ProtectedEntry[] = [
  { path: "hooks", kind: "dir" }, // run by commit, checkout, merge, push ...
  { path: "config", kind: "file" }, // core.hooksPath, core.fsmonitor, aliases, filters, pagers
  { path: "config.worktree", kind: "file" }, // the same, per worktree (extensions.worktreeConfig)
  { path: "commondir", kind: "file" }, // where config and hooks are read from instead
];

/** Shell rc files, git hooks and config, editor and agent settings, MCP server lists, autorun files. */
export const MANDATORY_PROTECTED: readonly ProtectedEntry[] = [
  ...SHELL_RC_FILES.map((path) => ({ path, kind: "file" as const })),
  { path: ".gitconfig", kind: "file" },
  { path: ".gitmodules", kind: "file" },
  ...GIT_DIR_PROTECTED.map((e) => ({ ...e, path: `.git/${e.path}`, insideGitDir: true })),
  { path: ".mcp.json", kind: "file" },
  { path: ".toolrt", kind: "dir" },
  { path: ".claude/settings.json", kind: "file" },
  { path: ".claude/settings.local.json", kind: "file" },
  { path: ".claude/commands", kind: "dir" },
  { path: ".claude/agents", kind: "dir" },
  { path: ".vscode", kind: "dir" },
  { path: ".idea", kind: "dir" },
  // Files that run later and that nobody edits in normal work (husky hooks, .envrc, the dev container).
  ...AUTORUN_FILES.filter((f) => f.protect).map((f): ProtectedEntry =>
    f.path.endsWith("/") ? { path: f.path.slice(0, -1), kind: "dir" } : { path: f.path, kind: "file" }
  ),
];

/** The entries that apply to a nested repository found at `gitDir` (relative to its root). */
export function nestedGitEntries(gitDir: string): ProtectedEntry[] {
  return GIT_DIR_PROTECTED.map((e) => ({ ...e, path: `${gitDir}/${e.path}`, insideGitDir: true }));
}
