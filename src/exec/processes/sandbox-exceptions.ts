/**
 * Narrow exceptions to the sandbox that a person grants while commands run, never the whole
 * sandbox: a host the proxy is about to refuse (asked while the command waits for it), a path a
 * failed command could not write (asked after it failed; on yes it runs again with that path
 * writable). "once" is for that command, "session" for the rest of the runtime, "always" also
 * records a session grant for the workspace (loaded as the `session` source next time). Without a
 * person to ask, nothing is asked: the host is refused and the result names it and the exception.
 */
import type { SandboxPolicy } from "../../policy/sandbox-policy.ts";
import { addSandboxGrant, type SandboxGrants } from "../../policy/session-grants.ts";
import { blockedWrites } from "../../sandbox/explain.ts";
import { buildSandboxProfile, type SandboxProfile } from "../../sandbox/profile.ts";
import type { HostAsker } from "../../sandbox/proxy.ts";
import { narrowWriteGrant } from "../../sandbox/write-grant.ts";

/** One thing the sandbox blocks that a person may allow. */
export type SandboxQuestion =
  | { kind: "host"; host: string; port: number; command: string }
  /** `path` is what would be granted (the narrow exception), `blocked` what the command tried to write. */
  | { kind: "write"; path: string; blocked: string; command: string };

export type SandboxAnswer = "once" | "session" | "always" | "no";

/** Puts a question to a person; whatever fails to answer counts as "no". */
export type SandboxAsker = (question: SandboxQuestion) => Promise<SandboxAnswer>;

/** What a failed command needs to run again: the path a person allowed, and a sentence for the result. */
export interface Retry {
  allowWrite: string[];
  notice: string;
}

const FOR: Record<Exclude<SandboxAnswer, "no">, string> = {
  once: "for this command",
  session: "for this session",
  always: "from now on in this workspace",
};

export class SandboxExceptions {
  private readonly granted: SandboxGrants = { allowNet: [], allowWrite: [] };
  private current: SandboxProfile;

  constructor(
    private readonly policy: SandboxPolicy,
    private readonly workspace: string,
    private readonly options: { home: string; asker?: SandboxAsker; stateDir?: string },
  ) {
    this.current = this.build([]);
  }

  /** Whether a person is there to ask (hosts not on the list are then asked for, not refused). */
  get asks(): boolean {
    return this.options.asker !== undefined;
  }

  /** The profile with this session's grants, plus paths granted once for one command. */
  profile(onceWrites: readonly string[] = []): SandboxProfile {
    return onceWrites.length ? this.build(onceWrites) : this.current;
  }

  /** The proxy's question for a host not on the list, for one command; none without a person. */
  hostAsker(command: string): HostAsker | undefined {
    const ask = this.options.asker;
    if (!ask) return undefined;
    return async (host, port) => {
      const answer = await ask({ kind: "host", host, port, command }).catch((): SandboxAnswer => "no");
      // An IPv6 literal goes on the list bracketed, as the allow-list spells it.
      this.remember("allowNet", host.includes(":") && !host.startsWith("[") ? `[${host}]` : host, answer);
      return answer !== "no";
    };
  }

  /**
   * After a command failed: the narrow write exception for the first path the sandbox blocked, put
   * to a person; a retry when they allowed it. None without a person, or with nothing to offer.
   */
  async retryAfter(command: string, failure: { output: string; cwd: string }, profile: SandboxProfile) {
    const ask = this.options.asker;
    const [blocked] = blockedWrites(failure, profile);
    const path = blocked === undefined ? undefined : narrowWriteGrant(blocked, this.options.home);
    if (!ask || blocked === undefined || path === undefined) return null;
    const answer = await ask({ kind: "write", path, blocked, command }).catch((): SandboxAnswer => "no");
    if (answer === "no") return null;
    this.remember("allowWrite", path, answer);
    return {
      allowWrite: [path],
      notice: `The sandbox blocked writing ${blocked}; the user allowed writing ${path} ${
        FOR[answer]
      }, and the command ran again.`,
    } satisfies Retry;
  }

  private remember(list: keyof SandboxGrants, value: string, answer: SandboxAnswer): void {
    if (answer !== "session" && answer !== "always") return;
    if (!this.granted[list].includes(value)) this.granted[list].push(value);
    this.current = this.build([]);
    if (answer === "always" && this.options.stateDir) {
      addSandboxGrant(this.options.stateDir, this.workspace, list, value);
    }
  }

  private build(onceWrites: readonly string[]): SandboxProfile {
    const settings = {
      ...this.policy,
      allowNet: [...this.policy.allowNet, ...this.granted.allowNet],
      allowWrite: [...this.policy.allowWrite, ...this.granted.allowWrite, ...onceWrites],
    };
    return buildSandboxProfile(settings, this.workspace, { home: this.options.home });
  }
}
