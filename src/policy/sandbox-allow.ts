/**
 * The sandbox as the allow list. A shell call that will run inside toolrt's sandbox needs no
 * prompt when the only thing in its way is "no rule allows it": the sandbox confines its writes to
 * the writable paths and its network to the allow-list, so what it could do unasked is what the
 * sandbox lets it do. `decide` asks this only after every deny and ask rule, catastrophe, security
 * check and protected path has had its say, so none of those can be skipped here. Pure.
 */
import { isHostAllowed } from "../sandbox/host-allow.ts";
import { isInside } from "../tool/paths.ts";
import { hostCommand } from "./host-commands.ts";
import type { DecisionRequest, SandboxContext } from "./types.ts";

export type Containment =
  | { contained: true; reason: string; needsPerson: string[] }
  | { contained: false; why: string };

/** Whether the sandbox may stand in for the person on this call, and what it will still block. */
export function containment(request: DecisionRequest, sandbox: SandboxContext): Containment {
  if (sandbox.autoAllowOff) return { contained: false, why: sandbox.autoAllowOff };
  if (sandbox.escapeRequested) {
    return {
      contained: false,
      why:
        "the call asks to run outside the sandbox (dangerouslyDisableSandbox), so the sandbox is no reason to skip the prompt",
    };
  }
  if (sandbox.refusals?.length) {
    return {
      contained: false,
      why: `the sandbox cannot enforce its profile here (${sandbox.refusals.join("; ")})`,
    };
  }
  const bash = request.bash;
  if (!bash) {
    return {
      contained: false,
      why: "the command was not analysed, so the sandbox cannot vouch for its parts",
    };
  }
  for (const command of bash.commands) {
    const wrapper = command.via?.split(" ")[0];
    const host = hostCommand(command.argv[0] ?? "") ?? (wrapper ? hostCommand(wrapper) : undefined);
    if (host) {
      return {
        contained: false,
        why:
          `${host.name} ${host.reason}: the sandbox cannot contain it (to run it outside, a person adds it to sandbox.excludedCommands)`,
      };
    }
  }
  // A repository or toolchain file the workspace does not vouch for picks programs (hooks, an
  // fsmonitor, aliases, a toolchain) that may do what deny and ask rules or the work-loss guard stop.
  const untrusted = request.paths.find((p) => p.untrusted !== undefined && !p.network);
  if (untrusted) return { contained: false, why: untrusted.untrusted! };
  return {
    contained: true,
    reason: `runs in the sandbox: ${limits(sandbox)}`,
    needsPerson: blocked(request, sandbox),
  };
}

function limits(sandbox: SandboxContext): string {
  const writes = `writes limited to ${sandbox.writable.join(", ")} (and a private $TMPDIR)`;
  const listed = sandbox.allowNet.length > 6
    ? `${sandbox.allowNet.slice(0, 6).join(", ")} and ${sandbox.allowNet.length - 6} more`
    : sandbox.allowNet.join(", ");
  const network = sandbox.allowNet.length === 0
    ? sandbox.asksForHosts ? "network only to hosts a person allows when asked" : "network off"
    : `network limited to ${listed}${sandbox.asksForHosts ? " (other hosts are put to a person)" : ""}`;
  return `${writes}, ${network}`;
}

/** What the command visibly tries that the sandbox will block, each with the exception to grant. */
function blocked(request: DecisionRequest, sandbox: SandboxContext): string[] {
  const found: string[] = [];
  for (const access of request.paths) {
    const path = access.target ?? access.path;
    const hidden = sandbox.denyRead.find((dir) => isInside(path, dir));
    if (hidden) {
      found.push(
        sandbox.credentials?.includes(hidden)
          ? `reading ${access.path}: a credential location the sandbox hides by default (sandbox.allowRead lets it through)`
          : `reading ${access.path}: hidden by the sandbox (sandbox.denyRead ${hidden})`,
      );
    } else if (access.access === "write" && !sandbox.writable.some((dir) => isInside(path, dir))) {
      found.push(
        `writing ${access.path}: outside the writable paths; a person can grant it (sandbox.allowWrite)`,
      );
    }
  }
  const hosts = new Set((request.bash?.commands ?? []).flatMap((c) => c.argv.flatMap(hostsIn)));
  for (const { host, port } of [...hosts].map(parseHost)) {
    if (isHostAllowed(host, port, sandbox.allowNet)) continue;
    found.push(
      sandbox.asksForHosts
        ? `reaching ${host}: a person is asked when the command connects`
        : `reaching ${host}: not in the network allow-list; a person can grant it (sandbox.allowNet)`,
    );
  }
  return [...new Set(found)];
}

const URL = /^[a-z][a-z0-9+.-]*:\/\/(?:[^/@\s]*@)?(\[[^\]\s]+\]|[^/:?#\s]+)(?::(\d+))?/i;
const SCP_LIKE = /^[\w.-]+@([\w-]+(?:\.[\w-]+)+):/;

/** Hosts a word names as a URL (`https://host/...`) or an scp-like remote (`git@host:path`), as `host:port`. */
function hostsIn(word: string): string[] {
  const url = URL.exec(word);
  if (url) {
    const scheme = word.slice(0, word.indexOf(":")).toLowerCase();
    const port = url[2] ??
      (scheme === "http" ? "80" : scheme === "ssh" || scheme === "git+ssh" ? "22" : "443");
    return [`${url[1]!.toLowerCase()} ${port}`];
  }
  const scp = SCP_LIKE.exec(word);
  return scp ? [`${scp[1]!.toLowerCase()} 22`] : [];
}

function parseHost(key: string): { host: string; port: number } {
  const [host = "", port = "443"] = key.split(" ");
  return { host, port: Number(port) };
}
