/**
 * Files in a workspace that run, or steer what runs, later and without anyone reading them first: a
 * hook at the next commit, direnv on `cd`, an install script, CI on the next push, the next agent's
 * instructions. A sandboxed command may change most of them (editing a Makefile is normal work), so
 * the ones it changed are reported with its result; the ones nobody edits in normal work are also
 * read-only in the sandbox (`protect`), like shell rc files.
 *
 * `path` is relative to the workspace: a plain path names one file; a trailing `/` every file below
 * that directory; `*` in a component matches within one directory (`.github/workflows/*`).
 */

export interface AutorunFile {
  path: string;
  /** Who runs it, and when. */
  runs: string;
  /** Read-only inside the sandbox (a missing one is protected from its first missing component). */
  protect?: boolean;
  /** Only this part of a JSON file matters (`package.json`'s `scripts`, not its dependencies). */
  jsonKey?: string;
}

export const AUTORUN_FILES: readonly AutorunFile[] = [
  { path: ".husky/", runs: "husky's git hooks, at the next commit, push or checkout", protect: true },
  { path: ".envrc", runs: "direnv, on entering the directory", protect: true },
  { path: ".devcontainer/", runs: "the editor, building and starting the dev container", protect: true },
  { path: ".claude/skills/", runs: "the next agent session, as skills it may load", protect: true },
  {
    path: "package.json",
    jsonKey: "scripts",
    runs: "npm, yarn and pnpm lifecycle scripts (install, prepare, test)",
  },
  { path: ".npmrc", runs: "npm, as configuration that can name the shell and node options of scripts" },
  { path: ".yarnrc.yml", runs: "yarn, which runs the file its yarnPath names" },
  { path: "Makefile", runs: "make" },
  { path: "makefile", runs: "make" },
  { path: "GNUmakefile", runs: "make" },
  { path: ".pre-commit-config.yaml", runs: "pre-commit's hooks, at the next commit" },
  { path: ".github/workflows/*", runs: "GitHub Actions, at the next push" },
  { path: ".gitlab-ci.yml", runs: "GitLab CI, at the next push" },
  { path: ".venv/lib/*/site-packages/*.pth", runs: "every start of the virtualenv's Python" },
  { path: "venv/lib/*/site-packages/*.pth", runs: "every start of the virtualenv's Python" },
  { path: "CLAUDE.md", runs: "the next agent session, as its instructions" },
  { path: "CLAUDE.local.md", runs: "the next agent session, as its instructions" },
  { path: "AGENTS.md", runs: "the next agent session, as its instructions" },
  { path: "GEMINI.md", runs: "the next agent session, as its instructions" },
  { path: ".cursorrules", runs: "the next Cursor session, as its instructions" },
  { path: ".cursor/rules/", runs: "the next Cursor session, as its instructions" },
  { path: ".github/copilot-instructions.md", runs: "the next Copilot session, as its instructions" },
  { path: ".claude/settings.json", runs: "the next agent session: hooks, permissions, MCP servers" },
  { path: ".claude/settings.local.json", runs: "the next agent session: hooks, permissions, MCP servers" },
  { path: ".mcp.json", runs: "the next agent session, which starts the MCP servers it lists" },
  { path: ".vscode/tasks.json", runs: "the editor's tasks, some on opening the folder" },
  { path: ".vscode/settings.json", runs: "the editor, as settings that can name programs it runs" },
  { path: "rust-toolchain.toml", runs: "cargo and rustc, whose toolchain `path` may be any directory" },
  { path: "rust-toolchain", runs: "cargo and rustc, whose toolchain `path` may be any directory" },
  { path: "mise.toml", runs: "mise, whose tools may be `path:` directories and whose hooks run on entering" },
  {
    path: ".mise.toml",
    runs: "mise, whose tools may be `path:` directories and whose hooks run on entering",
  },
  { path: ".tool-versions", runs: "mise and asdf, which pick the programs that run (mise takes `path:`)" },
];
