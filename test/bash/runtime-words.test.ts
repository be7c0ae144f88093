/**
 * What a command may turn out to be: the words rules would see with run-time values as `*`, what
 * no wildcard can picture, and catastrophes for some value of an unknown word.
 */
import { beforeAll, describe, expect, test } from "bun:test";
import { analyzeBash } from "../../src/bash/analyze.ts";
import { loadBashParser } from "../../src/bash/parser.ts";
import { openWords } from "../../src/bash/runtime-words.ts";

beforeAll(async () => {
  await loadBashParser();
});

test("an open word stands for any words or none, spaces included", () => {
  const open = (w: string) => w.startsWith("$");
  expect(openWords(["git", "$x", "push"], open)).toBe("git*push");
  expect(openWords(["$x", "push"], open)).toBe("*push");
  expect(openWords(["git", "push", "$x"], open)).toBe("git push*");
  expect(openWords(["git", "push"], open)).toBe("git push");
});

describe("open texts", () => {
  test.each([
    ["git $(cat arg) --force", "git*--force"],
    ['git commit -m "$(date)"', "git commit -m*"],
    ["cat list | xargs git", "git*"],
    ["find . -exec git {} +", "git*"],
  ])("%s: %s", async (command, ruleText) => {
    const a = await analyzeBash(command);
    expect(a.commands.map((c) => c.open?.ruleText)).toContain(ruleText);
  });

  test("known words stay as they are", async () => {
    const a = await analyzeBash("g=git; $g push");
    expect(a.commands.every((c) => c.open === undefined)).toBe(true);
    expect(a.commands.at(-1)!.ruleText).toBe("git push");
  });
});

describe("opaque: what no wildcard pictures", () => {
  test.each([
    ["$(cat name) push", /runs a command whose name is known only when it runs/],
    ['eval "$X"', /runs a command whose name is known only when it runs/],
    ['python3 -c "$CODE"', /python3 runs inline code holding \$CODE/],
    ['bash "$SCRIPT"', /bash runs shell code from \$SCRIPT/],
    ["cat cmd.txt | sh", /sh runs code it reads from its input/],
    ['rm -rf "$d"', /may be catastrophic: .*rm-root/],
    ["rm $opts build", /may be catastrophic: .*"-rf \/".*rm-root/],
    ["kill $pid", /may be catastrophic: .*kill-/],
    ["cat list | xargs rm -rf", /may be catastrophic: .*rm-root/],
    ['cd "$d" && rm -rf ./*', /may be catastrophic: .*rm-root/],
    ["echo x\u00a0y", /whitespace/],
    ["git reset $(cat mode)", /may lose work: .*"reset --hard".*\(git-reset-hard\)/],
    ["cat list | xargs git branch", /may lose work: .*\(git-branch-force-delete\)/],
  ])("%s", async (command, why) => {
    const a = await analyzeBash(command);
    expect(a.opaque.join("\n")).toMatch(why);
  });

  test.each([
    "git commit -m \"$(cat <<'EOF'\nmsg\nEOF\n)\"",
    'for f in *.md; do mv "$f" docs/; done',
    "cat > v.txt <<EOF\nbuilt $(date)\nEOF",
    "if [ -f x ]; then make; fi\nnpm test",
    "echo 'ls' | sh",
    "git add $(git ls-files -m)",
  ])("nothing opaque in %s", async (command) => {
    expect((await analyzeBash(command)).opaque).toEqual([]);
  });
});

test("a loop over known values is judged value by value: the root is a catastrophe", async () => {
  const a = await analyzeBash('for d in build / ; do rm -rf "$d"; done');
  expect(a.catastrophic.map((c) => c.id)).toEqual(["rm-root"]);
  expect(a.commands.map((c) => c.ruleText)).toEqual(["rm -rf build", "rm -rf /"]);
});

test("a loop over a pattern keeps the pattern wherever the variable is used", async () => {
  const a = await analyzeBash('cd / && for f in u*; do rm -rf "$f"; done');
  expect(a.catastrophic.map((c) => c.id)).toEqual(["rm-root"]);
});
