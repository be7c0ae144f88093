/**
 * Code loaded from files that no word of the line runs (src/bash/code-loading.ts): each variable of
 * the table by its example, the ways a line assigns it, the dynamic loader run by hand, and inline
 * code that opens a shared object. Under a Bash ask rule the sandboxed call asks (the loaded code
 * may run the program the rule names); with no rule the sandbox runs it like any workspace program.
 * That the loaded code really runs, and that the sandbox's program stub stops it at run time too,
 * is shown in test/sandbox/code-loading-run.test.ts.
 */
import { beforeAll, describe, expect, test } from "bun:test";
import { analyzeBash } from "../../src/bash/analyze.ts";
import { LOADING_VARIABLES, loadingVariable, loadsNativeCode } from "../../src/bash/code-loading.ts";
import { withBashParser } from "../../src/cli/check-call.ts";
import { checkedBash, sandbox } from "../policy/helpers.ts";

const box = sandbox();
beforeAll(withBashParser);

async function sandboxed(command: string, ask: string[]): Promise<string> {
  return (await checkedBash(box, command, { sandboxed: true, cliRules: { ask } })).decision;
}

/** Every command of the line is taken to load the code (an assignment lasts for the line). */
async function loads(command: string): Promise<string | undefined> {
  const a = await analyzeBash(command);
  const found = a.commands.map((c) => c.loadsCode);
  return found.every((f) => f !== undefined) ? found[0] : undefined;
}

describe("variables that make a program load code, one test per entry", () => {
  for (const entry of LOADING_VARIABLES) {
    test(`${entry.name}: ${entry.example}`, async () => {
      expect(loadingVariable(entry.name)).toBe(`${entry.name} ${entry.loads}`);
      expect(await loads(entry.example)).toContain(entry.name);
      expect(await sandboxed(entry.example, ["Bash(curl:*)"])).toBe("ask");
    });
  }
  test("the Lua variables in their versioned spellings", () => {
    for (const name of ["LUA_INIT_5_4", "LUA_INIT_5_1", "LUA_CPATH", "LUA_PATH_5_3", "LUA_CPATH_5_2"]) {
      expect(loadingVariable(name), name).toContain(name);
    }
    for (const name of ["LUA_INIT_6_0", "LUA_X", "LD_PRELOADX", "PYTHONPATHS", "NODE_ENV", "PERL5"]) {
      expect(loadingVariable(name), name).toBeUndefined();
    }
  });
});

describe("every way a line assigns one", () => {
  test.each([
    "LD_PRELOAD=./x.so ls",
    "env LD_PRELOAD=./x.so ls",
    "env -i LD_PRELOAD=./x.so ls",
    "export LD_PRELOAD=./x.so; ls",
    "export -- LD_PRELOAD=./x.so; ls",
    "declare -x LD_PRELOAD=./x.so; ls",
    "typeset -x LD_PRELOAD=./x.so; ls",
    "readonly LD_PRELOAD=./x.so; ls",
    "LD_PRELOAD=./x.so; export LD_PRELOAD; ls",
    "export PYTHONSTARTUP=t.py; python3 -i",
    "export PERL5OPT='-I. -Mx'; perl -e 1",
    "export NODE_OPTIONS='--require ./x.js'; node -e 1",
    "bash -c 'LD_PRELOAD=./x.so ls'",
    `git -c core.sshCommand="LD_PRELOAD=./x.so ssh" ls-remote ssh://h/x`,
  ])("%s", async (command) => {
    expect(await loads(command)).toBeDefined();
    expect(await sandboxed(command, ["Bash(curl:*)"])).toBe("ask");
  });
});

describe("the dynamic loader run by hand", () => {
  test.each([
    "/lib64/ld-linux-x86-64.so.2 --preload ./x.so /bin/true",
    "/lib/ld-linux-aarch64.so.1 --audit ./x.so /bin/true",
    "ld.so --library-path . /bin/ls",
    "/lib/ld-musl-x86_64.so.1 --preload ./x.so /bin/true",
  ])("%s", async (command) => {
    expect(await loads(command)).toContain("dynamic loader");
    expect(await sandboxed(command, ["Bash(curl:*)"])).toBe("ask");
  });
});

describe("inline code that opens a shared object", () => {
  test.each([
    `python3 -c "import ctypes; ctypes.CDLL('./x.so')"`,
    `python3 -c "from ctypes import cdll; cdll.LoadLibrary('./x.so')"`,
    `python3 -c "import cffi; cffi.FFI().dlopen('./x.so')"`,
    `node -e "process.dlopen(module, './x.so')"`,
    `node -e "require('./x.node')"`,
    `perl -MDynaLoader -e "DynaLoader::dl_load_file('./x.so')"`,
    `perl -e "require XSLoader; XSLoader::load('X')"`,
    `ruby -e "require 'fiddle'; Fiddle.dlopen('./x.so')"`,
    `deno eval "Deno.dlopen('./x.so', {})"`,
    `lua -e "package.loadlib('./x.so', 'f')()"`,
  ])("%s", async (command) => {
    expect(await loads(command)).toContain("shared object");
    expect(await sandboxed(command, ["Bash(curl:*)"])).toBe("ask");
  });

  test.each([
    `python3 -c "import json; print(json.dumps(1))"`,
    `node -e "console.log(require('path').join('a','b'))"`,
    `perl -e "print 1"`,
    `ruby -e "puts 1"`,
  ])("spared: %s", async (command) => {
    expect(await loads(command)).toBeUndefined();
    expect(await sandboxed(command, ["Bash(curl:*)"])).toBe("allow");
  });

  test("the pattern reads the calls, not any word", () => {
    expect(loadsNativeCode("print('dlopen')")).toContain("dlopen");
    expect(loadsNativeCode("x = mydlopen_count + 1")).toBeUndefined();
    expect(loadsNativeCode("import json")).toBeUndefined();
  });
});

describe("what stays as it was", () => {
  test("with no Bash rule the sandbox runs it, as it runs a program of the workspace", async () => {
    for (const command of ["LD_PRELOAD=./x.so ls", "PYTHONPATH=src python3 -m pytest", "./build.sh"]) {
      expect(await sandboxed(command, []), command).toBe("allow");
    }
  });
  test("a rule on Read or Edit alone is not met by code loading", async () => {
    expect(await sandboxed("LD_LIBRARY_PATH=build/lib ./app", ["Edit(./a.txt)"])).toBe("allow");
  });
  test("variables that only tune output load nothing", async () => {
    for (const command of ["NO_COLOR=1 ls", "LANG=C sort a.txt", "PYTHONUNBUFFERED=1 python3 -c 1"]) {
      expect(await loads(command), command).toBeUndefined();
      expect(await sandboxed(command, ["Bash(curl:*)"]), command).toBe("allow");
    }
  });
});
