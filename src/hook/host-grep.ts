/**
 * A host's own Grep (Claude Code's, gemini-cli's) prints what it finds, and toolrt cannot leave
 * files out of its output as it does for its own Grep (`ctx.readGuard`). So an allowed search asks
 * when the files it would look into (the walk toolrt's Grep makes: hidden files searched,
 * `.gitignore` honoured, `glob` and `type` applied) include one a Read deny or ask rule covers.
 */
import { resolve } from "node:path";
import type { GlobalOptions } from "../cli/options.ts";
import { permissionModeOf } from "../cli/options.ts";
import type { Policy } from "../policy/policy.ts";
import { readRuleFor } from "../policy/read-guard.ts";
import type { Decision } from "../policy/types.ts";
import { searchedFiles } from "../tools/grep/builtin-engine.ts";
import { displayPath } from "../tools/shared/paths.ts";

/** Past this many files searched, toolrt does not look further and asks. */
const MAX_FILES_CHECKED = 10_000;
/** How many covered files a reason names. */
const NAMED = 5;

interface GrepInput {
  path?: unknown;
  glob?: unknown;
  type?: unknown;
}

/** The decision for a host's Grep: `allowed` unless it would search files a Read rule covers. */
export async function hostGrepDecision(
  allowed: Decision,
  input: unknown,
  policy: Policy,
  globals: GlobalOptions,
): Promise<Decision> {
  if (allowed.decision !== "allow") return allowed;
  const given = (input ?? {}) as GrepInput;
  const text = (v: unknown) => (typeof v === "string" && v !== "" ? v : undefined);
  const root = resolve(globals.cwd, text(given.path) ?? ".");
  const place = {
    cwd: globals.cwd,
    additionalDirs: [],
    mode: permissionModeOf(globals.mode),
  };
  const covered: string[] = [];
  let count = 0;
  try {
    for await (
      const path of searchedFiles({
        pattern: "",
        root,
        caseInsensitive: false,
        multiline: false,
        before: 0,
        after: 0,
        ...(text(given.glob) ? { glob: text(given.glob)! } : {}),
        ...(text(given.type) ? { type: text(given.type)! } : {}),
      })
    ) {
      if (++count > MAX_FILES_CHECKED) {
        return asks(
          allowed,
          `the search covers more than ${MAX_FILES_CHECKED} files, too many to check for ones a Read rule covers; narrow its path or glob`,
        );
      }
      const rule = readRuleFor(policy, path, place);
      if (rule !== undefined) covered.push(`${displayPath(path, globals.cwd)} (${rule})`);
    }
  } catch (error) {
    // A path that does not exist: the host's Grep fails and prints nothing.
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return allowed;
    return asks(allowed, `toolrt could not list the files the search covers (${(error as Error).message})`);
  }
  if (covered.length === 0) return allowed;
  const named = covered.slice(0, NAMED).join(", ") +
    (covered.length > NAMED ? `, and ${covered.length - NAMED} more` : "");
  return asks(
    allowed,
    `the host's Grep would search files a Read rule keeps from being shown without a person, and toolrt cannot leave them out of its output: ${named}`,
  );
}

/** A person's ask: the host's own flow would let its Grep run unasked (Claude Code does). */
function asks(allowed: Decision, reason: string): Decision {
  return { ...allowed, decision: "ask", hardAsk: true, reason };
}
