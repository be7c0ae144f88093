/**
 * A line that writes a file and runs a program that executes it (`printf ... > Makefile && make`,
 * `echo ... > t.sh && bash t.sh`, `... > package.json && npm test`): what the file holds is code
 * no deny or ask rule can see. Reviewed data: the files each program runs without being told
 * (its build or task file), besides the file it is given as its program or script. Pure.
 */
import { basename } from "node:path";
import type { CommandTarget } from "./decide.ts";
import type { DecisionRequest } from "./types.ts";

/** Programs and the files they run code from by default, as base names; `*.ext` is any such file. */
export const IMPLICIT_CODE_FILES: Readonly<Record<string, readonly string[]>> = {
  make: ["Makefile", "makefile", "GNUmakefile", "*.mk"],
  gmake: ["Makefile", "makefile", "GNUmakefile", "*.mk"],
  bmake: ["Makefile", "makefile", "BSDmakefile", "*.mk"],
  npm: ["package.json", ".npmrc"],
  pnpm: ["package.json", ".npmrc", "pnpm-workspace.yaml"],
  yarn: ["package.json", ".yarnrc", ".yarnrc.yml"],
  bun: ["package.json", "bunfig.toml"],
  just: ["justfile", "Justfile", ".justfile"],
  rake: ["Rakefile", "rakefile", "*.rake"],
  cargo: ["build.rs", "Cargo.toml", "config.toml"],
  go: ["*.go", "go.mod"],
  gradle: ["build.gradle", "build.gradle.kts", "settings.gradle", "settings.gradle.kts"],
  mvn: ["pom.xml"],
  composer: ["composer.json"],
  tox: ["tox.ini"],
  pytest: ["conftest.py", "pytest.ini", "pyproject.toml"],
  poetry: ["pyproject.toml"],
  uv: ["pyproject.toml"],
  pip: ["setup.py", "pyproject.toml"],
  pip3: ["setup.py", "pyproject.toml"],
  deno: ["deno.json", "deno.jsonc"],
  task: ["Taskfile.yml", "Taskfile.yaml"],
  git: ["config", "*.sh", "pre-commit", "pre-push", "commit-msg", "post-checkout", "post-merge"],
};

/** Shells and interpreters: a file named among their words may be the script they run. */
const RUNS_NAMED_FILE =
  /^(?:(?:ba|da|z|k|mk|fi|c|tc|ya)?sh|source|\.|python[\d.]*|pypy[\d.]*|node|nodejs|deno|bun|perl|ruby|php|lua[\d.]*|Rscript)$/;
/** Programs that run a file given to one option (`make -f F`, `sed -f F`); their operands are data. */
const RUNS_FILE_OPTION = /^(?:make|gmake|bmake|awk|gawk|mawk|nawk|sed)$/;
const FILE_OPTION = /^(?:-f|--file|--makefile)$/;

const plain = (path: string) => path.replace(/^(?:\.\/)+/, "");

function matchesFile(name: string, pattern: string): boolean {
  return pattern.startsWith("*") ? name.endsWith(pattern.slice(1)) : name === pattern;
}

/**
 * Why the line runs code from a file it writes, or undefined: a command whose program is a
 * written file, that is given one as its script, or that runs its build or task file when the
 * line writes one. A write whose place is unknown may be any of them.
 */
export function runsWrittenFile(
  request: Pick<DecisionRequest, "paths" | "cwd">,
  commands: readonly CommandTarget[],
): string | undefined {
  const writes = request.paths.filter((p) => p.access === "write");
  if (writes.length === 0) return undefined;
  const unknown = writes.some((p) => p.unresolved !== undefined);
  const written = new Set(writes.flatMap((p) => [p.path, plain(p.path.replace(`${request.cwd}/`, ""))]));
  const names = new Set(writes.map((p) => basename(p.path)));
  for (const command of commands) {
    // The command without its wrappers (`nohup ./t.sh` runs ./t.sh).
    const words = command.text.split(" ");
    const program = words[0] ?? "";
    const name = basename(program);
    if (program.includes("/") && (written.has(program) || written.has(plain(program)))) {
      return `it writes ${program} and then runs it`;
    }
    const implicit = IMPLICIT_CODE_FILES[name] ?? [];
    const file = [...names].find((n) => implicit.some((pattern) => matchesFile(n, pattern)));
    if (file) return `it writes ${file}, which ${name} runs code from`;
    // The words that may name the file it runs: a script operand, or the value of `-f`.
    const scripts = RUNS_NAMED_FILE.test(name)
      ? words.slice(1)
      : RUNS_FILE_OPTION.test(name)
      ? words.filter((_, i) => i > 0 && FILE_OPTION.test(words[i - 1]!))
      : [];
    const named = scripts.find((w) => written.has(w) || written.has(plain(w)));
    if (named) return `it writes ${named} and then ${name} runs it`;
    if (unknown && (implicit.length > 0 || scripts.length > 0)) {
      return `it writes a file whose name is known only when it runs, which ${name} may run`;
    }
  }
  return undefined;
}
