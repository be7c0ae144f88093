/**
 * Code a command line loads from files that none of its words runs as a program: a shared object
 * the dynamic loader preloads (`LD_PRELOAD=./x.so ls`), a startup file or module an interpreter
 * reads because of its environment (`PYTHONSTARTUP`, `PERL5OPT=-Mx`, `NODE_OPTIONS=--require`),
 * the loader run by hand (`ld.so --preload ./x.so /bin/true`), and inline code that opens a shared
 * object (`ctypes.CDLL`, `process.dlopen`, `DynaLoader::dl_load_file`). That code may run any
 * program, and deny and ask rules cannot see which: under such a rule the sandbox does not stand in
 * for the person (`may-match.ts`); with none, it is a program of the workspace run in the sandbox,
 * like `./build.sh`. Reviewed data, one test per entry. Pure.
 *
 * ```ts
 * loadingVariable("LD_PRELOAD"); // "LD_PRELOAD makes the dynamic loader load these shared objects into every program it starts"
 * loadsNativeCode('import ctypes; ctypes.CDLL("./x.so")'); // "its inline code loads a shared object (ctypes.CDLL)"
 * ```
 */
import type { Judged, RawCommand } from "./command.ts";

export interface LoadingVariable {
  name: string;
  /** What the program does with the value. */
  loads: string;
  /** A line that loads code through it (verified in real bash where the program is common). */
  example: string;
}

/**
 * Variables whose value makes a program load code from a file, or run code, when it starts. `ENV`
 * and `BASH_ENV` are shell startup files and stay opaque (`shell-values.ts`); variables naming a
 * command line (`GIT_SSH_COMMAND`, `PAGER`) are read as scripts there too.
 */
export const LOADING_VARIABLES: readonly LoadingVariable[] = [
  {
    name: "LD_PRELOAD",
    loads: "makes the dynamic loader load these shared objects into every program it starts",
    example: "LD_PRELOAD=./x.so ls",
  },
  {
    name: "LD_AUDIT",
    loads: "makes the dynamic loader load these auditing shared objects into every program it starts",
    example: "LD_AUDIT=./x.so ls",
  },
  {
    name: "LD_LIBRARY_PATH",
    loads: "makes the dynamic loader take a program's shared libraries from these directories first",
    example: "LD_LIBRARY_PATH=. ls",
  },
  {
    name: "GCONV_PATH",
    loads: "makes glibc load character-set conversion modules (shared objects) from these directories",
    example: "GCONV_PATH=. iconv -f x -t y a.txt",
  },
  {
    name: "DYLD_INSERT_LIBRARIES",
    loads: "makes the macOS dynamic loader load these libraries into every program it starts",
    example: "DYLD_INSERT_LIBRARIES=./x.dylib ls",
  },
  {
    name: "DYLD_LIBRARY_PATH",
    loads: "makes the macOS dynamic loader take libraries from these directories first",
    example: "DYLD_LIBRARY_PATH=. ls",
  },
  {
    name: "DYLD_FRAMEWORK_PATH",
    loads: "makes the macOS dynamic loader take frameworks from these directories first",
    example: "DYLD_FRAMEWORK_PATH=. ls",
  },
  {
    name: "PYTHONSTARTUP",
    loads: "names a file of Python code an interactive python runs first",
    example: "PYTHONSTARTUP=t.py python3 -i",
  },
  {
    name: "PYTHONPATH",
    loads:
      "puts these directories before the standard library: python imports sitecustomize and modules from them",
    example: "PYTHONPATH=. python3 -c 1",
  },
  {
    name: "PYTHONHOME",
    loads: "makes python take its standard library (and the code it runs at start) from this directory",
    example: "PYTHONHOME=. python3 -c 1",
  },
  {
    name: "PYTHONBREAKPOINT",
    loads: "names a function python imports and calls at breakpoint()",
    example: "PYTHONBREAKPOINT=x.run python3 -c 'breakpoint()'",
  },
  {
    name: "PERL5OPT",
    loads: "gives perl options, `-M` and `-I` among them: it loads the modules they name",
    example: "PERL5OPT='-I. -Mx' perl -e 1",
  },
  {
    name: "PERL5LIB",
    loads: "puts these directories before perl's own: the modules perl loads come from them",
    example: "PERL5LIB=. perl -Mstrict -e 1",
  },
  {
    name: "PERLLIB",
    loads: "puts these directories before perl's own (when PERL5LIB is not set)",
    example: "PERLLIB=. perl -Mstrict -e 1",
  },
  {
    name: "PERL5DB",
    loads: "is the Perl code `perl -d` runs as its debugger",
    example: "PERL5DB='system q(curl x)' perl -d -e 1",
  },
  {
    name: "RUBYOPT",
    loads: "gives ruby options, `-r` among them: it loads the files they name",
    example: "RUBYOPT=-r./x ruby -e 1",
  },
  {
    name: "RUBYLIB",
    loads: "puts these directories before ruby's own: the files ruby requires come from them",
    example: "RUBYLIB=. ruby -rjson -e 1",
  },
  {
    name: "NODE_OPTIONS",
    loads:
      "gives node options, `--require`, `--import` and `--loader` among them: it loads the files they name",
    example: "NODE_OPTIONS='--require ./x.js' node -e 1",
  },
  {
    name: "NODE_PATH",
    loads: "adds directories node's require searches: the modules it loads may come from them",
    example: "NODE_PATH=. node -e 'require(\"x\")'",
  },
  {
    name: "JAVA_TOOL_OPTIONS",
    loads: "gives every JVM options, `-javaagent` and `-agentpath` among them: it loads the code they name",
    example: "JAVA_TOOL_OPTIONS=-javaagent:x.jar java -version",
  },
  {
    name: "_JAVA_OPTIONS",
    loads: "gives every JVM options, `-javaagent` and `-agentpath` among them",
    example: "_JAVA_OPTIONS=-javaagent:x.jar java -version",
  },
  {
    name: "JDK_JAVA_OPTIONS",
    loads: "gives the java launcher options, `-javaagent` among them",
    example: "JDK_JAVA_OPTIONS=-javaagent:x.jar java -version",
  },
  {
    name: "LUA_INIT",
    loads: "is Lua code (or `@FILE`, a file of it) lua runs when it starts; LUA_INIT_5_1 to _5_4 too",
    example: "LUA_INIT=@x.lua lua -v",
  },
  {
    name: "LUA_PATH",
    loads: "sets where lua's require finds Lua modules (LUA_CPATH: shared objects)",
    example: "LUA_PATH='./?.lua' lua -e 'require(\"x\")'",
  },
];

const BY_NAME = new Map(LOADING_VARIABLES.map((v) => [v.name, v]));
/** Versioned and C-module spellings of the Lua variables. */
const LUA_VARIANT = /^LUA_(INIT|PATH|CPATH)(?:_5_[1-4])?$/;

/** Why assigning `name` makes programs load code, or undefined when it does not. */
export function loadingVariable(name: string): string | undefined {
  const lua = LUA_VARIANT.exec(name);
  const entry = BY_NAME.get(lua ? (lua[1] === "INIT" ? "LUA_INIT" : "LUA_PATH") : name);
  return entry ? `${name} ${entry.loads}` : undefined;
}

/** The dynamic loader run as a program (`/lib64/ld-linux-x86-64.so.2`, `ld.so`, `ld-musl-x86_64.so.1`). */
const DYNAMIC_LOADER = /^ld(?:-linux[\w.-]*|-musl[\w.-]*)?\.so(?:\.\d+)*$/;
/** Its options that load shared objects or take libraries from elsewhere. */
const LOADER_OPTIONS = /^--(?:preload|audit|library-path)$/;

/** Why running the dynamic loader by hand loads code the line does not show, if it does. */
export function loaderLoads(name: string, args: readonly string[]): string | undefined {
  if (!DYNAMIC_LOADER.test(name.slice(name.lastIndexOf("/") + 1))) return undefined;
  const option = args.find((a) => LOADER_OPTIONS.test(a.replace(/=.*$/s, "")));
  return option === undefined
    ? undefined
    : `the dynamic loader's ${option} loads shared objects into the program`;
}

/**
 * Calls of interpreters' foreign-function and loading interfaces that open a shared object (or a
 * native module): Python ctypes and cffi, node's process.dlopen and `.node` addons, Perl's
 * DynaLoader and XSLoader, Ruby's Fiddle and FFI, Deno and Bun FFI, Lua's package.loadlib and
 * LuaJIT's ffi.load, Java's System.load.
 */
const NATIVE_LOAD =
  /\b(?:ctypes|cdll|CDLL|PyDLL|LoadLibrary|cffi|dlopen|DynaLoader|dl_load_file|XSLoader|Fiddle|FFI\s*::|ffi-napi|bun:ffi|loadlib|ffi\s*\.\s*load|System\s*\.\s*load(?:Library)?)\b|\.node["'`]/;

/** Why inline code loads native code that no rule can see, or undefined. */
export function loadsNativeCode(code: string): string | undefined {
  const found = NATIVE_LOAD.exec(code);
  return found ? `its inline code loads a shared object (${found[0].trim()})` : undefined;
}

/** Builtins whose operands may be assignments that outlast the command (`export -- X=1`, `typeset -x X=1`). */
const DECLARATIONS = new Set(["export", "declare", "typeset", "local", "readonly"]);

/**
 * Why a command line loads code from files, or undefined: an assignment anywhere in it (before a
 * command, bare, exported, declared, or given to `env`/`sudo`) of a variable above, or the
 * dynamic loader run with an option that loads. An assignment lasts for the rest of the line, so
 * every command of the line is taken to load it.
 */
export function codeLoadedByLine(raws: readonly RawCommand[], judged: readonly Judged[]): string | undefined {
  const names = [
    ...raws.flatMap((raw) => raw.assignments.map((a) => a.name)),
    ...judged.flatMap((j) => Object.keys(j.command.env)),
    ...judged.filter((j) => DECLARATIONS.has(j.name)).flatMap((j) =>
      j.args.flatMap((a) => /^[A-Za-z_]\w*(?=\+?=)/.exec(a)?.[0] ?? [])
    ),
  ];
  for (const name of names) {
    const why = loadingVariable(name);
    if (why !== undefined) return why;
  }
  for (const j of judged) {
    const why = loaderLoads(j.name, j.args);
    if (why !== undefined) return why;
  }
  return undefined;
}
