/**
 * Text → search terms. Identifiers split on `__`, `_`, `-` and camelCase; words are lower-cased,
 * abbreviations spelled out, stop words dropped and the rest Porter-stemmed, the same way for
 * tool documents and queries so both meet on one vocabulary.
 */
import { stemmer } from "stemmer";

/** Words too common in queries and tool texts to tell tools apart. */
const STOP_WORDS = new Set(
  ("a an the to of in on for with and or by from at as is are be been this that these those it its " +
    "my me i you your we our us can could do does should would will please into via using use used " +
    "tool tools which when where there than then so if not no any some such e g eg ie etc once also just " +
    "very really about like maybe")
    .split(" "),
);

/**
 * Short forms spelled out before stemming, on both sides: a query saying "PR" meets a tool saying
 * "pull request", and "k8s" meets "kubernetes".
 */
const ABBREVIATIONS: Record<string, string[]> = {
  pr: ["pull", "request"],
  prs: ["pull", "request"],
  mr: ["merge", "request"],
  mrs: ["merge", "request"],
  k8s: ["kubernetes"],
  repo: ["repository"],
  repos: ["repositories"],
  db: ["database"],
  dbs: ["databases"],
  dir: ["directory"],
  dirs: ["directories"],
  env: ["environment"],
  envs: ["environments"],
  msg: ["message"],
  msgs: ["messages"],
  img: ["image"],
  imgs: ["images"],
  org: ["organization"],
  orgs: ["organizations"],
  js: ["javascript"],
  ts: ["typescript"],
  info: ["information"],
  auth: ["authentication"],
  mins: ["minutes"],
  args: ["arguments"],
  param: ["parameter"],
  params: ["parameters"],
  // Shell commands name what they do.
  mkdir: ["make", "directory"],
  rmdir: ["remove", "directory"],
  rm: ["remove"],
  ls: ["list"],
  mv: ["move"],
  cp: ["copy"],
  grep: ["search"],
  pwd: ["current", "directory"],
};

/** Irregular verb forms Porter's rules leave alone, to their base form: "who wrote it", "sent". */
const IRREGULAR_FORMS: Record<string, string[]> = Object.fromEntries(
  ("sent:send wrote:write written:write ran:run built:build made:make began:begin begun:begin found:find " +
    "got:get gotten:get gave:give given:give took:take taken:take chose:choose chosen:choose froze:freeze " +
    "frozen:freeze broke:break shown:show seen:see saw:see did:do went:go gone:go kept:keep " +
    "lost:lose paid:pay sold:sell bought:buy told:tell thought:think brought:bring led:lead " +
    "spent:spend split:split shut:shut set:set put:put read:read")
    .split(" ").map((pair) => {
      const [form, base] = pair.split(":") as [string, string];
      return [form, [base]];
    }),
);

const stemCache = new Map<string, string>();

/** Porter stem of a lower-case word, memoised: catalogs repeat the same few thousand words. */
export function stem(word: string): string {
  let stemmed = stemCache.get(word);
  if (stemmed === undefined) {
    stemmed = word.length <= 2 ? word : stemmer(word);
    stemCache.set(word, stemmed);
  }
  return stemmed;
}

/** Lower-case words of a text in order, camelCase split, nothing dropped. */
export function surfaceWords(text: string): string[] {
  const words: string[] = [];
  forEachWord(text, (word) => words.push(word));
  return words;
}

/**
 * Calls `visit` with each lower-case word of the text: runs of letters and digits, split where a
 * lower-case letter or digit meets an upper-case one. A hand-written scanner, because tokenizing
 * is most of the index build time and regular expressions over megabytes of schemas are slow.
 */
function forEachWord(text: string, visit: (word: string) => void): void {
  let start = -1;
  let previous = OTHER;
  for (let i = 0; i <= text.length; i++) {
    const kind = i < text.length ? charKind(text.charCodeAt(i)) : OTHER;
    const camelBoundary = kind === UPPER &&
      (previous === LOWER || previous === DIGIT);
    if (start >= 0 && (kind === OTHER || camelBoundary)) {
      visit(text.slice(start, i).toLowerCase());
      start = -1;
    }
    if (start < 0 && kind !== OTHER) start = i;
    previous = kind;
  }
}

/** Kinds of character, plain numbers so that the scanners' hot loops compare integers. */
export const OTHER = 0;
export const LOWER = 1;
export const UPPER = 2;
export const DIGIT = 3;

export const ASCII_KINDS = Uint8Array.from({ length: 128 }, (_, code) => {
  if (code >= 97 && code <= 122) return LOWER;
  if (code >= 65 && code <= 90) return UPPER;
  if (code >= 48 && code <= 57) return DIGIT;
  return OTHER;
});

const LETTER_OR_DIGIT = /[\p{L}\p{N}]/u;

export function charKind(code: number): number {
  return code < 128 ? ASCII_KINDS[code]! : nonAsciiKind(code);
}

/** Beyond ASCII, rare in tool texts. Surrogate halves (emoji, rare scripts) are not words. */
function nonAsciiKind(code: number): number {
  const char = String.fromCharCode(code);
  if (!LETTER_OR_DIGIT.test(char)) return OTHER;
  return char === char.toLowerCase() ? LOWER : UPPER;
}

export function isStopWord(word: string): boolean {
  return STOP_WORDS.has(word);
}

/** The words a surface word stands for: itself, its spelled-out form, or an irregular verb's base. */
export function baseWords(word: string): readonly string[] {
  return ABBREVIATIONS[word] ?? IRREGULAR_FORMS[word] ?? [word];
}

/** Search terms of one lower-case word: its abbreviation spelled out, stop words dropped, stemmed. */
export function analyzeWord(surface: string): string[] {
  const terms: string[] = [];
  for (const word of baseWords(surface)) if (!isStopWord(word)) terms.push(stem(word));
  return terms;
}

/** Search terms of a text, in order. */
export function analyze(text: string): string[] {
  const terms: string[] = [];
  forEachWord(text, (surface) => terms.push(...analyzeWord(surface)));
  return terms;
}
