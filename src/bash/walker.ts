/**
 * Walks a tree-sitter-bash tree into simple commands. Only node kinds listed here are understood;
 * anything else makes the result too complex (the permission layer then asks). Commands inside
 * substitutions are still collected so deny rules and catastrophe detection see them.
 */
import type { Node } from "web-tree-sitter";
import { CLOSE, expandBraces, markBraces, MAX_BRACE_WORDS, OPEN, unmarkBraces } from "./braces.ts";
import type { FunctionDefinition, RawCommand, WalkResult, Word } from "./command.ts";
import { hiddenSubstitutions } from "./evaluation.ts";
import { decodeEscapes, literalOutput } from "./printers.ts";
import type { Redirect } from "./types.ts";

const MAX_DEPTH = 64;
/** A loop over more values than this is walked once, its variable unknown. */
const MAX_LOOP_VALUES = 8;
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
  /** Standard input redirected here; `text` is its content when the command fixes it. */
  stdin?: { text: string | undefined };
  /** What follows a here-document's start on its line (`cat <<EOF | sh`), walked after the command. */
  after?: Node[];
  /** A file descriptor tree-sitter attached to the redirection before the one it belongs to. */
  nextDescriptor?: string | undefined;
  /** Words tree-sitter attached to a redirection that are the command's arguments. */
  extra: Word[];
}

/** Marks where an unquoted expansion splits a word (NUL never occurs in a shell word). */
const FIELD_BREAK = "\u0000";
/** The value bash gives IFS when nothing assigns it. */
const DEFAULT_IFS = " \t\n";
const GLOB_CHARS = /[*?[]/;

/** `name=value`; `computed` when the value is only known at run time (`$(...)`, `+=`, unknown `$x`). */
interface Assignment {
  name: string;
  value: string;
  computed: boolean;
}

/** A word being built; `split` says whether unquoted expansions in it are split into fields. */
interface Building extends Word {
  split: boolean;
}

/** Variables bound by plain assignments earlier in the same shell; null marks "value not known". */
type Scope = Map<string, string | null>;

class Walker {
  readonly commands: RawCommand[] = [];
  readonly complex = new Set<string>();
  readonly functions: FunctionDefinition[] = [];
  /** Literal text bash evaluates as an arithmetic expression or a variable name, or runs later. */
  readonly evaluated: string[] = [];
  /** Names arithmetic evaluates, whose values bash evaluates in turn (`(( x ))`). */
  readonly arithmeticNames: string[] = [];
  /** Names bound to a value known only at run time that is not a number (`x=$(cat f)`, `for x in $(…)`). */
  readonly unknownValues = new Set<string>();
  /** Here-document bodies whose substitutions the parser left as text (see `heredoc`). */
  readonly hereDocuments: string[] = [];
  /** Loop variables bound to a pattern (`for f in *.md`): they stand for the files it matches. */
  private readonly patternNames = new Set<string>();
  private pipeCount = 0;

  statement(node: Node, scope: Scope, depth: number, nested?: string): void {
    if (depth > MAX_DEPTH) return this.tooComplex("nesting deeper than the analyzer follows");
    if (this.commands.length > MAX_COMMANDS) return;
    if (node.isError || node.isMissing) return this.tooComplex("part of the command could not be parsed");
    switch (node.type) {
      case "program":
        return this.sequence(node, scope, depth, nested);
      case "compound_statement":
        if (node.child(0)?.type === "((") {
          this.tooComplex("arithmetic command (( ))");
          this.arithmetic(node, scope);
        }
        return this.sequence(node, scope, depth, nested);
      case "subshell":
        return this.sequence(node, new Map(scope), depth, nested);
      case "list":
        return this.list(node, scope, depth, nested);
      case "pipeline":
        return this.pipeline(node, scope, depth, nested);
      case "negated_command":
      case "do_group":
        return this.sequence(node, scope, depth, nested);
      case "while_statement":
      case "c_style_for_statement":
        return this.loop(node, scope, depth, nested);
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
      case "function_definition":
        return this.functionDefinition(node, scope, depth, nested);
      case "test_command":
        return this.testCommand(node, scope, depth, nested);
      case "for_statement":
        return this.forLoop(node, scope, depth, nested);
      case "comment":
        return;
      default: {
        if (node.type === "c_style_for_statement") this.arithmetic(node, scope);
        this.tooComplex(CONTROL_FLOW[node.type] ?? `unsupported shell syntax (${node.type})`);
        // Still collect what runs inside, for deny rules and catastrophe detection.
        for (const child of node.namedChildren) this.statement(child, new Map(scope), depth + 1, nested);
      }
    }
  }

  private tooComplex(reason: string): void {
    this.complex.add(reason);
  }

  /** Statements in order; `cmd &` marks what `cmd` ran as started in the background. */
  private sequence(node: Node, scope: Scope, depth: number, nested?: string): void {
    let first = this.commands.length;
    for (const child of node.children) {
      if (child.type === "&") {
        for (const command of this.commands.slice(first)) command.background = true;
      } else if (child.isNamed) {
        first = this.commands.length;
        this.statement(child, scope, depth + 1, nested);
      }
    }
  }

  /**
   * `name() { body }`: too complex to judge as a whole, but its body is walked like any code, and
   * how often the body calls the function itself, and how many of those calls fork, is recorded
   * (a fork bomb calls itself twice in a pipeline or in the background).
   */
  private functionDefinition(node: Node, scope: Scope, depth: number, nested?: string): void {
    this.tooComplex(CONTROL_FLOW.function_definition!);
    const name = node.childForFieldName("name")?.text ?? "";
    const first = this.commands.length;
    const body = node.childForFieldName("body");
    if (body) this.statement(body, new Map(scope), depth + 1, nested);
    const calls = this.commands.slice(first).filter((c) => callsItself(c, name));
    const forked = calls.filter((c) => c.background || c.stages > 1 || c.nested !== nested);
    this.functions.push({ name, calls: calls.length, forked: forked.length });
  }

  /**
   * `while`, `until` and `for ((...))` loops: their commands are walked once. A loop that never
   * ends and only starts processes in the background (`while true; do cmd & done`) forks without
   * bound: its commands are marked `forksForever` for the catastrophe table.
   */
  private loop(node: Node, scope: Scope, depth: number, nested?: string): void {
    if (node.type === "c_style_for_statement") this.arithmetic(node, scope);
    this.tooComplex(CONTROL_FLOW[node.type]!);
    const body = node.childForFieldName("body");
    for (const child of node.namedChildren) {
      if (child.id !== body?.id) this.statement(child, new Map(scope), depth + 1, nested);
    }
    if (!body) return;
    const first = this.commands.length;
    this.statement(body, new Map(scope), depth + 1, nested);
    const started = this.commands.slice(first).filter((c) => c.nested === nested);
    if (endless(node) && started.length > 0 && started.every((c) => c.background)) {
      for (const command of started) command.forksForever = true;
    }
  }

  /**
   * `for x in a b; do ...; done`: too complex for rules to approve as a whole, but with a short
   * list of known values the body is walked once per value with `x` bound to it, so `rm -rf "$x"`
   * is judged as what it deletes; a pattern in the list (`*.md`) stays a pattern wherever `$x` is
   * used. Values known only at run time (`$(ls)`, no `in` list) leave `x` unknown.
   */
  private forLoop(node: Node, scope: Scope, depth: number, nested?: string): void {
    this.tooComplex(CONTROL_FLOW.for_statement!);
    const name = node.childForFieldName("variable")?.text ?? "";
    const listed = node.childrenForFieldName("value");
    const values = listed.flatMap((value) => this.fields(value, scope, depth + 1, []));
    const body = node.childForFieldName("body");
    if (!body) return;
    const known = listed.length > 0 && values.length <= MAX_LOOP_VALUES && values.every((v) => !v.dynamic);
    for (const value of known ? values : [undefined]) {
      const inner: Scope = new Map(scope);
      inner.set(name, value?.text ?? null);
      if (!known) this.unknownValues.add(name);
      if (value?.glob) this.patternNames.add(name);
      this.statement(body, inner, depth + 1, nested);
    }
  }

  /**
   * `[[ ... ]]`: too complex to judge, but its words are kept as a command named `[[` so that the
   * words bash evaluates in it (`-v 'a[$(cmd)]'`, arithmetic operands) are seen.
   */
  private testCommand(node: Node, scope: Scope, depth: number, nested?: string): void {
    this.tooComplex(CONTROL_FLOW.test_command!);
    const subs: RawCommand[] = [];
    const words: Word[] = [];
    const flatten = (part: Node): void => {
      if (TEST_OPERANDS.has(part.type)) words.push(this.word(part, scope, depth, subs));
      else if (part.childCount === 0) words.push(this.literal(part.text));
      else for (const child of part.children) flatten(child);
    };
    for (const child of node.children) flatten(child);
    this.push({ words, assignments: [], redirects: [], subs }, nested);
  }

  /**
   * Arithmetic (`(( ))`, `$(( ))`, `for ((;;))`, `${x:offset}`): bash evaluates the text of quoted
   * strings in it, and the values of the variables it names, as expressions, so `a[$(cmd)]` in
   * them runs `cmd`. Those texts are recorded for the analyzer to read as code, and the names for
   * it to check. With `named`, the node's first child is the parameter (`${x:1}`, `a[i]=v`): only
   * its subscript is arithmetic.
   */
  private arithmetic(node: Node, scope: Scope, named = false): void {
    const visit = (part: Node): void => {
      if (part.type === "raw_string") this.evaluated.push(part.text.slice(1, -1));
      else if (part.type === "ansi_c_string") this.evaluated.push(part.text.slice(2, -1));
      else if (part.type === "variable_name") {
        this.arithmeticNames.push(part.text);
        const value = scope.get(part.text);
        if (typeof value === "string") this.evaluated.push(value);
      } else if (part.type === "word" && part.parent?.type === "subscript") {
        this.arithmeticNames.push(...(part.text.match(/[A-Za-z_]\w*/g) ?? []));
      } else for (const child of part.namedChildren) visit(child);
    };
    if (!named) return visit(node);
    // In `${x:-$y}`, `${x#$y}` only the subscript is arithmetic; in `${x:o:n}` the offsets are too.
    const rest = node.type !== "expansion" || node.children.some((c) => c.type === ":");
    node.namedChildren.forEach((part, i) => {
      if (i > 0 && rest) visit(part);
      else if (part.type === "subscript") part.namedChildren.slice(1).forEach(visit);
    });
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

  /**
   * `a | b | c`. tree-sitter nests a pipeline whose stage carries a redirection
   * (`cat f | sh -i 2>&1 | nc h p` is `(cat f | sh -i 2>&1) | nc h p`); bash runs one pipeline,
   * so the inner one's stages are numbered as stages of the outer one.
   */
  private pipeline(node: Node, scope: Scope, depth: number, nested?: string): void {
    const stages = node.namedChildren.filter((child) => child.type !== "comment");
    const pipe = ++this.pipeCount;
    const members: RawCommand[] = [];
    let next = 0;
    for (const stage of stages) {
      const first = this.commands.length;
      const outerPipes = this.pipeCount;
      this.statement(stage, new Map(scope), depth + 1, nested);
      const produced = this.commands.slice(first).filter((c) => c.nested === nested);
      const nestedPipeline = stage.type === "pipeline" ||
        (stage.type === "redirected_statement" && stage.childForFieldName("body")?.type === "pipeline");
      const inner = nestedPipeline ? produced.filter((c) => c.pipe > outerPipes) : [];
      const innerStages = inner.length > 0 ? Math.max(...inner.map((c) => c.stage)) + 1 : 1;
      for (const command of produced) {
        if (command.pipe !== 0 && !inner.includes(command)) continue;
        command.stage = next + (inner.includes(command) ? command.stage : 0);
        command.pipe = pipe;
        members.push(command);
      }
      next += innerStages;
    }
    for (const command of members) command.stages = next;
  }

  /** A redirection with no command (`$(< file)`): kept as a command of its own, so its file is judged. */
  private redirectAlone(node: Node, scope: Scope, depth: number, nested: string): void {
    const at: RedirectContext = { scope, depth, out: [], subs: [], nested, extra: [] };
    this.redirect(node, at);
    this.push({ words: at.extra, assignments: [], redirects: at.out, subs: at.subs }, nested);
  }

  private redirected(node: Node, scope: Scope, depth: number, nested?: string): void {
    const body = node.childForFieldName("body");
    const first = this.commands.length;
    if (body) this.statement(body, scope, depth + 1, nested);
    let owners = this.commands.slice(first).filter((c) => c.nested === nested);
    // tree-sitter hangs `a && b > f` and `a | b > f` on the whole list; bash gives it to `b` alone.
    if (body?.type === "list" || body?.type === "pipeline") owners = owners.slice(-1);
    const at: RedirectContext = { scope, depth, out: [], subs: [], nested, extra: [] };
    for (const child of node.namedChildren) {
      if (child === body || child.id === body?.id) continue;
      this.redirect(child, at);
    }
    if (owners.length === 0) {
      // A redirection alone (`> file`) still truncates or creates the file; `> f cmd` runs cmd.
      owners.push(this.push({ words: at.extra, assignments: [], redirects: [], subs: [] }, nested));
    } else owners.at(-1)!.words.push(...at.extra);
    for (const owner of owners) {
      owner.redirects.push(...at.out);
      owner.subs.push(...at.subs);
      if (at.stdin) owner.stdin = at.stdin.text;
    }
    this.continued(at, owners.at(-1)!, scope, depth);
  }

  /**
   * `cat <<EOF | sh`: tree-sitter hangs the rest of the line on the here-document; bash pipes the
   * command into it, so the command becomes the first stage of that pipeline.
   */
  private continued(at: RedirectContext, owner: RawCommand, scope: Scope, depth: number): void {
    for (const next of at.after ?? []) {
      const pipe = this.pipeCount + 1;
      const first = this.commands.length;
      this.statement(next, new Map(scope), depth + 1, at.nested);
      if (next.type !== "pipeline" || next.child(0)?.type !== "|" || owner.pipe !== 0) continue;
      const stages = this.commands.slice(first).filter((c) => c.pipe === pipe);
      for (const stage of stages) Object.assign(stage, { stage: stage.stage + 1, stages: stage.stages + 1 });
      Object.assign(owner, { pipe, stage: 0, stages: stages[0]?.stages ?? 1 });
    }
  }

  private redirect(node: Node, at: RedirectContext): void {
    const { scope, depth, out, subs } = at;
    if (node.type === "file_redirect") {
      let op = at.nextDescriptor ?? "";
      at.nextDescriptor = undefined;
      let target: Word | undefined;
      for (const child of node.children) {
        if (child.type === "file_descriptor") op += child.text;
        else if (!child.isNamed) op += child.type;
        else if (target === undefined) target = this.redirectWord(child, scope, depth, subs);
        else if (isNextDescriptor(node, child)) at.nextDescriptor = child.text;
        // tree-sitter reads the words after `cmd < file` into the redirection; bash gives them to cmd.
        else at.extra.push(...this.fields(child, scope, depth, subs));
      }
      if (target?.unknown) this.tooComplex(unknownVariable(target.unknown));
      out.push({ op, target: target?.text ?? "", ...(target?.glob ? { glob: true } : {}) });
      if (/^0?<[&>]?$/.test(op)) {
        at.stdin = { text: op.length === 1 || op === "0<" ? target?.printed : undefined };
      }
      return;
    }
    if (node.type === "herestring_redirect") {
      const value = node.namedChildren[0];
      const word = value ? this.word(value, scope, depth, subs) : undefined;
      out.push({ op: "<<<", target: word?.text ?? "" });
      at.stdin = { text: word && !word.dynamic ? `${word.text}\n` : undefined };
      return;
    }
    if (node.type === "heredoc_redirect") return this.heredoc(node, at);
    this.tooComplex(`unsupported redirection (${node.type})`);
  }

  private heredoc(node: Node, at: RedirectContext): void {
    const { scope, depth, out, subs } = at;
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
        case "heredoc_body": {
          const body = op === "<<-" ? child.text.replace(/^\t+/gm, "") : child.text;
          if (!/^['"\\]/.test(delimiter)) {
            const parts = child.namedChildren.filter((part) => part.type !== "heredoc_content");
            if (parts.length > 0) this.tooComplex("expansions inside a here-document");
            for (const part of parts) this.word(part, scope, depth, subs);
            // tree-sitter-bash leaves backquotes, and a `<<-` body's substitutions after its tabs,
            // as plain text; bash runs them all.
            const parsed = parts.filter((part) => part.type === "command_substitution").length;
            if (hiddenSubstitutions(body).length > parsed) {
              this.tooComplex("expansions inside a here-document");
              this.hereDocuments.push(body);
            }
          }
          // The text as written, expansions unexpanded: whatever reads it as code still sees them.
          at.stdin = { text: body };
          break;
        }
        case "heredoc_end":
          break;
        case "file_redirect":
        case "herestring_redirect":
          this.redirect(child, at);
          break;
        default:
          this.tooComplex("commands after a here-document");
          (at.after ??= []).push(child);
      }
    }
    out.push({ op, target: delimiter.replace(/^['"\\]+|['"]+$/g, "") });
  }

  private command(node: Node, scope: Scope, depth: number, nested?: string): void {
    const words: Word[] = [];
    const assignments: { name: string; value: string }[] = [];
    const subs: RawCommand[] = [];
    const at: RedirectContext = { scope, depth, out: [], subs, nested, extra: [] };
    for (const child of node.namedChildren) {
      switch (child.type) {
        case "variable_assignment":
          assignments.push(plain(this.assignment(child, scope, depth, subs)));
          break;
        case "command_name":
          for (const part of child.namedChildren) words.push(...this.fields(part, scope, depth, subs));
          break;
        case "file_redirect":
        case "herestring_redirect":
        case "heredoc_redirect":
          this.redirect(child, at);
          break;
        case "comment":
          break;
        default:
          words.push(...this.fields(child, scope, depth, subs));
      }
    }
    const command = this.push(
      { words: [...words, ...at.extra], assignments, redirects: at.out, subs },
      nested,
    );
    if (at.stdin) command.stdin = at.stdin.text;
    this.continued(at, command, scope, depth);
  }

  /** `export A=1 B`, `local x=2`: a command (so it is judged) that also binds its variables. */
  private declaration(node: Node, scope: Scope, depth: number, nested?: string): void {
    const subs: RawCommand[] = [];
    const words: Word[] = [this.literal(node.child(0)?.text ?? "declare")];
    const assignments: { name: string; value: string }[] = [];
    for (const child of node.namedChildren) {
      if (child.type === "variable_assignment") {
        const assignment = this.assignment(child, scope, depth, subs);
        assignments.push(plain(assignment));
        this.bind(scope, assignment);
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
      this.bind(scope, assignment);
      return plain(assignment);
    });
    this.push({ words: [], assignments, redirects: [], subs }, nested);
  }

  private bind(scope: Scope, { name, value, computed }: Assignment): void {
    // `$((...))` gives a number; any other computed value may hold code for arithmetic to run.
    if (computed && !/^(?:\$\(\([^]*\)\)|\d)*$/.test(value)) {
      this.unknownValues.add(name.replace(/\[.*$/s, ""));
    }
    // A second assignment or a computed value: later uses cannot be resolved statically.
    scope.set(name, scope.has(name) || computed ? null : value);
  }

  private assignment(node: Node, scope: Scope, depth: number, subs: RawCommand[]): Assignment {
    const target = node.namedChildren[0];
    const name = target?.text ?? "";
    if (target?.type === "subscript") {
      // `a[expr]=v`: bash evaluates the subscript, and runs any substitution in it.
      this.tooComplex("assignment to an array element (its subscript is evaluated)");
      this.arithmetic(target, scope, true);
      for (const part of target.namedChildren.slice(1)) this.word(part, scope, depth, subs);
    }
    const valueNode = node.namedChildren[1];
    const appends = node.text.includes("+=");
    if (appends) this.tooComplex("appending assignment (+=)");
    if (valueNode?.type === "array") this.tooComplex("array assignment");
    const value = valueNode ? this.word(valueNode, scope, depth, subs) : undefined;
    if (value?.unknown) this.tooComplex(unknownVariable(value.unknown));
    return { name, value: value?.text ?? "", computed: appends || value?.dynamic === true };
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

  /** Resolves one node to its value, as in an assignment or a redirection (no word splitting). */
  word(node: Node, scope: Scope, depth: number, subs: RawCommand[]): Word {
    const { split: _, ...word } = this.build(node, scope, depth, subs, false);
    return { ...word, text: unmarkBraces(word.text) };
  }

  /**
   * A redirection's file: bash expands its braces, and writes when one word results
   * (`> {a.txt,}` is `> a.txt`; two words are an ambiguous redirect, kept as written).
   */
  private redirectWord(node: Node, scope: Scope, depth: number, subs: RawCommand[]): Word {
    const { split: _, ...word } = this.build(node, scope, depth, subs, false);
    const words = word.text.includes(OPEN) ? expandBraces(word.text).filter((t) => t !== "") : [];
    return { ...word, text: words.length === 1 ? words[0]! : unmarkBraces(word.text) };
  }

  /**
   * A command's argument after brace expansion and word splitting: `/{bin,etc}` gives two words,
   * and so does an unquoted `$x` holding `a b`.
   */
  private fields(node: Node, scope: Scope, depth: number, subs: RawCommand[]): Word[] {
    const { split: _, ...word } = this.build(node, scope, depth, subs, true);
    const texts = word.text.includes(OPEN) ? expandBraces(word.text) : [unmarkBraces(word.text)];
    if (texts.length >= MAX_BRACE_WORDS) this.tooComplex("brace expansion gives too many words to follow");
    return texts.flatMap((expanded) =>
      expanded.includes(FIELD_BREAK)
        ? expanded.split(FIELD_BREAK).filter((text) => text !== "").map((text) => ({ ...word, text }))
        : [{ ...word, text: expanded }]
    );
  }

  private build(node: Node, scope: Scope, depth: number, subs: RawCommand[], split: boolean): Building {
    const out: Building = { text: "", quoted: false, glob: false, dynamic: false, split };
    this.appendWord(node, scope, depth, subs, out, false);
    return out;
  }

  /** A variable's value in a word, or the variable kept as written when its value is unknown. */
  private variable(name: string, written: string, scope: Scope, out: Building, inQuotes: boolean): void {
    const value = scope.get(name) ?? (name === "IFS" && !scope.has(name) ? DEFAULT_IFS : null);
    if (value === null) {
      out.unknown ??= `$${name}`;
      out.dynamic = true;
      out.text += written;
      return;
    }
    if (this.patternNames.has(name) && GLOB_CHARS.test(value)) out.glob = true;
    this.expanded(value, scope, out, inQuotes);
  }

  /** Text an expansion produced: unquoted, it is split on IFS and its glob characters expand. */
  private expanded(value: string, scope: Scope, out: Building, inQuotes: boolean): void {
    if (inQuotes) {
      out.text += value;
      return;
    }
    if (GLOB_CHARS.test(value)) out.glob = true;
    const ifs = scope.has("IFS") ? scope.get("IFS") : DEFAULT_IFS;
    if (!out.split || ifs === "") out.text += value;
    else if (ifs === null || ifs === undefined) {
      out.unknown ??= "$IFS";
      out.dynamic = true;
      out.text += value;
    } else out.text += [...value].map((c) => (ifs.includes(c) ? FIELD_BREAK : c)).join("");
  }

  private appendWord(
    node: Node,
    scope: Scope,
    depth: number,
    subs: RawCommand[],
    out: Building,
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
        out.text += inQuotes ? text : unescapeUnquoted(markBraces(text));
        return;
      }
      case "brace_expression":
        // `{1..3}`: a sequence, expanded together with the word's other braces.
        out.text += inQuotes ? node.text : OPEN + node.text.slice(1, -1) + CLOSE;
        return;
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
      case "simple_expansion":
        return this.variable(node.namedChildren[0]?.text ?? "", node.text, scope, out, inQuotes);
      case "command_substitution":
      case "process_substitution": {
        const kind = node.type === "command_substitution" ? "command substitution" : "process substitution";
        this.tooComplex(kind);
        out.dynamic = true;
        const via = node.child(0)?.type === "`" ? "`...`" : `${node.child(0)?.type ?? "$("}...)`;
        const first = this.commands.length;
        for (const child of node.namedChildren) {
          // `$(< file)` is bash's `$(cat file)`: a redirection alone, which reads the file.
          if (child.type === "file_redirect") this.redirectAlone(child, new Map(scope), depth + 1, via);
          else this.statement(child, new Map(scope), depth + 1, via);
        }
        const inner = this.commands.slice(first);
        subs.push(...inner);
        // `$(echo rm)` is `rm` and `<(printf x)` is a file holding `x`: keep what they give when known.
        const printed = inner.length === 1 && node.namedChildren.length === 1 && inner[0]!.pipe === 0
          ? literalOutput(inner[0]!)
          : undefined;
        if (printed === undefined || node.type === "process_substitution") out.text += node.text;
        else this.expanded(printed.replace(/\n+$/, ""), scope, out, inQuotes);
        if (node.type === "process_substitution" && printed !== undefined) out.printed = printed;
        return;
      }
      case "expansion": {
        const name = node.namedChildren[0];
        if (
          node.namedChildCount === 1 && name?.type === "variable_name" && node.text === `\${${name.text}}`
        ) {
          return this.variable(name.text, node.text, scope, out, inQuotes);
        }
        this.tooComplex("parameter expansion ${...}");
        // Backquotes in a default (`${x:=`cmd`}`) run when the expansion does.
        if (node.text.includes("`")) this.evaluated.push(node.text);
        // `${!n}` evaluates n's value as a name; offsets and subscripts are arithmetic.
        const indirect = node.child(1)?.type === "!" ? scope.get(name?.text ?? "") : undefined;
        if (typeof indirect === "string") this.evaluated.push(indirect);
        this.arithmetic(node, scope, true);
        out.dynamic = true;
        out.text += node.text;
        for (const child of node.namedChildren) {
          if (child.type !== "variable_name") this.appendWord(child, scope, depth, subs, { ...out }, true);
        }
        return;
      }
      case "ansi_c_string":
        // $'\x72m' is `rm`: decoded as bash does (check 4 still flags the quoting).
        out.quoted = true;
        out.text += decodeEscapes(
          node.text.slice(2, -1).replace(
            /\\c(.)/g,
            (_, c: string) => String.fromCharCode(c.toUpperCase().charCodeAt(0) ^ 64),
          ),
          false,
        );
        return;
      case "translated_string":
        this.tooComplex('locale quoting ($"...")');
        out.quoted = true;
        out.dynamic = true;
        out.text += node.text;
        return;
      default:
        this.tooComplex(CONTROL_FLOW[node.type] ?? `unsupported word (${node.type})`);
        if (node.type === "arithmetic_expansion") this.arithmetic(node, scope);
        out.dynamic = true;
        out.text += node.text;
        for (const child of node.namedChildren) {
          this.appendWord(child, scope, depth + 1, subs, { ...out }, inQuotes);
        }
    }
  }
}

const plain = ({ name, value }: Assignment) => ({ name, value });

/** Parts of a `[[ ... ]]` expression that are words (everything else is an operator). */
const TEST_OPERANDS = new Set([
  "word",
  "string",
  "raw_string",
  "ansi_c_string",
  "number",
  "concatenation",
  "simple_expansion",
  "expansion",
  "command_substitution",
  "process_substitution",
]);

/**
 * A number right at the end of a redirection, touching the next one: tree-sitter reads
 * `>& /dev/tcp/h/p 0>&1` with the `0` of `0>&1` in the first redirection.
 */
function isNextDescriptor(redirect: Node, child: Node): boolean {
  const next = redirect.nextSibling;
  return child.type === "number" && child.endIndex === redirect.endIndex && next?.type === "file_redirect" &&
    next.startIndex === child.endIndex;
}

/** The function's own name, or `$FUNCNAME` (which bash sets to it), as the command word. */
function callsItself(command: RawCommand, name: string): boolean {
  const word = command.words[0]?.text;
  return word === name || /^\$(?:FUNCNAME|\{FUNCNAME(?:\[0\])?\})$/.test(word ?? "");
}

const UNKNOWN_VALUE = " is not assigned earlier in this command; its value is unknown";

export function unknownVariable(name: string): string {
  return `${name}${UNKNOWN_VALUE}`;
}

/** Reasons for "too complex" after which every command was still walked and judged: only values are unknown. */
const WALKED_THROUGH = new Set([
  ...Object.values(CONTROL_FLOW),
  "arithmetic command (( ))",
  "command substitution",
  "process substitution",
  "commands after a here-document",
  "expansions inside a here-document",
  "appending assignment (+=)",
  "array assignment",
  "parameter expansion ${...}",
  'locale quoting ($"...")',
]);

/**
 * Whether the walk went through what made the command too complex: control flow, substitutions,
 * unknown values. Not for text it could not parse, words it could not read or nesting past its limits.
 */
export function walkedThrough(reason: string): boolean {
  return WALKED_THROUGH.has(reason) || reason.startsWith("unsupported shell syntax (") ||
    reason.endsWith(UNKNOWN_VALUE);
}

/** `while true`, `while :`, `until false`, `for ((;;))`: a loop whose condition never fails. */
function endless(loop: Node): boolean {
  if (loop.type === "while_statement") {
    const condition = loop.childForFieldName("condition")?.text.replace(/;$/, "").trim() ?? "";
    const always = loop.child(0)?.type === "until"
      ? ["false", "! true", "! :"]
      : ["true", ":", "((1))", "! false"];
    return always.includes(condition);
  }
  // `for ((init; condition; step))`: an empty or non-zero constant condition.
  const parts = loop.children;
  const semicolons = parts.flatMap((part, i) => (part.type === ";" ? [i] : []));
  if (semicolons.length < 2) return false;
  const condition = parts.slice(semicolons[0]! + 1, semicolons[1]).map((part) => part.text).join("").trim();
  return condition === "" || /^[1-9]\d*$/.test(condition);
}

function unescapeUnquoted(text: string): string {
  return text.includes("\\") ? text.replace(/\\(\n|.)/g, (_, c: string) => (c === "\n" ? "" : c)) : text;
}

/** Walks the root of a parsed command. */
export function walkTree(root: Node): WalkResult {
  const walker = new Walker();
  walker.statement(root, new Map(), 0);
  if (root.hasError) walker.complex.add("part of the command could not be parsed");
  return {
    commands: walker.commands,
    complex: [...walker.complex],
    functions: walker.functions,
    evaluated: walker.evaluated,
    arithmeticNames: walker.arithmeticNames,
    unknownValues: [...walker.unknownValues],
    hereDocuments: walker.hereDocuments,
  };
}
