/**
 * Destructive-command warnings: information for the person approving a command. They never change
 * a decision; they show in prompts and in `toolrt check`.
 */
import type { Judged } from "./command.ts";
import { resolveGit } from "./git.ts";

/** Gets the command name and its arguments; git rules get the subcommand and its arguments. */
type Rule = (name: string, args: string[]) => string | null;

const has = (args: string[], ...flags: string[]) => args.some((a) => flags.includes(a));
const cluster = (args: string[], letter: string) =>
  args.some((a) => new RegExp(`^-[a-zA-Z]*${letter}`).test(a));

/** Git commands that throw away work are the work-loss table's (`work-loss.ts`); these only risk. */
const GIT_RULES: Rule[] = [
  (_, a) => has(a, "--no-verify") ? "may skip safety hooks" : null,
  (sub, a) => sub === "commit" && has(a, "--amend") ? "may rewrite the last commit" : null,
];

const RULES: Rule[] = [
  (n, a) =>
    n === "rm" && (cluster(a, "[rR]") || has(a, "--recursive")) && (cluster(a, "f") || has(a, "--force"))
      ? "may recursively force-remove files"
      : null,
  (n, a) => n === "find" && a.includes("-delete") ? "may delete every file it finds" : null,
  (_, a) =>
    a.some((x) =>
        /\b(?:DROP\s+(?:TABLE|DATABASE|SCHEMA|INDEX|VIEW|USER)|TRUNCATE(?:\s+TABLE)?\s+\w)/i.test(x)
      )
      ? "may drop or truncate database objects"
      : null,
  (_, a) => a.some((x) => /\bDELETE\s+FROM\s+[\w."`]+\s*(?:;|$)/i.test(x)) ? "may delete all rows" : null,
  (n, a) => n === "kubectl" && a.includes("delete") ? "may delete Kubernetes resources" : null,
  (n, a) =>
    n === "terraform" && (a.includes("destroy") || has(a, "-destroy"))
      ? "may destroy Terraform infrastructure"
      : null,
  (n, a) =>
    n === "docker" && (a.includes("prune") || (a[0] === "rm" && cluster(a, "f")) || has(a, "--volumes"))
      ? "may remove Docker containers, images or volumes"
      : null,
  (n, a) =>
    n === "dd" && a.some((x) => x.startsWith("of=")) ? "may overwrite a file or disk block by block" : null,
  (n, a) =>
    (n === "chmod" || n === "chown") && (cluster(a, "R") || has(a, "--recursive"))
      ? "changes ownership or permissions recursively"
      : null,
];

/** Warnings for every command, deduplicated, in rule order. */
export function destructiveWarnings(judged: Judged[]): string[] {
  const out = new Set<string>();
  const apply = (rules: Rule[], name: string, args: string[]) => {
    for (const rule of rules) {
      const warning = rule(name, args);
      if (warning) out.add(warning);
    }
  };
  for (const j of judged) {
    for (const loss of j.workLoss ?? []) out.add(loss.name);
    if (j.name === "git") {
      const call = resolveGit(j.args);
      apply(GIT_RULES, call.subcommand ?? "", call.args);
    }
    apply(RULES, j.name, j.args);
  }
  return [...out];
}
