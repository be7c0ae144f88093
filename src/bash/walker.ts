/**
 * Walks a tree-sitter-bash tree into simple commands. Only node kinds listed here are understood;
 * anything else makes the result too complex (the permission layer then asks). Commands inside
 * substitutions are still collected so deny rules and catastrophe detection see them.
 */
import type { Node } from "web-tree-sitter";
import type { RawCommand, WalkResult, Word } from "./command.ts";
import type { Redirect } from "./types.ts";

const MAX_DEPTH = 64;
/** Past this many commands the walk stops; the analysis asks anyway (sub-command cap). */
const MAX_COMMANDS = 20_000;

const CONTROL_FLOW: Record<string, string> = {
  if_statement: "an if statement",
  while_statement: "a loop",
  for_statement: "a loop",
  c_style_for_statement: "a loop",
  case_statement: "a case statement",
  function_definition: "a function definition (it can shadow a command)",
  test_command: "a test expression",
  arithmetic_expansion: "arithmetic expansion",
};

/** Where a redirection's parts go: its target into `out`, commands it substitutes into `subs`. */
interface RedirectContext {
  scope: Scope;
  depth: number;
  out: Redirect[];
  subs: RawCommand[];
  nested?: string | undefined;
}

/** Variables bound by plain assignments earlier in the same shell; null marks "value not known". */
type Scope = Map<string, string | null>;

class Walker {
  readonly commands: RawCommand[] = [];
  readonly complex = new Set<string>();
  private pipeCount = 0;

  statement(node: Node, scope: Scope, depth: number, nested?: string): void {
    if (depth > MAX_DEPTH) return this.tooComplex("nesting deeper than the analyzer follows");
    if (this.commands.length > MAX_COMMANDS) return;
    if (node.isError || node.isMissing) return this.tooComplex("part of the command could not be parsed");
    switch (node.type) {
      case "program":
      case "compound_statement":
        return this.sequence(node, scope, depth, nested);
      case "subshell":
        return this.sequence(node, new Map(scope), depth, nested);
      case "list":
        return this.list(node, scope, depth, nested);
      case "pipeline":
        return this.pipeline(node, scope, depth, nested);
      case "negated_command":
        return this.sequence(node, scope, depth, nested);
      case "redirected_statement":
        return this.redirected(node, scope, depth, nested);
      case "command":
        return this.command(node, scope, depth, nested);
      case "variable_assignment":
        return this.bareAssignments([node], scope, depth, nested);
      case "variable_assignments":
        return this.bareAssignments(node.namedChildren, scope, depth, nested);
      case "declaration_command":
        return this.declaration(node, scope, depth, nested);
      case "unset_command":
        return this.unset(node, scope, depth, nested);
      case "comment":
        return;
      default: {
        this.tooComplex(CONTROL_FLOW[node.type] ?? `unsupported shell syntax (${node.type})`);
        // Still collect what runs inside, for deny rules and catastrophe detection.
        for (const child of node.namedChildren) this.statement(child, new Map(scope), depth + 1, nested);
      }
    }
  }

  private tooComplex(reason: string): void {
    this.complex.add(reason);
  }

  private sequence(node: Node, scope: Scope, depth: number, nested?: string): void {
    for (const child of node.namedChildren) this.statement(child, scope, depth + 1, nested);
  }

  /** `a && b || c`: left-deep in the tree, flattened without recursion so 10,000 parts are cheap. */
  private list(node: Node, scope: Scope, depth: number, nested?: string): void {
    const parts: Node[] = [];
    const operators: string[] = [];
    let current: Node | null = node;
    while (current?.type === "list") {
      const children: Node[] = current.children;
      const right = children[children.length - 1];
      const op = children[children.length - 2];
      if (right) parts.push(right);
      if (op) operators.push(op.type);
      current = children[0] ?? null;
    }
    if (current) parts.push(current);
    parts.reverse();
    operators.reverse();
    parts.forEach((part, i) => {
      // After `||` an assignment may or may not have happened: its variables become unknown.
      const conditional = operators[i - 1] === "||";
      const before = conditional ? new Map(scope) : scope;
      this.statement(part, before, depth + 1, nested);
      if (conditional) {
        for (const [name, value] of before) if (scope.get(name) !== value) scope.set(name, null);
      }
    });
  }

  private pipeline(node: Node, scope: Scope, depth: number, nested?: string): void {
    const stages = node.namedChildren.filter((child) => child.type !== "comment");
    const pipe = ++this.pipeCount;
    stages.forEach((stage, index) => {
      const first = this.commands.length;
      this.statement(stage, new Map(scope), depth + 1, nested);
      for (const command of this.commands.slice(first)) {
        if (command.pipe !== 0 || command.nested !== nested) continue;
        command.pipe = pipe;
        command.stage = index;
        command.stages = stages.length;
      }
    });
  }

  private redirected(node: Node, scope: Scope, depth: number, nested?: string): void {
    const body = node.childForFieldName("body");
    const first = this.commands.length;
    if (body) this.statement(body, scope, depth + 1, nested);
    let owners = this.commands.slice(first).filter((c) => c.nested === nested);
    // tree-sitter hangs `a && b > f` and `a | b > f` on the whole list; bash gives it to `b` alone.
    if (body?.type === "list" || body?.type === "pipeline") owners = owners.slice(-1);
    const subs: RawCommand[] = [];
    const redirects: Redirect[] = [];
    for (const child of node.namedChildren) {
      if (child === body || child.id === body?.id) continue;
      this.redirect(child, { scope, depth, out: redirects, subs, nested });
    }
    if (owners.length === 0) {
      // A redirection alone (`> file`) still truncates or creates the file.
      owners.push(this.push({ words: [], assignments: [], redirects: [], subs: [] }, nested));
    }
    for (const owner of owners) {
      owner.redirects.push(...redirects);
      owner.subs.push(...subs);
    }
  }

  private redirect(node: Node, at: RedirectContext): void {
    const { scope, depth, out, subs } = at;
    if (node.type === "file_redirect") {
      let op = "";
      let target: Word | undefined;
      for (const child of node.children) {
        if (child.type === "file_descriptor") op += child.text;
        else if (!child.isNamed) op += child.type;
        else target = this.word(child, scope, depth, subs);
      }
      if (target?.unknown) this.tooComplex(unknownVariable(target.unknown));
      out.push({ op, target: target?.text ?? "" });
      return;
    }
    if (node.type === "herestring_redirect") {
      const value = node.namedChildren[0];
      out.push({ op: "<<<", target: value ? this.word(value, scope, depth, subs).text : "" });
      return;
    }
    if (node.type === "heredoc_redirect") return this.heredoc(node, at);
    this.tooComplex(`unsupported redirection (${node.type})`);
  }

  private heredoc(node: Node, at: RedirectContext): void {
    const { scope, depth, out, subs, nested } = at;
    let delimiter = "";
    let op = "<<";
    for (const child of node.children) {
      if (!child.isNamed) {
        if (child.type.startsWith("<<")) op = child.type;
        else if (child.type !== "heredoc_end") this.tooComplex("commands after a here-document");
        continue;
      }
      switch (child.type) {
        case "heredoc_start":
          delimiter = child.text;
          break;
        case "heredoc_body":
          if (!/^['"\\]/.test(delimiter) && child.namedChildCount > 0) {
            this.tooComplex("expansions inside a here-document");
            for (const part of child.namedChildren) this.word(part, scope, depth, subs);
          }
          break;
        case "heredoc_end":
          break;
        case "file_redirect":
        case "herestring_redirect":
          this.redirect(child, at);
          break;
        default:
          this.tooComplex("commands after a here-document");
          this.statement(child, new Map(scope), depth + 1, nested);
      }
    }
    out.push({ op, target: delimiter.replace(/^['"\\]+|['"]+$/g, "") });
  }

  private command(node: Node, scope: Scope, depth: number, nested?: string): void {
    const words: Word[] = [];
    const assignments: { name: string; value: string }[] = [];
    const redirects: Redirect[] = [];
    const subs: RawCommand[] = [];
    for (const child of node.namedChildren) {
      switch (child.type) {
        case "variable_assignment":
          assignments.push(this.assignment(child, scope, depth, subs));
          break;
        case "command_name":
          for (const part of child.namedChildren) words.push(this.word(part, scope, depth, subs));
          break;
        case "file_redirect":
        case "herestring_redirect":
        case "heredoc_redirect":
          this.redirect(child, { scope, depth, out: redirects, subs, nested });
          break;
        case "comment":
          break;
        default:
          words.push(this.word(child, scope, depth, subs));
      }
    }
    this.push({ words, assignments, redirects, subs }, nested);
  }

  /** `export A=1 B`, `local x=2`: a command (so it is judged) that also binds its variables. */
  private declaration(node: Node, scope: Scope, depth: number, nested?: string): void {
    const subs: RawCommand[] = [];
    const words: Word[] = [this.literal(node.child(0)?.text ?? "declare")];
    const assignments: { name: string; value: string }[] = [];
    for (const child of node.namedChildren) {
      if (child.type === "variable_assignment") {
        const assignment = this.assignment(child, scope, depth, subs);
        assignments.push(assignment);
        this.bind(scope, assignment.name, assignment.value, child);
      } else words.push(this.word(child, scope, depth, subs));
    }
    this.push({ words, assignments, redirects: [], subs }, nested);
  }

  private unset(node: Node, scope: Scope, depth: number, nested?: string): void {
    const subs: RawCommand[] = [];
    const words = [this.literal("unset"), ...node.namedChildren.map((c) => this.word(c, scope, depth, subs))];
    for (const word of words.slice(1)) scope.set(word.text, null);
    this.push({ words, assignments: [], redirects: [], subs }, nested);
  }

  private bareAssignments(nodes: Node[], scope: Scope, depth: number, nested?: string): void {
    const subs: RawCommand[] = [];
    const assignments = nodes.map((node) => {
      const assignment = this.assignment(node, scope, depth, subs);
      this.bind(scope, assignment.name, assignment.value, node);
      return assignment;
    });
    this.push({ words: [], assignments, redirects: [], subs }, nested);
  }

  private bind(scope: Scope, name: string, value: string, node: Node): void {
    const dynamic = node.namedChildren.some((c) => c.type !== "variable_name" && c.type !== "word");
    // A second assignment or a computed value: later uses cannot be resolved statically.
    scope.set(name, scope.has(name) || dynamic ? null : value);
  }

  private assignment(node: Node, scope: Scope, depth: number, subs: RawCommand[]) {
    const name = node.namedChildren[0]?.text ?? "";
    const valueNode = node.namedChildren[1];
    if (node.text.includes("+=")) this.tooComplex("appending assignment (+=)");
    if (valueNode?.type === "array") this.tooComplex("array assignment");
    const value = valueNode ? this.word(valueNode, scope, depth, subs) : undefined;
    if (value?.unknown) this.tooComplex(unknownVariable(value.unknown));
    return { name, value: value?.text ?? "" };
  }

  private literal(text: string): Word {
    return { text, quoted: false, glob: false, dynamic: false };
  }

  private push(
    command: Omit<RawCommand, "pipe" | "stage" | "stages" | "nested">,
    nested?: string,
  ): RawCommand {
    const full: RawCommand = { ...command, pipe: 0, stage: 0, stages: 1 };
    if (nested) full.nested = nested;
    this.commands.push(full);
    return full;
  }

  /** Resolves one argument node to its value. */
  word(node: Node, scope: Scope, depth: number, subs: RawCommand[]): Word {
    const out: Word = { text: "", quoted: false, glob: false, dynamic: false };
    this.appendWord(node, scope, depth, subs, out, false);
    return out;
  }

  private appendWord(
    node: Node,
    scope: Scope,
    depth: number,
    subs: RawCommand[],
    out: Word,
    inQuotes: boolean,
  ) {
    if (node.isError || node.isMissing) this.tooComplex("part of the command could not be parsed");
    switch (node.type) {
      case "word":
      case "number":
      case "variable_name":
      case "special_variable_name": {
        const text = node.text;
        if (!inQuotes && /(^|[^\\])[*?[]/.test(text)) out.glob = true;
        out.text += inQuotes ? text : unescapeUnquoted(text);
        return;
      }
      case "raw_string":
        out.quoted = true;
        out.text += node.text.slice(1, -1);
        return;
      case "string_content":
        out.text += node.text.replace(/\\([$`"\\\n])/g, (_, c: string) => (c === "\n" ? "" : c));
        return;
      case "string":
        out.quoted = true;
        for (const child of node.namedChildren) this.appendWord(child, scope, depth, subs, out, true);
        return;
      case "concatenation":
        for (const child of node.namedChildren) this.appendWord(child, scope, depth, subs, out, inQuotes);
        return;
      case "simple_expansion": {
        const name = node.namedChildren[0]?.text ?? "";
        const value = scope.get(name);
        if (value === undefined || value === null) {
          out.unknown ??= `$${name}`;
          out.dynamic = true;
          out.text += node.text;
        } else out.text += value;
        return;
      }
      case "command_substitution":
      case "process_substitution": {
        const kind = node.type === "command_substitution" ? "command substitution" : "process substitution";
        this.tooComplex(kind);
        out.dynamic = true;
        out.text += node.text;
        const via = node.child(0)?.type === "`" ? "`...`" : `${node.child(0)?.type ?? "$("}...)`;
        const first = this.commands.length;
        for (const child of node.namedChildren) this.statement(child, new Map(scope), depth + 1, via);
        subs.push(...this.commands.slice(first));
        return;
      }
      case "expansion":
        this.tooComplex("parameter expansion ${...}");
        out.dynamic = true;
        out.text += node.text;
        for (const child of node.namedChildren) {
          if (child.type !== "variable_name") this.appendWord(child, scope, depth, subs, { ...out }, true);
        }
        return;
      case "ansi_c_string":
      case "translated_string":
        this.tooComplex("ANSI-C or locale quoting ($'...' or $\"...\")");
        out.quoted = true;
        out.dynamic = true;
        out.text += node.text;
        return;
      default:
        this.tooComplex(CONTROL_FLOW[node.type] ?? `unsupported word (${node.type})`);
        out.dynamic = true;
        out.text += node.text;
        for (const child of node.namedChildren) {
          this.appendWord(child, scope, depth + 1, subs, { ...out }, inQuotes);
        }
    }
  }
}

export function unknownVariable(name: string): string {
  return `${name} is not assigned earlier in this command; its value is unknown`;
}

function unescapeUnquoted(text: string): string {
  return text.includes("\\") ? text.replace(/\\(\n|.)/g, (_, c: string) => (c === "\n" ? "" : c)) : text;
}

/** Walks the root of a parsed command. */
export function walkTree(root: Node): WalkResult {
  const walker = new Walker();
  walker.statement(root, new Map(), 0);
  if (root.hasError) walker.complex.add("part of the command could not be parsed");
  return { commands: walker.commands, complex: [...walker.complex] };
}
