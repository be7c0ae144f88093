/**
 * Whether a file a search tool came across may be shown without a person: the Read tool's own
 * decision for it. Grep prints file contents, so a file a Read deny or ask rule covers (`.env.*`,
 * `*.key`, `Read(./secrets/**)`) is left out of its results rather than printed.
 */
import type { PermissionMode } from "../tool/types.ts";
import { decide } from "./decide.ts";
import type { Policy } from "./policy.ts";
import { buildRequest } from "./request.ts";

export interface ReadPlace {
  cwd: string;
  additionalDirs: string[];
  mode: PermissionMode;
}

/**
 * The deny or ask rule that keeps a Read of `path` from running without a person, as `Read(*.key)
 * asks`; undefined when a Read would run, or when only being outside the workspace stops it (the
 * search's own permission covered that).
 */
export function readRuleFor(policy: Policy, path: string, place: ReadPlace): string | undefined {
  const request = buildRequest(
    {
      tool: "Read",
      input: { file_path: path },
      cwd: place.cwd,
      additionalDirs: place.additionalDirs,
      mode: place.mode,
    },
    { readOnly: true },
  );
  const decision = decide(request, policy);
  if (decision.decision === "allow") return undefined;
  const rule = decision.matched.find((m) => m.effect !== "allow");
  return rule === undefined ? undefined : `${rule.rule} ${rule.effect === "deny" ? "denies" : "asks"}`;
}
