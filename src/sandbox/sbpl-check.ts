/**
 * Is an SBPL profile one sandbox-exec will accept? Checked on every generated profile before it is
 * used (a profile sandbox-exec rejects fails the whole command, with a message about line numbers of
 * text nobody sees) and by the tests: parentheses balance, every rule names known operations and
 * filters, every string is escaped the one way the generator escapes and shorter than the reader's
 * buffer, every regex compiles, and every `(param "NAME")` is defined and every definition used.
 * Pure.
 */

/**
 * sandbox-exec's profile reader keeps a string in a fixed buffer: a longer string makes it reject the
 * whole profile. Paths therefore go in as parameters (`-D NAME=value`), never as strings.
 */
export const SBPL_MAX_STRING_BYTES = 1024;

/**
 * Operations the generator may use: the ones Apple's own profiles and the two public anchors
 * (Codex's seatbelt policies, sandbox-runtime's macOS profile) use. A typo here would make
 * sandbox-exec reject the profile, so anything else is an error.
 */
const KNOWN_OPERATIONS: ReadonlySet<string> = new Set([
  "default",
  "file*",
  "file-read*",
  "file-read-data",
  "file-read-metadata",
  "file-read-xattr",
  "file-test-existence",
  "file-write*",
  "file-write-data",
  "file-write-create",
  "file-write-unlink",
  "file-write-mode",
  "file-write-owner",
  "file-write-times",
  "file-write-flags",
  "file-write-xattr",
  "file-write-acl",
  "file-write-setugid",
  "file-ioctl",
  "file-link",
  "file-clone",
  "file-map-executable",
  "file-issue-extension",
  "process*",
  "process-exec",
  "process-exec*",
  "process-fork",
  "process-info*",
  "signal",
  "sysctl*",
  "sysctl-read",
  "sysctl-write",
  "mach*",
  "mach-lookup",
  "mach-register",
  "mach-host*",
  "mach-priv-task-port",
  "ipc*",
  "ipc-posix*",
  "ipc-posix-sem",
  "ipc-posix-shm",
  "ipc-posix-shm*",
  "ipc-posix-shm-read*",
  "ipc-posix-shm-read-data",
  "ipc-posix-shm-read-metadata",
  "ipc-posix-shm-write-create",
  "ipc-posix-shm-write-data",
  "ipc-posix-shm-write-unlink",
  "iokit-open",
  "iokit-get-properties",
  "network*",
  "network-outbound",
  "network-inbound",
  "network-bind",
  "system-socket",
  "pseudo-tty",
  "user-preference-read",
  "distributed-notification-post",
]);

/** Heads of the filter and modifier lists a rule may hold. */
const KNOWN_FILTERS: ReadonlySet<string> = new Set([
  "literal",
  "subpath",
  "prefix",
  "regex",
  "path",
  "param",
  "require-all",
  "require-any",
  "require-not",
  "vnode-type",
  "extension",
  "target",
  "global-name",
  "local-name",
  "sysctl-name",
  "sysctl-name-prefix",
  "iokit-registry-entry-class",
  "ipc-posix-name",
  "ipc-posix-name-prefix",
  "local",
  "remote",
  "with",
]);

/** One form of a parsed profile. */
export type SbplNode =
  | { type: "list"; items: SbplNode[]; at: Position }
  | { type: "symbol"; name: string; at: Position }
  | { type: "string"; value: string; at: Position };
type Node = SbplNode;

interface Position {
  line: number;
  column: number;
}

/** One problem, with where it is: `line:column: what`. */
export type SbplProblem = string;

/**
 * Every reason sandbox-exec would (or might) reject `text`, run with `params` (`-D NAME=value`);
 * empty when it is well formed.
 *
 * @example checkSbpl('(version 1)\n(deny default)\n(allow file-read* (subpath (param "HOME")))', ["HOME"])
 */
export function checkSbpl(text: string, params: readonly string[] = []): SbplProblem[] {
  const { forms, problems } = parseSbpl(text);
  if (problems.length > 0) return problems;
  const used = new Set<string>();
  forms.forEach((form, index) => checkForm(form, index, problems, used));
  for (const name of used) {
    if (!params.includes(name)) problems.push(`parameter ${name} is used but not defined (-D ${name}=...)`);
  }
  for (const name of params) {
    if (!used.has(name)) problems.push(`parameter ${name} is defined but never used`);
  }
  return problems;
}

function checkForm(form: Node, index: number, problems: SbplProblem[], used: Set<string>): void {
  const where = `${form.at.line}:${form.at.column}`;
  if (form.type !== "list") return void problems.push(`${where}: a bare ${form.type} at the top level`);
  const [head, ...rest] = form.items;
  const name = head?.type === "symbol" ? head.name : undefined;
  if (index === 0) {
    const isVersion = name === "version" && rest.length === 1 && rest[0]?.type === "symbol" &&
      rest[0].name === "1";
    if (!isVersion) problems.push(`${where}: the profile must start with (version 1)`);
    return;
  }
  if (name !== "allow" && name !== "deny") {
    return void problems.push(`${where}: expected (allow ...) or (deny ...), got (${name ?? "?"} ...)`);
  }
  let operations = 0;
  for (const item of rest) {
    if (item.type === "symbol" && operations >= 0) {
      operations++;
      if (!KNOWN_OPERATIONS.has(item.name)) {
        problems.push(`${item.at.line}:${item.at.column}: unknown operation ${item.name}`);
      }
      continue;
    }
    if (operations === 0) problems.push(`${where}: (${name} ...) names no operation`);
    operations = -1; // operations come first, filters after
    checkFilter(item, problems, used);
  }
  if (operations === 0) problems.push(`${where}: (${name} ...) names no operation`);
}

function checkFilter(node: Node, problems: SbplProblem[], used: Set<string>): void {
  const where = `${node.at.line}:${node.at.column}`;
  if (node.type !== "list") return void problems.push(`${where}: expected a filter list, got a ${node.type}`);
  const [head, ...args] = node.items;
  if (head?.type !== "symbol" || !KNOWN_FILTERS.has(head.name)) {
    return void problems.push(
      `${where}: unknown filter ${head?.type === "symbol" ? head.name : "(no name)"}`,
    );
  }
  if (head.name === "param") {
    const [param] = args;
    if (args.length !== 1 || param?.type !== "string") {
      return void problems.push(`${where}: (param ...) takes one string`);
    }
    used.add(param.value);
    return;
  }
  for (const arg of args) {
    if (arg.type === "list") checkFilter(arg, problems, used);
    if (arg.type === "string" && head.name === "regex") checkRegex(arg, problems);
  }
}

function checkRegex(node: Extract<Node, { type: "string" }>, problems: SbplProblem[]): void {
  try {
    new RegExp(node.value);
  } catch (error) {
    problems.push(`${node.at.line}:${node.at.column}: regex does not compile: ${(error as Error).message}`);
  }
  if (!node.value.startsWith("^")) {
    problems.push(`${node.at.line}:${node.at.column}: regex is not anchored at the start (^)`);
  }
}

/** The top-level forms of `text`, and what keeps it from being read (unbalanced, a bad string). */
export function parseSbpl(text: string): { forms: SbplNode[]; problems: SbplProblem[] } {
  const problems: SbplProblem[] = [];
  const top: Node[] = [];
  const stack: Array<Extract<Node, { type: "list" }>> = [];
  let line = 1;
  let lineStart = 0;
  const at = (i: number): Position => ({ line, column: i - lineStart + 1 });
  const add = (node: Node) => (stack.length ? stack[stack.length - 1]!.items : top).push(node);
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === "\n") {
      line++;
      lineStart = i + 1;
    } else if (c === ";") {
      while (i + 1 < text.length && text[i + 1] !== "\n") i++;
    } else if (c === "(") {
      const list: Node = { type: "list", items: [], at: at(i) };
      add(list);
      stack.push(list);
    } else if (c === ")") {
      if (!stack.pop()) problems.push(`${line}:${i - lineStart + 1}: ")" closes nothing`);
    } else if (c === '"') {
      const start = at(i);
      const read = readString(text, i + 1);
      if (read.problem) problems.push(`${start.line}:${start.column}: ${read.problem}`);
      add({ type: "string", value: read.value, at: start });
      for (let j = i; j < read.end; j++) {
        if (text[j] === "\n") {
          line++;
          lineStart = j + 1;
        }
      }
      i = read.end;
    } else if (c === "#") {
      problems.push(
        `${line}:${i - lineStart + 1}: #"..." strings are not used; write "..." with \\\\ and \\"`,
      );
    } else if (!/\s/.test(c)) {
      const start = i;
      while (i + 1 < text.length && !/[\s()";]/.test(text[i + 1]!)) i++;
      add({ type: "symbol", name: text.slice(start, i + 1), at: at(start) });
    }
  }
  for (const open of stack) problems.push(`${open.at.line}:${open.at.column}: "(" is never closed`);
  return { forms: top, problems };
}

/** The string starting after its opening quote: value, index of the closing quote, problem. */
function readString(text: string, from: number): { value: string; end: number; problem?: string } {
  let value = "";
  for (let i = from; i < text.length; i++) {
    const c = text[i]!;
    if (c === '"') {
      const bytes = new TextEncoder().encode(value).length;
      return bytes > SBPL_MAX_STRING_BYTES
        ? {
          value,
          end: i,
          problem: `string of ${bytes} bytes; sandbox-exec reads at most ${SBPL_MAX_STRING_BYTES}`,
        }
        : { value, end: i };
    }
    if (c === "\\") {
      const next = text[i + 1];
      if (next !== "\\" && next !== '"') {
        return { value, end: text.length, problem: `escape \\${next ?? ""} (only \\\\ and \\" are used)` };
      }
      value += next;
      i++;
      continue;
    }
    value += c;
  }
  return { value, end: text.length, problem: "string is never closed" };
}
