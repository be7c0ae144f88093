/**
 * Identifiers in a request: ids, keys, versions, URLs and e-mail addresses name one thing ("PR 88",
 * "v2.3.0", "jane@acme.com"); some also say what kind of thing, even when its word is not there:
 * a tracker key like "ENG-42" names an issue, "#general" a chat channel.
 */
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

/**
 * Words of the text that stand for a kind of thing, lower-case, with the kind's word: "ENG-42"
 * gives `eng` → "issue", "#general" gives `general` → "channel". The word is the first the
 * tokenizer makes of the identifier.
 */
export function kindWords(text: string): Map<string, string> {
  const kinds = new Map<string, string>();
  for (const token of text.split(/[\s,;()?!]+/)) {
    const key = ISSUE_KEY.exec(token)?.[1];
    if (key) kinds.set(key.toLowerCase(), "issue");
    const channel = CHANNEL.exec(token)?.[1];
    if (channel) kinds.set(channel.split(/[-_]/)[0]!.toLowerCase(), "channel");
  }
  return kinds;
}
