/**
 * Submodules of the workspace's own repository whose configuration runs programs. `git status`,
 * `git diff` and most other commands go into each checked-out submodule and read its
 * configuration: an embedded repository committed as a gitlink, with a `core.fsmonitor` in its
 * own `.git/config`, runs that program on a plain `git status` of the workspace (verified, git
 * 2.39). The gitlinks come from the index (read here, no git process); a submodule whose
 * configuration holds only the keys git itself writes for one is trusted.
 */
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import { NEW_REPO_CONFIG_KEYS } from "../sandbox/quarantine.ts";

/** A gitlink's mode (0o160000) as the index stores it, big-endian. */
const GITLINK_MODE = Buffer.from([0, 0, 0xe0, 0]);

/** Why a submodule of the repository at `root` (its `.git` a directory) is not trusted; undefined when none is. */
export function untrustedSubmodule(root: string): string | undefined {
  let index: Buffer;
  try {
    index = readFileSync(join(root, ".git", "index"));
  } catch {
    return undefined;
  }
  // Most indexes hold no gitlink: the mode's four bytes appear nowhere (one native search), no walk.
  if (index.indexOf(GITLINK_MODE) === -1) return undefined;
  const links = gitlinks(index);
  if (links === undefined) return "git's index could not be read to find the submodules git status goes into";
  for (const link of links) {
    const gitDir = submoduleGitDir(join(root, link));
    if (gitDir === undefined) continue;
    const keys = configKeys(join(gitDir, "config"));
    if (keys === null) return `the configuration of the submodule ${link} could not be read`;
    const odd = keys.find((key) => !submoduleKey(key));
    if (odd !== undefined) {
      return `git goes into the submodule ${link}, whose configuration sets ${odd}: it can run programs (core.fsmonitor, hooks, aliases)`;
    }
    if (existsSync(join(gitDir, "hooks")) && hasHooks(join(gitDir, "hooks"))) {
      return `git goes into the submodule ${link}, which has hooks of its own`;
    }
  }
  return undefined;
}

/** The paths of the gitlinks (mode 160000) in a git index, versions 2 to 4; undefined when it is not one. */
export function gitlinks(index: Buffer): string[] | undefined {
  if (index.length < 12 || index.toString("latin1", 0, 4) !== "DIRC") return undefined;
  const version = index.readUInt32BE(4);
  if (version < 2 || version > 4) return undefined;
  const count = index.readUInt32BE(8);
  const found: string[] = [];
  let offset = 12;
  let previous = "";
  try {
    for (let n = 0; n < count; n++) {
      const start = offset;
      const mode = index.readUInt32BE(start + 24);
      const flags = index.readUInt16BE(start + 60);
      let at = start + 62 + (version >= 3 && (flags & 0x4000) !== 0 ? 2 : 0);
      let path: string;
      if (version === 4) {
        // The name is the previous one less N bytes at its end, then these bytes (N a varint).
        let byte = index[at++]!;
        let strip = byte & 127;
        while (byte & 128) {
          byte = index[at++]!;
          strip = ((strip + 1) << 7) | (byte & 127);
        }
        const end = index.indexOf(0, at);
        if (end === -1) return undefined;
        path =
          Buffer.from(previous, "utf8").subarray(0, Buffer.byteLength(previous) - strip).toString("utf8") +
          index.toString("utf8", at, end);
        offset = end + 1;
      } else {
        const end = index.indexOf(0, at);
        if (end === -1) return undefined;
        path = index.toString("utf8", at, end);
        // Entries are padded with 1 to 8 NULs to a multiple of eight bytes.
        offset = start + ((end - start + 8) & ~7);
      }
      previous = path;
      if ((mode & 0o170000) === 0o160000) found.push(path);
    }
  } catch {
    return undefined;
  }
  return found;
}

/** The git directory of a checked-out submodule: its `.git` directory, or where its `.git` file points. */
function submoduleGitDir(dir: string): string | undefined {
  const dotGit = join(dir, ".git");
  try {
    if (statSync(dotGit).isDirectory()) return dotGit;
    const pointer = /^gitdir:\s*(.+)$/m.exec(readFileSync(dotGit, "utf8"))?.[1]?.trim();
    return pointer === undefined ? undefined : resolve(dir, pointer);
  } catch {
    return undefined;
  }
}

/** A key git writes for a submodule or a new repository (`quarantine.ts`), or the submodule's checkout. */
function submoduleKey(key: string): boolean {
  if (key === "core.worktree") return true;
  const first = key.indexOf(".");
  const last = key.lastIndexOf(".");
  const shape = first === last ? key : `${key.slice(0, first)}.*${key.slice(last)}`;
  return NEW_REPO_CONFIG_KEYS.includes(shape);
}

/** The keys of a config file, lower-cased, as git reads it without includes; [] when it is absent, null when unreadable. */
function configKeys(path: string): string[] | null {
  if (!existsSync(path)) return [];
  const run = spawnSync("git", ["config", "--no-includes", "--file", path, "--null", "--list"], {
    encoding: "utf8",
    timeout: 5000,
    env: { PATH: process.env.PATH ?? "/usr/bin:/bin", GIT_CONFIG_NOSYSTEM: "1", HOME: "/nonexistent" },
  });
  if (run.status !== 0) return null;
  return run.stdout.split("\0").filter(Boolean).map((item) => item.split("\n", 1)[0]!.toLowerCase());
}

function hasHooks(dir: string): boolean {
  try {
    return readdirSync(dir).some((name) => !name.endsWith(".sample"));
  } catch {
    return false;
  }
}
