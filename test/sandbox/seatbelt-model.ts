/**
 * A model of how Seatbelt decides, for tests on machines without a Mac: the last rule whose
 * operation and filter match wins, `(deny default)` first. The caller gives the path Seatbelt would
 * see (symlinks resolved; for a name being created or renamed, the directories as they are on disk
 * and the last component as the program spelled it). scripts/macos-probe.sh checks the same cases on
 * a real Mac.
 */
import { isInside } from "../../src/tool/paths.ts";
import { parseSbpl, type SbplNode } from "../../src/sandbox/sbpl-check.ts";
import type { Sbpl } from "../../src/sandbox/sbpl.ts";
import type { EntryKind } from "../../src/sandbox/paths.ts";

export interface Context {
  /** Sandbox extensions the target carries (`com.apple.sandbox.pty` for a pty made inside). */
  extensions?: string[];
}

/** "allow" or "deny" for `operation` on `target` (a path, sysctl, service, `localhost:8080` ...). */
export function decide(
  sbpl: Pick<Sbpl, "text" | "params">,
  operation: string,
  target: string,
  context: Context = {},
): "allow" | "deny" {
  const { forms, problems } = parseSbpl(sbpl.text);
  if (problems.length) throw new Error(problems.join("\n"));
  const params = new Map(sbpl.params);
  let decision: "allow" | "deny" = "deny";
  for (const form of forms.slice(1)) {
    if (form.type !== "list") continue;
    const [head, ...rest] = form.items;
    const action = head?.type === "symbol" ? head.name : "";
    const operations = rest.filter((n) => n.type === "symbol").map((n) => (n as { name: string }).name);
    const filters = rest.filter((n): n is Extract<SbplNode, { type: "list" }> =>
      n.type === "list" && !(n.items[0]?.type === "symbol" && n.items[0].name === "with")
    );
    if (!operations.some((op) => operationMatches(op, operation))) continue;
    if (filters.length === 0 || filters.some((f) => matches(f, target, params, context))) {
      decision = action as "allow" | "deny";
    }
  }
  return decision;
}

function operationMatches(ruleOp: string, operation: string): boolean {
  if (ruleOp === "default" || ruleOp === operation) return true;
  return ruleOp.endsWith("*") && operation.startsWith(ruleOp.slice(0, -1));
}

function value(node: SbplNode | undefined, params: Map<string, string>): string {
  if (node?.type === "string") return node.value;
  if (node?.type === "list" && node.items[0]?.type === "symbol" && node.items[0].name === "param") {
    const name = value(node.items[1], params);
    const found = params.get(name);
    if (found === undefined) throw new Error(`parameter ${name} is not defined`);
    return found;
  }
  if (node?.type === "symbol") return node.name;
  throw new Error(`no value in ${JSON.stringify(node)}`);
}

function matches(filter: SbplNode, target: string, params: Map<string, string>, context: Context): boolean {
  if (filter.type !== "list") throw new Error(`not a filter: ${JSON.stringify(filter)}`);
  const [head, ...args] = filter.items;
  const name = head?.type === "symbol" ? head.name : "";
  const arg = () => value(args[0], params);
  switch (name) {
    case "literal":
    case "global-name":
    case "sysctl-name":
    case "iokit-registry-entry-class":
      return target === arg();
    case "subpath":
      return isInside(target, arg());
    case "regex":
      return new RegExp(arg()).test(target);
    case "sysctl-name-prefix":
    case "ipc-posix-name-prefix":
      return target.startsWith(arg());
    case "require-all":
      return args.every((a) => matches(a, target, params, context));
    case "require-any":
      return args.some((a) => matches(a, target, params, context));
    case "require-not":
      return !matches(args[0]!, target, params, context);
    case "extension":
      return (context.extensions ?? []).includes(arg());
    case "local":
    case "remote": {
      const spec = value(args[1], params); // (remote ip "localhost:8080")
      return spec.endsWith(":*") ? target.startsWith(spec.slice(0, -1)) : target === spec;
    }
    case "target":
      return false; // other processes: never in these tests
    default:
      throw new Error(`the model does not know the filter ${name}`);
  }
}

/**
 * A Mac's disk as the profile builder sees it: `/tmp`, `/var` and `/etc` are links into `/private`,
 * plus the given entries (paths as on the Mac) and links.
 */
export function macDisk(entries: Record<string, EntryKind>, links: Record<string, string> = {}) {
  const allLinks: Record<string, string> = {
    "/tmp": "/private/tmp",
    "/var": "/private/var",
    "/etc": "/private/etc",
    ...links,
  };
  const realPath = (path: string): string => {
    for (const [link, target] of Object.entries(allLinks)) {
      if (isInside(path, link)) return realPath(target + path.slice(link.length));
    }
    return path;
  };
  const kind = (path: string): EntryKind => {
    if (Object.hasOwn(allLinks, path)) return "symlink";
    if (Object.hasOwn(entries, path)) return entries[path]!;
    return Object.keys(entries).some((p) => isInside(p, path) && p !== path) ? "dir" : "missing";
  };
  return { realPath, fs: { kind } };
}
