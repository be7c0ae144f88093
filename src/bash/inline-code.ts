/**
 * Code given to an interpreter on its command line (`python3 -c CODE`, `perl -e CODE`,
 * `node -e CODE`, an awk program), read for what it hands back to the shell: the literal commands
 * it runs (`os.system("rm -rf ~")`, `` `...` ``, `subprocess.run(["rm", "-rf", "/"])`), its
 * deletions through a library (`shutil.rmtree("/")` is `rm -rf /`), and whether it forks forever
 * or wires a socket to a shell. Only literal text is read; anything computed stays unknown.
 *
 * ```ts
 * inlineCode("python3", ["-c", "import os; os.system('rm -rf ~')"])?.code; // "import os; os.system('rm -rf ~')"
 * shellPayloads("import os; os.system('rm -rf ~')");                     // ["rm -rf ~"]
 * ```
 */
import { awkPrograms } from "./awk.ts";
import { interpreterName } from "./rules.ts";

export interface InlineCode {
  /** The interpreter as named (`python3`). */
  interpreter: string;
  code: string;
}

/** Value-taking short options that end a cluster (the rest of the word, or the next word, is their value). */
const VALUE_LETTERS: Record<string, string> = {
  python: "WXQ",
  perl: "IMmxCiDd0l",
  ruby: "IrECxiKWT0l",
};
const CODE_LETTERS: Record<string, string> = { python: "c", perl: "eE", ruby: "e", lua: "e", php: "r" };
const CODE_LONG: Record<string, RegExp> = {
  node: /^(?:-[ep]|--eval|--print|-pe|-ep)$/,
  bun: /^(?:-[ep]|--eval|--print)$/,
  osascript: /^-e$/,
};
const AWKS = new Set(["awk", "gawk", "mawk", "nawk", "busybox-awk"]);

/** Whether the language's code is read here (`shellPayloads`, `computedRuns` know its calls). */
export function readsLanguage(name: string): boolean {
  const language = interpreterName(name.slice(name.lastIndexOf("/") + 1));
  return language === "deno" || AWKS.has(language) || language in CODE_LONG || language in CODE_LETTERS;
}

/** The inline code of an interpreter invocation, several `-e` parts joined by newlines. */
export function inlineCode(name: string, args: readonly string[]): InlineCode | undefined {
  const language = interpreterName(name.slice(name.lastIndexOf("/") + 1));
  const parts: string[] = [];
  if (language === "deno") {
    if (args[0] === "eval" && args[1] !== undefined) {
      parts.push(args.slice(1).find((a) => !a.startsWith("-")) ?? "");
    }
  } else if (AWKS.has(language)) {
    parts.push(...awkPrograms(args));
  } else if (CODE_LONG[language]) {
    args.forEach((a, i) => {
      const eq = a.indexOf("=");
      if (a.startsWith("--") && eq !== -1 && CODE_LONG[language]!.test(a.slice(0, eq))) {
        parts.push(a.slice(eq + 1));
      } else if (CODE_LONG[language]!.test(a) && args[i + 1] !== undefined) parts.push(args[i + 1]!);
    });
  } else if (CODE_LETTERS[language]) {
    parts.push(...clusterCode(args, CODE_LETTERS[language]!, VALUE_LETTERS[language] ?? ""));
  }
  return parts.length > 0 ? { interpreter: name, code: parts.join("\n") } : undefined;
}

/** `-c CODE`, `-cCODE`, `-Ic CODE`, repeated `-e` parts; stops at `--` or the first operand. */
function clusterCode(args: readonly string[], codeLetters: string, valueLetters: string): string[] {
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === "--" || !a.startsWith("-") || a === "-") break;
    if (a.startsWith("--")) continue;
    for (let j = 1; j < a.length; j++) {
      const letter = a[j]!;
      if (codeLetters.includes(letter)) {
        const rest = a.slice(j + 1);
        const code = rest !== "" ? rest : args[++i];
        if (code !== undefined) out.push(code);
        break;
      }
      if (valueLetters.includes(letter)) {
        if (j === a.length - 1 && /[WXQIrECKT]/.test(letter)) i++;
        break;
      }
    }
  }
  return out;
}

/** A string literal in code: its text, where it starts, and whether the language runs it as a command. */
interface Literal {
  text: string;
  start: number;
  end: number;
  /** Backticks, `qx{}`, `%x()`: the language runs the text as a shell command. */
  runs: boolean;
}

/** Functions whose string argument is a shell command, or whose list argument is an argv. */
const EXEC_CALL =
  /\b(?:eval|system|popen|popen[234]|exec[a-zA-Z_]*|spawn[a-zA-Z_]*|call|check_call|check_output|run|Popen|getoutput|getstatusoutput|shell_exec|passthru|proc_open|execute|capture[23e]?|pipeline[a-z_]*|Command|do\s+shell\s+script)\b\s*(?:\(|(?=\s*(?:["'\[]|qw\W)))/g;

/**
 * `__import__("shutil").rmtree`, `require("fs").rmSync`, `require("node:os").homedir()`: modules
 * reached without an import statement, written as the module's name so the patterns below see
 * `shutil.rmtree`, `fs.rmSync` and `os.homedir()`.
 */
function withModuleNames(code: string): string {
  return code.replace(
    /\b(?:__import__|require|importlib\.import_module)\(\s*(['"])(?:node:)?([\w.\/-]+)\1\s*\)/g,
    "$2",
  );
}
/** Anything the readers below could find: a call they know, a backtick, qx or %x. */
const MAY_RUN =
  /`|\bqx|%x|system|popen|exec|spawn|call|\brun\b|Popen|getoutput|shell_exec|passthru|proc_open|execute|capture|pipeline|Command|shell\s+script|rmtree|remove_|rm_r|\brm\b|rmSync|rmdirSync|rimraf|removeSync|emptyDirSync|remove\(|eval/;
/** Library calls that delete a tree: the first literal argument is the root. */
const TREE_DELETE =
  /\b(?:rmtree|remove_tree|rm_rf|rm_r|remove_dir|remove_entry(?:_secure)?|rmSync|rmdirSync|rimraf(?:Sync)?|removeSync|emptyDirSync|Deno\.remove|fs\.rm|promises\.rm|rm)\s*\(/g;
/** Ways code names the home directory; read as the literal `~`. */
const HOME_EXPRESSIONS =
  /os\.path\.expanduser\(\s*(['"])~\1\s*\)|(?:pathlib\.)?Path\.home\(\)|os\.homedir\(\)|os\.environ\[\s*(['"])HOME\2\s*\]|os\.getenv\(\s*(['"])HOME\3\s*\)|process\.env\.HOME|process\.env\[\s*(['"])HOME\4\s*\]|\$ENV\{\s*HOME\s*\}|ENV\[\s*(['"])HOME\5\s*\]|Dir\.home|Deno\.env\.get\(\s*(['"])HOME\6\s*\)|getenv\(\s*(['"])HOME\7\s*\)/g;

/**
 * Shell commands the code runs whose text is literal, as shell source: a command string as is, an
 * argv list quoted word by word, and library tree deletions as `rm -rf -- ROOT`.
 */
export function shellPayloads(code: string, depth = 0): string[] {
  // Most inline code (awk programs above all) runs nothing: found without reading its strings.
  if (!MAY_RUN.test(code)) return [];
  const text = withModuleNames(code).replace(HOME_EXPRESSIONS, '"~"');
  const literals = stringLiterals(text);
  const out: string[] = literals.filter((l) => l.runs).map((l) => l.text);
  for (const [pattern, asDeletion] of [[EXEC_CALL, false], [TREE_DELETE, true]] as const) {
    for (const m of text.matchAll(pattern)) {
      const args = argumentLiterals(text, m.index! + m[0].length, literals);
      if (args.length === 0) continue;
      if (asDeletion) {
        out.push(`rm -rf -- ${shellWord(args[0]!.text)}`);
        continue;
      }
      // A command string (`system("rm -rf /")`) or an argv (`system "rm", "-rf", "/"`, `run([...])`):
      // which one depends on the call, so both readings are analyzed.
      if (!args[0]!.inList) out.push(args[0]!.text);
      if (args.length > 1 || args[0]!.inList) out.push(args.map((a) => shellWord(a.text)).join(" "));
      // `exec("...")` and `eval("...")` run code of the language itself: read it too.
      if (/^(?:exec|eval)\b/.test(m[0]) && depth < 2) out.push(...shellPayloads(args[0]!.text, depth + 1));
    }
  }
  return [...new Set(out)];
}

/**
 * Ways code reaches a program or a function by a computed name (`__import__`, `getattr`,
 * `send`, `require(name)`): what it runs then is known only when it runs.
 */
const REFLECTION =
  /__import__|importlib|\bgetattr\b|\bglobals\s*\(|\bvars\s*\(|__builtins__|__dict__|\bcompile\s*\(|\bFunction\s*\(|\b(?:public_)?send\s*\(|instance_eval|constantize|\bdo\s*\(?\s*["'$]|\b(?:require|import)\s*\((?!\s*(["'])[^"']*\1\s*\))|\[\s*["'][^"']*["']\s*\+|&\s*\$|\$\{\s*\\|->\$\w+\s*\(/;

/**
 * Why the code may run a program that its literal text does not name, or undefined when every
 * call that runs one (`system`, `subprocess.run`, backticks) is given only literal text: an
 * argument built at run time (`"cu" + "rl"`, `"cu" "rl"`, a variable, interpolation) or a
 * computed name. Literal payloads are read by `shellPayloads` for rules to see.
 */
export function computedRuns(code: string): string | undefined {
  const reflective = REFLECTION.exec(code);
  if (reflective) return `its inline code reaches code by a computed name (${reflective[0].trim()})`;
  if (!MAY_RUN.test(code)) return undefined;
  const literals = stringLiterals(code);
  for (const l of literals) {
    if (l.runs && /[$@]|#\{/.test(l.text)) return "its inline code runs a command built at run time";
  }
  for (const m of code.matchAll(EXEC_CALL)) {
    const rest = argumentText(code, m.index! + m[0].length, literals);
    if (rest !== undefined) return `its inline code runs a command built at run time (${m[0].trim()})`;
  }
  return undefined;
}

/** Calls that open or read the file their argument names (Python, Node, Deno, Bun, Ruby, Perl, PHP, Lua). */
const READ_CALL =
  /\b(?:open|io\.open|codecs\.open|Path|readFileSync|readFile|createReadStream|openSync|readTextFile|readTextFileSync|Bun\.file|File\.(?:read|open|readlines|foreach|binread)|IO\.(?:read|readlines|foreach|binread)|fopen|file_get_contents|file|readfile|slurp)\b\s*(?:\(|(?=\s*[\w"']))/g;
/** awk reads a file through `getline < FILE`. */
const AWK_GETLINE = /\bgetline\b[^<;\n]*<\s*[^\s"]/;

/**
 * The call through which the code may read a file its literal text does not name
 * (`open(".e" + "nv")`, `open(f)`, `readFileSync(p)`, awk's `getline < f`), or undefined when every
 * call that opens one is given only literal text. Literal names are judged as words of the command
 * (rules about `.env` meet `open(".env")`).
 */
export function computedReads(code: string): string | undefined {
  if (AWK_GETLINE.test(code)) return "getline <";
  const literals = stringLiterals(code);
  for (const m of code.matchAll(READ_CALL)) {
    if (literals.some((l) => m.index! > l.start && m.index! < l.end)) continue; // inside a string
    if (argumentText(code, m.index! + m[0].length, literals) !== undefined) {
      return m[0].replace(/\s*\(?\s*$/, "");
    }
  }
  return undefined;
}

/**
 * Undefined when one call's arguments are literals and list punctuation only (commas between
 * them, brackets), no interpolation in them; otherwise the first thing that is not.
 */
function argumentText(code: string, from: number, literals: Literal[]): string | undefined {
  let depth = code[from - 1] === "(" ? 1 : 0;
  let previousLiteral = false;
  for (let i = from; i < code.length; i++) {
    const literal = literals.find((l) => l.start === i);
    if (literal) {
      // Two literals side by side are one concatenated string (awk, Python): built, not named.
      if (previousLiteral || /[$@]|#\{/.test(literal.text) || /^[fFbBrRuU]$/.test(code[i - 1] ?? "")) {
        return literal.text;
      }
      previousLiteral = true;
      i = literal.end - 1;
      continue;
    }
    const c = code[i]!;
    if (/\s/.test(c)) continue;
    if (c === ",") previousLiteral = false;
    else if (c === "[" || c === "]") previousLiteral = false;
    else if (c === "(") depth++;
    else if (c === ")") {
      if (--depth <= 0) return undefined;
    } else if (depth === 0 && (c === ";" || c === "\n")) return undefined;
    else return c;
  }
  return undefined;
}

/** The literals of one call's arguments, up to its closing parenthesis (or the statement's end). */
function argumentLiterals(
  code: string,
  from: number,
  literals: Literal[],
): { text: string; inList: boolean }[] {
  const out: { text: string; inList: boolean }[] = [];
  let depth = code[from - 1] === "(" ? 1 : 0;
  let list = 0;
  for (let i = from; i < code.length; i++) {
    const literal = literals.find((l) => l.start === i);
    if (literal) {
      out.push({ text: literal.text, inList: list > 0 });
      i = literal.end - 1;
      continue;
    }
    const c = code[i]!;
    if (c === "[") list++;
    else if (c === "]") list = Math.max(0, list - 1);
    else if (c === "(") depth++;
    else if (c === ")" && --depth <= 0) break;
    else if (depth === 0 && (c === ";" || c === "\n")) break;
  }
  return out;
}

/** A word as shell source: plain words and `~`/`~/x` as they are, anything else single-quoted. */
function shellWord(text: string): string {
  if (/^[\w@%+=:,./~-]+$/.test(text) && !/^~[^/]/.test(text)) return text;
  return `'${text.replaceAll("'", "'\\''")}'`;
}

/** Quoted strings of any of the languages: '...', "...", triple quotes, `...`, qx{}, q(), %x(). */
function stringLiterals(code: string): Literal[] {
  const out: Literal[] = [];
  for (let i = 0; i < code.length; i++) {
    const c = code[i]!;
    const quoted = /^(?:qq|qx|qw|q|%[xqQwW]?)([^\w\s])/.exec(code.slice(i, i + 4));
    if (quoted && (i === 0 || !/[\w$@%]/.test(code[i - 1]!))) {
      const open = quoted[1]!;
      const close = PAIRS[open] ?? open;
      const start = i + quoted[0].length;
      const end = findClose(code, start, close, open === close ? undefined : open);
      out.push({
        text: code.slice(start, end),
        start: i,
        end: end + 1,
        runs: /^(?:qx|%x)$/.test(quoted[0].slice(0, -1)),
      });
      i = end;
      continue;
    }
    if (c !== "'" && c !== '"' && c !== "`") continue;
    const triple = code.startsWith(c.repeat(3), i) && c !== "`";
    const delimiter = triple ? c.repeat(3) : c;
    const start = i + delimiter.length;
    let end = start;
    while (end < code.length && !code.startsWith(delimiter, end)) end += code[end] === "\\" ? 2 : 1;
    out.push({
      text: unescape(code.slice(start, end)),
      start: i,
      end: end + delimiter.length,
      runs: c === "`",
    });
    i = end + delimiter.length - 1;
  }
  return out;
}

const PAIRS: Record<string, string> = { "(": ")", "[": "]", "{": "}", "<": ">" };

function findClose(code: string, from: number, close: string, open?: string): number {
  let depth = 1;
  for (let i = from; i < code.length; i++) {
    if (code[i] === "\\") {
      i++;
      continue;
    }
    if (open !== undefined && code[i] === open) depth++;
    else if (code[i] === close && --depth === 0) return i;
  }
  return code.length;
}

function unescape(text: string): string {
  return text.includes("\\") ? text.replace(/\\(["'`\\$])/g, "$1") : text;
}

/** Calls that fetch from the network, in the languages `inlineCode` reads. */
const FETCH =
  /\burlopen\b|\burlretrieve\b|\brequests\.(?:get|post)\b|\bhttpx\.|\bhttp\.client\b|\b(?:https?)\.(?:get|request)\b|\bfetch\s*\(|\bNet::HTTP\b|\bOpen::URI\b|\bURI\.open\b|\bLWP::|\bHTTP::Tiny\b|\bfile_get_contents\s*\(\s*["']https?:|\bsocket\b/;
/** Calls that run text as code of the language itself. */
const RUN_TEXT =
  /\b(?:exec|eval|compile|execfile|Function|instance_eval|class_eval|runInThisContext|runInNewContext)\s*\(|\beval\s+\$|\bnew\s+Function\b/;

/** The code fetches something over the network and runs text as code: download and execute. */
export function downloadsAndRuns(code: string): boolean {
  const text = withModuleNames(code);
  const bare = maskLiterals(text);
  return FETCH.test(bare) && RUN_TEXT.test(bare);
}

/** Calls and modes that write the file a literal names. */
const WRITES_FILE =
  /\bopen\s*\([^)]*,\s*(?:mode\s*=\s*)?["'][^"']*[wax+]|\b(?:writeFileSync|appendFileSync|writeFile|appendFile|write_text|write_bytes|File\.write|IO\.write|file_put_contents|truncate|unlink|remove|rename|copyfile|copy2?|move)\s*\(|\bopen\s*\(?\s*\w*\s*,?\s*["']\s*(?:>|>>|\+<)|\bopen\s*\([^)]*["'](?:>>|>|\+<)/;

/** String literals of code that writes files: the paths it may write (judged with the code). */
export function writtenLiterals(code: string): string[] {
  const text = withModuleNames(code);
  if (!WRITES_FILE.test(text)) return [];
  return stringLiterals(text).map((l) => l.text.replace(/^\s*(?:>>|>|\+<)\s*/, ""));
}

/** The code forks in a loop: `while True: os.fork()`, `fork while fork`, `loop { fork }`. */
export function forksForever(code: string): boolean {
  const bare = maskLiterals(code);
  return /\bfork\b/.test(bare) && /\b(?:while|until|loop|for)\b/.test(bare);
}

const SOCKET =
  /\bsocket\b|\bfsockopen\b|\bTCPSocket\b|IO::Socket|\bnet\.(?:connect|createConnection|Socket)\b|\/inet\d?\/(?:tcp|udp)\/|\bSocket::|\bnew\s+Socket\b|\bDeno\.connect\b|\bBun\.connect\b|\bstream_socket_client\b/;
const SHELL_TEXT =
  /(?:^|[\s/"'`])(?:ba|da|z|k)?sh(?:\s+-i)?(?=$|[\s"'`])|\bcmd(?:\.exe)?\b|\bpty\.spawn\b|\/bin\/(?:ba|da|z|k)?sh\b/;

/** The code opens a network connection and runs a shell (a reverse or bind shell). */
export function socketToShell(written: string): boolean {
  const code = withModuleNames(written);
  if (!SOCKET.test(code)) return false;
  return SHELL_TEXT.test(code) ||
    /\|&|\bsystem\b|\|\s*getline/.test(maskLiterals(code)) && /\/inet/.test(code);
}

function maskLiterals(code: string): string {
  let out = "";
  let last = 0;
  for (const l of stringLiterals(code)) {
    out += code.slice(last, l.start) + '""';
    last = l.end;
  }
  return out + code.slice(last);
}
