/**
 * A PATH on which some programs are missing, as on a machine that lacks them: one temp directory of
 * symbolic links to every other program the given PATH finds (the first of each name wins).
 */
import { mkdtempSync, readdirSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export function pathWithout(programs: readonly string[], path = process.env.PATH ?? ""): string {
  const bin = mkdtempSync(join(tmpdir(), "toolrt-path-"));
  const seen = new Set(programs);
  for (const dir of path.split(":").filter(Boolean)) {
    let names: string[];
    try {
      names = readdirSync(dir);
    } catch {
      continue;
    }
    for (const name of names) {
      if (seen.has(name)) continue;
      seen.add(name);
      symlinkSync(join(dir, name), join(bin, name));
    }
  }
  return bin;
}
