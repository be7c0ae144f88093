/**
 * The index build's tokenizer: scans tool texts into term ids without making a string per word.
 * Each word is hashed (lower-cased) while it is scanned and looked up in an open-addressing table
 * by comparing characters in place; only a word never seen before is sliced out, analysed (see
 * `analyzeWord`) and interned. Catalogs repeat a few thousand words millions of times, so this
 * is most of what makes a 10,000-tool build take milliseconds instead of hundreds of them.
 */
import { analyzeWord, ASCII_KINDS, charKind, DIGIT, LOWER, OTHER, UPPER } from "./tokenize.ts";

const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;

/** A growable list of term ids. */
export class TermBuffer {
  ids = new Int32Array(1 << 16);
  length = 0;

  /** Makes room for `count` more ids. */
  reserve(count: number): void {
    if (this.length + count <= this.ids.length) return;
    const grown = new Int32Array(Math.max(this.ids.length * 2, this.length + count));
    grown.set(this.ids);
    this.ids = grown;
  }
}

/** Most terms one word can stand for ("pr": pull, request). */
const MAX_TERMS_PER_WORD = 2;

export class WordTable {
  /** Each distinct lower-case word seen, by entry. */
  readonly words: string[] = [];
  /**
   * Term ids each entry stands for, MAX_TERMS_PER_WORD slots per entry, -1 for an unused slot:
   * none for a stop word, two for "pr" (pull, request).
   */
  private entryTerms = new Int32Array(MAX_TERMS_PER_WORD << 12).fill(-1);
  private entryHashes = new Int32Array(1 << 12);
  /** Where each entry's lower-case characters start in `chars` (ASCII words only). */
  private entryStarts = new Int32Array(1 << 12);
  private entryLengths = new Int32Array(1 << 12);
  /** The ASCII entries' lower-case characters, one after the other: compared without a string. */
  private chars = new Uint8Array(1 << 16);
  private charCount = 0;
  /** Entry + 1 per slot, 0 for a free slot; ASCII words only. */
  private slots = new Int32Array(1 << 14);
  /** Words with characters beyond ASCII, rare in tool texts, looked up the ordinary way. */
  private readonly others = new Map<string, number>();
  readonly termIds = new Map<string, number>();
  readonly termNames: string[] = [];

  /** Appends the term ids of `text` to `out`, in order. */
  scan(text: string, out: TermBuffer): void {
    const length = text.length;
    // Words are at least one character and one separator apart.
    out.reserve(MAX_TERMS_PER_WORD * ((length >> 1) + 1));
    const ids = out.ids;
    let written = out.length;
    let i = 0;
    while (i < length) {
      let code = text.charCodeAt(i);
      let kind = code < 128 ? ASCII_KINDS[code]! : charKind(code);
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
        kind = code < 128 ? ASCII_KINDS[code]! : charKind(code);
      } while (kind !== OTHER && !(kind === UPPER && (previous === LOWER || previous === DIGIT)));
      const entry = ascii ? this.asciiEntry(text, start, i, hash) : this.otherEntry(text.slice(start, i));
      const terms = this.entryTerms;
      for (let slot = entry * MAX_TERMS_PER_WORD, end = slot + MAX_TERMS_PER_WORD; slot < end; slot++) {
        const term = terms[slot]!;
        if (term < 0) break;
        ids[written++] = term;
      }
    }
    out.length = written;
  }

  get termCount(): number {
    return this.termNames.length;
  }

  private asciiEntry(text: string, start: number, end: number, hash: number): number {
    const { slots, entryHashes, entryStarts, entryLengths, chars } = this;
    const mask = slots.length - 1;
    const length = end - start;
    for (let slot = hash & mask;; slot = (slot + 1) & mask) {
      const entry = slots[slot]! - 1;
      if (entry < 0) {
        const added = this.add(text.slice(start, end).toLowerCase(), hash);
        this.slots[slot] = added + 1;
        if (this.words.length * 2 > this.slots.length) this.grow();
        return added;
      }
      if (entryHashes[entry] !== hash || entryLengths[entry] !== length) continue;
      const from = entryStarts[entry]!;
      let same = true;
      for (let k = 0; k < length; k++) {
        const code = text.charCodeAt(start + k);
        if ((code >= 65 && code <= 90 ? code + 32 : code) !== chars[from + k]) {
          same = false;
          break;
        }
      }
      if (same) return entry;
    }
  }

  private otherEntry(word: string): number {
    const lower = word.toLowerCase();
    let entry = this.others.get(lower);
    if (entry === undefined) this.others.set(lower, entry = this.add(lower, 0));
    return entry;
  }

  private add(word: string, hash: number): number {
    const entry = this.words.length;
    this.words.push(word);
    if (entry === this.entryHashes.length) {
      this.entryHashes = grown(this.entryHashes, 0);
      this.entryStarts = grown(this.entryStarts, 0);
      this.entryLengths = grown(this.entryLengths, 0);
      this.entryTerms = grown(this.entryTerms, -1);
    }
    this.entryHashes[entry] = hash;
    this.entryStarts[entry] = this.charCount;
    this.entryLengths[entry] = word.length;
    if (this.charCount + word.length > this.chars.length) {
      const chars = new Uint8Array(Math.max(this.chars.length * 2, this.charCount + word.length));
      chars.set(this.chars);
      this.chars = chars;
    }
    // Non-ASCII words are never compared here; their bytes are only kept in step.
    for (let k = 0; k < word.length; k++) this.chars[this.charCount++] = word.charCodeAt(k) & 0xff;
    const terms = analyzeWord(word);
    if (terms.length > MAX_TERMS_PER_WORD) {
      throw new Error(`"${word}" stands for more than ${MAX_TERMS_PER_WORD} terms`);
    }
    terms.forEach((term, t) => this.entryTerms[entry * MAX_TERMS_PER_WORD + t] = this.termId(term));
    return entry;
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

/** A copy of `array` twice as long, the new half filled with `fill`. */
function grown(array: Int32Array, fill: number): Int32Array<ArrayBuffer> {
  const copy = new Int32Array(array.length * 2).fill(fill, array.length);
  copy.set(array);
  return copy;
}
