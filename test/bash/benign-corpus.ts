/** Locates the benign command corpus in the shared folder beside the repository (or a worktree of it). */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";

const ROOT = join(import.meta.dir, "../..");
const CANDIDATES = [
  process.env.TOOLRT_SHARED_DIR,
  join(ROOT, "../shared"),
  join(ROOT, "../../shared"),
].filter((dir): dir is string => dir !== undefined);

export function benignCommands(): string[] {
  const dir = CANDIDATES.find((d) => existsSync(join(d, "data/benign-commands.txt")));
  if (!dir) {
    throw new Error(`benign-commands.txt not found in ${CANDIDATES.join(", ")}; set TOOLRT_SHARED_DIR`);
  }
  return readFileSync(join(dir, "data/benign-commands.txt"), "utf8").split("\n").filter((l) => l !== "");
}
