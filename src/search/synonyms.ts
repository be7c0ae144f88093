/**
 * The verbs and nouns models use for the same thing ("remove" a file, "delete_file"; "ticket",
 * "issue"). Hand-written and small: words in a group stand for each other; a directed entry lends a
 * word the meaning of others without the reverse ("open" a PR is "create", but "create" is not
 * "open"). WeightedTerm happens on the query side only, so the index stays the tools' own words.
 */
import type { WeightedTerm } from "./index.ts";
import { stem } from "./tokenize.ts";

/** Words that stand for each other in tool-use requests. */
const GROUPS: readonly string[] = [
  "create add new make insert post register",
  "delete remove destroy drop erase purge discard",
  "update edit modify change alter patch set",
  "get fetch retrieve read show view lookup inspect display",
  "list enumerate browse all",
  "search find query lookup locate filter discover",
  "run execute exec invoke trigger launch start kick",
  "stop cancel terminate kill abort halt end",
  "send post message notify publish",
  "reply respond answer",
  "comment note remark feedback",
  "issue ticket bug problem",
  "error exception crash failure fault",
  "email mail inbox",
  "meeting appointment",
  "directory folder",
  "move rename relocate",
  "checkout switch",
  "screenshot capture screen",
  "page webpage site website tab",
  "url link address",
  "user member person account people",
  "team group squad",
  "customer client",
  "row record entry item",
  "label tag",
  "sprint cycle iteration",
  "deploy deployment release ship publish",
  "rollback revert undo",
  "alert alarm",
  "incident outage",
  "invoice bill billing",
  "payment charge",
  "price pricing cost costs",
  "log logs output",
  "emoji reaction react",
  "schedule cron",
  "documentation docs doc manual reference",
  "image picture photo",
  "enable activate",
  "disable deactivate off",
  "login signin authenticate",
  "key secret credential token",
  "download save export",
  "upload attach import",
  "repository project",
  "workflow pipeline job build",
  "metric metrics stats statistics",
  "diff changes",
  "history log",
  "approve accept",
  "crawl spider",
  "multiple several many bulk batch",
  "scrape extract",
  "describe details info information",
  "configuration config settings setup",
  "schema structure",
  "copy duplicate clone",
  "type press keyboard",
  "hover mouse",
  "map sitemap",
];

/** One-way loans: the key may mean the listed words, not the other way round. */
const DIRECTED: Record<string, string> = {
  open: "create new navigate",
  start: "create",
  declare: "create",
  raise: "create",
  clear: "delete",
  forget: "delete",
  upload: "put",
  crash: "event issue",
  exception: "event issue",
  cluster: "kubernetes",
  pod: "kubernetes",
  s3: "bucket storage",
  browser: "page tab",
  document: "file page",
  email: "message send",
  calendar: "event schedule",
  meeting: "event calendar",
  tell: "message send",
  announce: "broadcast message",
  file: "create",
  write: "create update",
  make: "create",
  show: "list",
  close: "delete",
  assign: "update",
  resolve: "update",
  transition: "move update",
  move: "transition",
  done: "complete resolve",
  mark: "update",
  go: "navigate",
  visit: "navigate",
  click: "press",
  chart: "helm",
  bucket: "storage",
  container: "pod docker",
  // Question words name what answers them: "who did it" audit trails, "how many" a count.
  who: "user audit activity",
  many: "count",
  much: "cost pricing balance",
  why: "analyze troubleshoot cause",
  cost: "pricing",
  fail: "failure error",
  failed: "failure error",
  broken: "failure error",
  wiki: "confluence page",
  crm: "hubspot contact",
  spreadsheet: "table",
  sheet: "table",
  chat: "message channel",
  dm: "message",
  ping: "message notify",
  firing: "active",
  todo: "task",
  now: "current",
  remember: "memory store save",
  fact: "observation",
};

/** How much a synonym counts against the word the model typed. */
const GROUP_WEIGHT = 0.7;
const DIRECTED_WEIGHT = 0.6;

function buildSynonymTable(): Map<string, WeightedTerm[]> {
  const table = new Map<string, WeightedTerm[]>();
  const add = (from: string, to: string, weight: number) => {
    const key = stem(from);
    const term = stem(to);
    if (key === term) return;
    const list = table.get(key) ?? [];
    const known = list.find((e) => e.term === term);
    if (known) known.weight = Math.max(known.weight, weight);
    else list.push({ term, weight });
    table.set(key, list);
  };
  for (const group of GROUPS) {
    const words = group.split(" ");
    for (const a of words) for (const b of words) add(a, b, GROUP_WEIGHT);
  }
  for (const [from, targets] of Object.entries(DIRECTED)) {
    for (const to of targets.split(" ")) add(from, to, DIRECTED_WEIGHT);
  }
  return table;
}

const SYNONYMS = buildSynonymTable();

/** Stemmed synonyms of a stemmed query term, with their weights. */
export function synonymsOf(term: string): readonly WeightedTerm[] {
  return SYNONYMS.get(term) ?? [];
}
