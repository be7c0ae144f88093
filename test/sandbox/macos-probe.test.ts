/**
 * scripts/macos-probe.sh is run by hand on a Mac; here it is checked for what can be checked anywhere:
 * it parses, shellcheck finds nothing, and every finding of src/sandbox/README.md's macOS table has a
 * probe.
 */
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";

const ROOT = join(import.meta.dir, "../..");
const SCRIPT = join(ROOT, "scripts/macos-probe.sh");
const script = readFileSync(SCRIPT, "utf8");
const findings = [...readFileSync(join(ROOT, "src/sandbox/README.md"), "utf8").matchAll(/^\| (F\d+) +\|/gm)]
  .map((m) => m[1]!);

describe("the macOS probe script", () => {
  test("the README's macOS table lists the findings F1 to F21", () => {
    expect(findings).toEqual(Array.from({ length: 21 }, (_, i) => `F${i + 1}`));
  });

  test.each(findings)("%s has a probe", (finding) => {
    expect(script).toMatch(
      new RegExp(`^\\s*(works|blocked|report [A-Z]+|skip|printf .*GAP) +"?${finding}"? `, "m"),
    );
  });

  test("bash parses it", () => {
    const run = Bun.spawnSync(["bash", "-n", SCRIPT], { stderr: "pipe" });
    expect(run.stderr.toString()).toBe("");
    expect(run.exitCode).toBe(0);
  });

  const shellcheck = Bun.which("shellcheck");
  test.skipIf(!shellcheck)("shellcheck finds nothing", () => {
    const run = Bun.spawnSync([shellcheck!, SCRIPT], { stdout: "pipe" });
    expect(run.stdout.toString()).toBe("");
  });
  if (!shellcheck) console.log("shellcheck is not installed here: its check is skipped");

  test("it refuses to run anywhere but on a Mac", () => {
    if (process.platform === "darwin") return;
    const run = Bun.spawnSync(["bash", SCRIPT], { stderr: "pipe" });
    expect(run.exitCode).toBe(2);
    expect(run.stderr.toString()).toContain("run this on a Mac");
  });
});
