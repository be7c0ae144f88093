/**
 * The files a patch writes, read from the patch when deciding: `git apply x.patch` writes every
 * file x.patch names (`diff --git a/F b/F`, `--- F`/`+++ F`, `rename to F`), and Edit deny and ask
 * rules meet each of them as they meet `echo x > F`. A patch that cannot be read (given on the
 * input, missing, too large) writes files below where it applies that are known only when it
 * runs: Edit deny and ask rules on anything there keep the sandbox from standing in
 * (`may-match.ts`).
 */
import { readFileSync, statSync } from "node:fs";
import { basename, resolve } from "node:path";
import type { PatchUse } from "../bash/types.ts";
import type { PathAccess } from "./types.ts";

/** Patches larger than this are not read: what they write counts as unknown. */
export const MAX_PATCH_BYTES = 4 * 1024 * 1024;

/**
 * The writes of one applied patch. `resolveDir` turns a directory as written into an absolute
 * path (undefined when it is known only at run time).
 */
export function patchWrites(
  use: PatchUse,
  resolveDir: (dir: string) => string | undefined,
  read: (path: string) => string | undefined = readPatch,
): PathAccess[] {
  const command = use.tool.split(" ")[0]!;
  return use.dirs.flatMap((written): PathAccess[] => {
    const dir = resolveDir(written);
    if (dir === undefined) return [];
    if (use.only !== undefined) return [{ path: resolve(dir, use.only), access: "write", command }];
    const unknown: PathAccess = {
      path: dir,
      access: "write",
      command,
      below: use.files.length === 0
        ? `${use.tool} writes the files named in the patch on its input, known only when it runs`
        : `${use.tool} writes the files named in ${use.files.join(", ")}, which could not be read`,
    };
    const inputs = (use.input ?? []).map(resolveDir);
    if (use.files.length === 0 && (inputs.length === 0 || inputs.includes(undefined))) return [unknown];
    const texts = use.files.length > 0
      ? use.files.map((file) => read(resolve(dir, file)))
      : inputs.map((input) => read(input!));
    if (texts.some((text) => text === undefined)) return [unknown];
    const base = use.prefix === undefined ? dir : resolve(dir, use.prefix);
    const names = texts.flatMap((text) => targetNames(text!, use.strip));
    return [...new Set(names)].map((name) => ({
      path: resolve(base, name),
      access: "write" as const,
      command,
    }));
  });
}

function readPatch(path: string): string | undefined {
  try {
    if (statSync(path).size > MAX_PATCH_BYTES) return undefined;
    return readFileSync(path, "utf8");
  } catch {
    return undefined;
  }
}

/**
 * The file names a patch writes, `strip` leading components removed from the names of its
 * headers (git's `rename`/`copy` lines are already bare). With no `strip` (GNU patch guessing),
 * each name stands as written, one component stripped, and by its base name.
 */
export function targetNames(text: string, strip: number | undefined): string[] {
  const names: string[] = [];
  const stripped = (name: string) => {
    const parts = name.split("/").filter((p) => p !== "");
    if (strip !== undefined) return strip >= parts.length ? [] : [parts.slice(strip).join("/")];
    return [parts.join("/"), parts.slice(1).join("/"), basename(name)].filter((n) => n !== "");
  };
  for (const line of text.split("\n")) {
    const git = /^diff --git ("(?:[^"\\]|\\.)*"|\S+) ("(?:[^"\\]|\\.)*"|\S+)/.exec(line);
    if (git) {
      names.push(...stripped(unquote(git[1]!)), ...stripped(unquote(git[2]!)));
      continue;
    }
    const header = /^(?:\+\+\+|---|\*\*\*) (.+)$/.exec(line);
    if (header) {
      const name = unquote(header[1]!.split("\t")[0]!.trim());
      if (name !== "/dev/null" && name !== "") names.push(...stripped(name));
      continue;
    }
    const moved = /^(?:rename|copy) (?:from|to) (.+)$/.exec(line);
    if (moved) names.push(unquote(moved[1]!.trim()));
  }
  return [...new Set(names)].filter((n) => !n.split("/").includes(".."));
}

/** git's C-style quoted names (`"a/x\ty"`); other names as they are. */
function unquote(name: string): string {
  if (!name.startsWith('"') || !name.endsWith('"')) return name;
  const escapes: Record<string, string> = { n: "\n", t: "\t", '"': '"', "\\": "\\" };
  return name.slice(1, -1).replace(
    /\\([0-7]{3}|.)/g,
    (_, c: string) => c.length === 3 ? String.fromCharCode(parseInt(c, 8)) : escapes[c] ?? c,
  );
}
