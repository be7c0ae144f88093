/**
 * Identifiers in a request: ids, keys, versions, URLs and e-mail addresses name one thing ("PR 88",
 * "v2.3.0", "jane@acme.com"); some also say what kind of thing, even when its word is not there:
 * a tracker key like "ENG-42" names an issue, "#general" a chat channel.
 */
import { surfaceWords } from "./tokenize.ts";

/** A URL, an e-mail address, a #number or a `key:value`. */
const REFERENCE = /^(?:https?:\/\/\S+|[\w.+-]+@[\w-]+\.[\w.]+|#\d+|\w+:\w+)$/;

/**
 * A token with a digit that names one thing: an id, key or version ("ENG-42", "v2.3.0",
 * "1a2b3c"), not a product name ("s3", "ec2", "k8s": short, with no separator).
 */
export function isIdentifier(token: string): boolean {
  if (REFERENCE.test(token)) return true;
  return /\d/.test(token) && /[a-z]/.test(token) && (token.length >= 5 || /[-_:.#/]/.test(token));
}

/** An issue key of Jira or Linear as typed: project letters, a dash, a number ("ENG-42", "PROJ-7"). */
const ISSUE_KEY = /^([A-Z][A-Z0-9]{1,9})-\d+$/;
/** A chat channel as typed: "#general", "#team-ops" (not "#42", an issue or PR number). */
const CHANNEL = /^#([a-z][\w-]*)$/i;
/** A file name as typed: a stem and a known extension ("config.yaml", "a.ts"); the extension is the key. */
const FILE_NAME = /^[\w-][\w.-]*\.([a-z][a-z0-9]{0,4})$/i;
/** Extensions of files people name in requests; a domain ("example.com") is no file. */
const FILE_EXTENSIONS = new Set(
  "ts tsx js jsx mjs cjs py rb go rs java kt c h cpp cs php sh json yaml yml toml ini cfg env xml csv tsv md txt log html css scss sql png jpg jpeg gif svg webp pdf zip lock"
    .split(" "),
);
/** A web address with its scheme ("https://example.com/a"): a page to fetch; the scheme is the key. */
const WEB_ADDRESS = /^(https?):\/\/\S+$/i;
/** A latitude and longitude pair ("40.7128,-74.0060"): a point on a map; its first number is the key. */
const LAT_LNG = /(?:^|[\s(])(-?\d{1,3})\.\d+\s*,\s*-?\d{1,3}\.\d+/g;

/**
 * Words of the text that stand for a kind of thing, lower-case, with the kind's word: "ENG-42"
 * gives `eng` → "issue", "#general" gives `general` → "channel". The word is the first the
 * tokenizer makes of the identifier. A file name's key is its extension ("config.yaml": `yaml` →
 * "file"), a web address's its scheme (`https` → "url", its other words → "", nothing), a latitude
 * and longitude pair's its first number (`40` → "coordinates").
 */
export function kindWords(text: string): Map<string, string> {
  const kinds = new Map<string, string>();
  for (const token of text.split(/[\s,;()?!]+/)) {
    const key = ISSUE_KEY.exec(token)?.[1];
    if (key) kinds.set(key.toLowerCase(), "issue");
    const channel = CHANNEL.exec(token)?.[1];
    if (channel) kinds.set(channel.split(/[-_]/)[0]!.toLowerCase(), "channel");
    const extension = FILE_NAME.exec(token)?.[1]?.toLowerCase();
    if (extension && FILE_EXTENSIONS.has(extension)) kinds.set(extension, "file");
    const scheme = WEB_ADDRESS.exec(token)?.[1];
    if (scheme) {
      // The host and path name one page, not a tool ("https://example.com/changelog" is no changelog).
      for (const word of surfaceWords(token)) if (!kinds.has(word)) kinds.set(word, "");
      kinds.set(scheme.toLowerCase(), "url");
    }
  }
  for (const match of text.matchAll(LAT_LNG)) kinds.set(match[1]!.replace("-", ""), "coordinates");
  return kinds;
}
