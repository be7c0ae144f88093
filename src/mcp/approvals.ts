/**
 * Approvals of project `.mcp.json` servers, recorded in the state dir per workspace. An approval
 * covers the exact configuration approved: a changed command or URL needs approving again.
 */
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { writeJsonAtomically } from "../policy/json-file.ts";
import type { McpServerConfig } from "./config.ts";

interface ApprovalFile {
  version: 1;
  /** Workspace root → server name → fingerprint of the approved config. */
  workspaces: Record<string, Record<string, string>>;
}

function approvalsPath(stateDir: string): string {
  return join(stateDir, "mcp-approvals.json");
}

/** A stable fingerprint of a server config (keys sorted, so reordering a file changes nothing). */
function fingerprint(config: McpServerConfig): string {
  const canonical = JSON.stringify(
    config,
    (_, value) =>
      value && typeof value === "object" && !Array.isArray(value)
        ? Object.fromEntries(Object.entries(value).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
        : value,
  );
  return createHash("sha256").update(canonical).digest("hex");
}

export type ApprovalState = "approved" | "not-approved" | "changed";

export class McpApprovals {
  readonly #file: string;

  constructor(stateDir: string) {
    this.#file = approvalsPath(stateDir);
  }

  stateOf(workspace: string, name: string, config: McpServerConfig): ApprovalState {
    const recorded = this.#read().workspaces[workspace]?.[name];
    if (recorded === undefined) return "not-approved";
    return recorded === fingerprint(config) ? "approved" : "changed";
  }

  approve(workspace: string, name: string, config: McpServerConfig): void {
    this.#update(workspace, (servers) => {
      servers[name] = fingerprint(config);
    });
  }

  revoke(workspace: string, name: string): void {
    this.#update(workspace, (servers) => {
      delete servers[name];
    });
  }

  #read(): ApprovalFile {
    try {
      const parsed = JSON.parse(readFileSync(this.#file, "utf8")) as Partial<ApprovalFile>;
      return { version: 1, workspaces: parsed.workspaces ?? {} };
    } catch {
      // Missing or unreadable: nothing is approved, which is the safe reading.
      return { version: 1, workspaces: {} };
    }
  }

  #update(workspace: string, change: (servers: Record<string, string>) => void): void {
    const file = this.#read();
    const servers = (file.workspaces[workspace] ??= {});
    change(servers);
    writeJsonAtomically(this.#file, file);
  }
}
