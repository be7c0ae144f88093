/**
 * The index build's tokenizer: scans tool texts into term ids without making a string per word.
 * Each word is hashed (lower-cased) while it is scanned and looked up in an open-addressing table
 * by comparing characters in place; only a word never seen before is sliced out, analysed (see
 * `analyzeWord`) and interned. Catalogs repeat a few thousand words millions of times, so this
 * is most of what makes a 10,000-tool build take milliseconds instead of hundreds of them.
 */
import { analyzeWord, charKind, DIGIT, LOWER, OTHER, UPPER } from "./tokenize.ts";

const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;

/** A growable list of term ids. */
export class TermBuffer {
  ids = new Int32Array(1 << 16);
  length = 0;

  push(id: number): void {
    if (this.length === this.ids.length) {
      const grown = new Int32Array(this.ids.length * 2);
      grown.set(this.ids);
      this.ids = grown;
    }
    this.ids[this.length++] = id;
  }
}

export class WordTable {
  /** Each distinct lower-case word seen, by entry. */
  readonly words: string[] = [];
  /** Term ids each entry stands for: none for a stop word, two for "pr" (pull, request). */
  private readonly entryTerms: (readonly number[])[] = [];
  private readonly entryHashes: number[] = [];
  /** Entry + 1 per slot, 0 for a free slot; ASCII words only. */
  private slots = new Int32Array(1 << 14);
  /** Words with characters beyond ASCII, rare in tool texts, looked up the ordinary way. */
  private readonly others = new Map<string, number>();
  readonly termIds = new Map<string, number>();
  readonly termNames: string[] = [];

  /** Appends the term ids of `text` to `out`, in order. */
  scan(text: string, out: TermBuffer): void {
    const length = text.length;
    let i = 0;
    while (i < length) {
      let code = text.charCodeAt(i);
      let kind = charKind(code);
      if (kind === OTHER) {
        i++;
        continue;
      }
      const start = i;
      let hash = FNV_OFFSET;
      let ascii = true;
      let previous = OTHER;
      // A word runs on until a separator, or an upper-case letter after a lower-case one or a digit.
      do {
        if (code >= 128) ascii = false;
        hash = Math.imul(hash ^ (kind === UPPER && code < 128 ? code + 32 : code), FNV_PRIME);
        previous = kind;
        if (++i === length) break;
        code = text.charCodeAt(i);
        kind = charKind(code);
      } while (kind !== OTHER && !(kind === UPPER && (previous === LOWER || previous === DIGIT)));
      const entry = ascii ? this.asciiEntry(text, start, i, hash) : this.otherEntry(text.slice(start, i));
      const terms = this.entryTerms[entry]!;
      for (let t = 0; t < terms.length; t++) out.push(terms[t]!);
    }
  }

  get termCount(): number {
    return this.termNames.length;
  }

  private asciiEntry(text: string, start: number, end: number, hash: number): number {
    const mask = this.slots.length - 1;
    for (let slot = hash & mask;; slot = (slot + 1) & mask) {
      const entry = this.slots[slot]! - 1;
      if (entry < 0) {
        const added = this.add(text.slice(start, end).toLowerCase(), hash);
        this.slots[slot] = added + 1;
        if (this.words.length * 2 > this.slots.length) this.grow();
        return added;
      }
      if (this.entryHashes[entry] === hash && sameLowerCase(this.words[entry]!, text, start, end)) {
        return entry;
      }
    }
  }

  private otherEntry(word: string): number {
    const lower = word.toLowerCase();
    let entry = this.others.get(lower);
    if (entry === undefined) this.others.set(lower, entry = this.add(lower, 0));
    return entry;
  }

  private add(word: string, hash: number): number {
    this.words.push(word);
    this.entryHashes.push(hash);
    this.entryTerms.push(analyzeWord(word).map((term) => this.termId(term)));
    return this.words.length - 1;
  }

  private termId(term: string): number {
    let id = this.termIds.get(term);
    if (id === undefined) {
      this.termIds.set(term, id = this.termNames.length);
      this.termNames.push(term);
    }
    return id;
  }

  private grow(): void {
    const slots = new Int32Array(this.slots.length * 2);
    const mask = slots.length - 1;
    this.slots.forEach((value) => {
      if (value === 0) return;
      let slot = this.entryHashes[value - 1]! & mask;
      while (slots[slot] !== 0) slot = (slot + 1) & mask;
      slots[slot] = value;
    });
    this.slots = slots;
  }
}

function sameLowerCase(word: string, text: string, start: number, end: number): boolean {
  if (word.length !== end - start) return false;
  for (let i = 0; i < word.length; i++) {
    const code = text.charCodeAt(start + i);
    const lower = code >= 65 && code <= 90 ? code + 32 : code;
    if (lower !== word.charCodeAt(i)) return false;
  }
  return true;
}
