/**
 * Fuzz: thousands of generated and mutated commands. Never an exception; and whenever a check
 * fired or the parse was not simple, no allow rule may approve the command and it is not read-only.
 */
import { expect, test } from "bun:test";
import { analyzeBash, analyzeWith, rulesMayAllow } from "../../src/bash/analyze.ts";

const WORDS = [
  "ls",
  "git",
  "status",
  "rm",
  "-rf",
  "/",
  "~",
  "cat",
  ".env",
  "echo",
  "x",
  "sh",
  "bash",
  "-c",
  "find",
  "-exec",
  "{}",
  "\\;",
  "sudo",
  "env",
  "FOO=1",
  "IFS=,",
  "$HOME",
  "$(id)",
  "`id`",
  "${x}",
  "'a b'",
  '"$y"',
  "*",
  "?",
  "[a]",
  "{a,b}",
  "=curl",
  "<(ls)",
  ">(sh)",
  "$'\\x41'",
  "''",
  "#",
  "a#b",
  "\\ ",
  "\u00a0",
  "\x00",
  "\x1b",
  "\ud800",
  "zmodload",
  "eval",
  "xargs",
  "timeout",
  "5",
  "sed",
  "s/a/b/e",
  "-i",
  "awk",
  "{print}",
  "jq",
  "-f",
  "rg",
  "--pre",
  "tar",
  "--to-command=sh",
];
const JOINS = [
  " ",
  " ",
  " ",
  " && ",
  " || ",
  "; ",
  " | ",
  "\n",
  " > ",
  " 2>&1 ",
  " < ",
  " & ",
  "(",
  ")",
  "{ ",
  " }",
];

function prng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

function generate(random: () => number): string {
  const pick = <T>(list: T[]) => list[Math.floor(random() * list.length)]!;
  let out = pick(WORDS);
  const length = 1 + Math.floor(random() * 10);
  for (let i = 0; i < length; i++) out += pick(JOINS) + pick(WORDS);
  return out;
}

function mutate(command: string, random: () => number): string {
  const chars = [..."'\"\\$`(){}[];&|<>#\n\t ~*=!"];
  const at = Math.floor(random() * (command.length + 1));
  const roll = random();
  if (roll < 0.4) {
    return command.slice(0, at) + chars[Math.floor(random() * chars.length)] + command.slice(at);
  }
  if (roll < 0.7) return command.slice(0, at) + command.slice(at + 1);
  return command.slice(0, at) + command.slice(at).repeat(2);
}

function checkInvariants(command: string, a: Awaited<ReturnType<typeof analyzeBash>>): void {
  const label = JSON.stringify(command);
  if (a.checks.length > 0 || a.parse !== "simple" || a.catastrophic.length > 0) {
    expect(rulesMayAllow(a), label).toBe(false);
    expect(a.readOnly, label).toBe(false);
  }
  if (a.readOnly) expect(rulesMayAllow(a), label).toBe(true);
}

test("3,000 generated and mutated commands: no exception, and findings are never allowable", async () => {
  const random = prng(20260401);
  let flagged = 0;
  for (let i = 0; i < 3000; i++) {
    const base = generate(random);
    const command = i % 2 === 0 ? base : mutate(mutate(base, random), random);
    const a = await analyzeBash(command);
    checkInvariants(command, a);
    if (!rulesMayAllow(a)) flagged++;
  }
  // The generator is built from dangerous fragments: most commands must come out not allowable.
  expect(flagged).toBeGreaterThan(1500);
});

test("the fallback reader holds the same invariants and never yields simple for non-plain text", () => {
  const random = prng(7);
  for (let i = 0; i < 1000; i++) {
    const command = mutate(generate(random), random);
    const a = analyzeWith(command, null);
    if (a.readOnly) expect(a.parse, JSON.stringify(command)).toBe("simple");
    if (a.parse === "parse-unavailable") expect(rulesMayAllow(a), JSON.stringify(command)).toBe(false);
    checkInvariants(command, a);
  }
});
