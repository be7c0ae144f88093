/**
 * Code a command runs that its words do not show: inline code that builds the command it runs,
 * values bash evaluates later, options whose value is a program. Each hostile form here was run
 * in real bash 5.2 with a stubbed program (see `fixtures/bash/agent-compound.jsonl`).
 */
import { beforeAll, describe, expect, test } from "bun:test";
import { analyzeBash } from "../../src/bash/analyze.ts";
import { computedReads, computedRuns } from "../../src/bash/inline-code.ts";
import { loadBashParser } from "../../src/bash/parser.ts";
import { assignedCode } from "../../src/bash/shell-values.ts";

beforeAll(async () => {
  await loadBashParser();
});

describe("computedRuns: inline code that builds what it runs", () => {
  test.each([
    'import os; os.system("cu"+"rl x")',
    'BEGIN{system("cu" "rl x")}',
    "import subprocess; subprocess.run(cmd)",
    'getattr(__import__("os"), "system")("id")',
    'system("curl $x")',
    "`curl #{x}`",
    'require("child_" + "process")',
  ])("%s", (code) => {
    expect(computedRuns(code)).toBeDefined();
  });

  test.each([
    'import os; os.system("curl x")',
    'import subprocess; subprocess.run(["git", "status"])',
    "print(1)",
    "process.versions",
    "print if m/regex1/",
  ])("%s runs nothing computed", (code) => {
    expect(computedRuns(code)).toBeUndefined();
  });
});

describe("computedReads: inline code that opens a file whose name it builds", () => {
  // Each printed a scratch workspace's .env in real bash (python3, node, perl, awk).
  test.each([
    ['print(open(".e"+"nv").read())', "open"],
    ['import os\nfor f in os.listdir("."): print(open(f).read())', "open"],
    ['from pathlib import Path; print(Path("."+"env").read_text())', "Path"],
    ['console.log(require("fs").readFileSync(".e"+"nv","utf8"))', "readFileSync"],
    ['const p=".e"+"nv"; console.log(require("fs").readFileSync(p,"utf8"))', "readFileSync"],
    ['open F, ".e"."nv"; print <F>', "open"],
    ['BEGIN{f=".e" "nv"; while((getline l < f)>0) print l}', "getline <"],
  ])("%s", (code, call) => {
    expect(computedReads(code)).toBe(call);
  });
  test.each([
    'print(open(".env").read())',
    'import json; print(json.load(open("package.json"))["version"])',
    'console.log(require("fs").readFileSync("package.json", "utf8"))',
    'print("open(x)")',
    "print(1+1)",
    'BEGIN{while((getline l < "a.txt")>0) print l}',
  ])("%s names what it opens (or opens nothing)", (code) => {
    expect(computedReads(code)).toBeUndefined();
  });
});

describe("assignedCode: values bash runs later", () => {
  test("a literal value's substitutions are read as code", () => {
    expect(assignedCode([{ name: "x", value: "a[$(curl x)]" }]).scripts).toEqual([
      { text: "curl x", via: "the value of x" },
    ]);
  });
  test("PROMPT_COMMAND runs as a command; ENV and BASH_ENV are files of code", () => {
    expect(assignedCode([{ name: "PROMPT_COMMAND", value: "curl x" }]).scripts[0]?.text).toBe("curl x");
    expect(assignedCode([{ name: "BASH_ENV", value: "t.sh" }]).opaque).toHaveLength(1);
    expect(assignedCode([{ name: "ENV", value: "t.sh" }]).opaque).toHaveLength(1);
    expect(assignedCode([{ name: "PS4", value: "+ " }])).toEqual({ scripts: [], opaque: [] });
  });
});

describe("the analysis: opaque or read, never hidden", () => {
  test.each([
    ["read x < n.txt; (( x ))", /arithmetic evaluates the value of x/],
    ["x=$(cat n); let x", /arithmetic evaluates the value of x/],
    ["source t.sh", /source runs the shell code in t\.sh/],
    ["bash -x t.sh", /bash runs the shell code in t\.sh/],
    ["sed -n '1e curl x' a.txt", /sed/],
    ["make --eval='$(shell curl x)'", /make runs inline code/],
    ["gdb -batch -ex 'shell curl x'", /gdb runs inline code/],
    ["ssh -o ProxyCommand='curl x' h", /ProxyCommand/],
    ["vim -c '!curl x' a.txt", /vim \+cmd/],
    ['tar -cf y.tar --checkpoint-action=exec="$C" a.txt', /runs a command whose name is known only/],
    ["openssl req -engine ./x.so -new", /openssl -engine runs another program/],
    ["rpm --eval '%(curl x)'", /rpm --eval runs another program/],
    ['EDITOR="$E" git commit', /EDITOR runs a command known only when it runs/],
    ["read y < f; echo ${a[y]}", /arithmetic evaluates the value of y/],
    ['tclsh <<< "exec curl x"', /tclsh runs the code on its input, which is not read/],
    ["sqlite3 :memory: \"select load_extension('./x.so')\"", /sqlite3 .* runs another program/],
    ["npm test --script-shell=curl", /--script-shell/],
    ['python3 - <<< \'import os; os.system("cu"+"rl x")\'', /python3: its input code runs a command built/],
  ])("%s is opaque", async (command, why) => {
    const a = await analyzeBash(command);
    expect(a.opaque.join("; ")).toMatch(why);
  });

  test.each([
    ["tar --to-command='curl x' -xf x.tar", "curl x"],
    ["tar -cf y.tar --checkpoint=1 --checkpoint-action=exec='curl x' a.txt", "curl x"],
    ["x='a[$(curl x)]'; [[ x -eq 1 ]]", "curl x"],
    ["PS4='$(curl x)'; set -x; :", "curl x"],
    ["echo ${x:=`curl x`}", "curl x"],
    ["alias c='curl x'", "curl x"],
    ["LESSOPEN='|curl x %s' less f", "curl x %s"],
    ["GIT_SSH_COMMAND='true;curl x' git fetch", "curl x"],
    ["script --command='curl x' /dev/null", "curl x"],
    ["script -qc'curl x' /dev/null", "curl x"],
    ['npm pkg set scripts.test="curl x"', "curl x"],
    ["python3 - <<< 'import os; os.system(\"curl x\")'", "curl x"],
  ])("%s is read: rules see %s", async (command, seen) => {
    const a = await analyzeBash(command);
    expect(a.commands.map((c) => c.ruleText)).toContain(seen);
  });

  test("everyday forms stay unhidden", async () => {
    for (
      const command of [
        "tar -I zstd -cf o.tar.zst src",
        "x=3; (( x > 2 ))",
        "i=0; (( i++ ))",
        "alias ll='ls -l'",
        'y=$(cat f); echo "${x:-$y}" "${y:0:3}"',
        "python3 <<'EOF'\nimport json\nprint(json.dumps({'a': 1}))\nEOF",
      ]
    ) {
      expect((await analyzeBash(command)).opaque, command).toEqual([]);
    }
  });
});
