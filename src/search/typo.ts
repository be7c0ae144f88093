/**
 * Typo tolerance: a query word the tools never use is matched to the tools' words within a small
 * edit distance (insert, delete, substitute, swap two neighbours), one edit for short words and
 * two for long ones. Words are bucketed by length so only plausible lengths are compared.
 */
import { editDistance } from "../tool/closest-names.ts";

export interface Correction {
  word: string;
  distance: number;
}

/** Below this length a single edit turns one real word into another too often. */
const MIN_LENGTH = 4;
const TWO_EDITS_FROM = 8;

export function allowedEdits(word: string): number {
  if (word.length < MIN_LENGTH) return 0;
  return word.length >= TWO_EDITS_FROM ? 2 : 1;
}

interface Bucket {
  words: string[];
  /** Which of a–z each word contains, one bit per letter. */
  letters: number[];
}

export class TypoCorrector {
  private readonly byLength = new Map<number, Bucket>();

  constructor(words: Iterable<string>) {
    for (const word of words) {
      if (word.length < MIN_LENGTH - 1 || /\d/.test(word)) continue;
      let bucket = this.byLength.get(word.length);
      if (!bucket) this.byLength.set(word.length, bucket = { words: [], letters: [] });
      bucket.words.push(word);
      bucket.letters.push(letterSet(word));
    }
  }

  /** Known words within the allowed distance of `word`, nearest first. */
  corrections(word: string): Correction[] {
    const max = allowedEdits(word);
    const letters = letterSet(word);
    const found: Correction[] = [];
    for (let length = word.length - max; length <= word.length + max; length++) {
      const bucket = this.byLength.get(length);
      if (!bucket) continue;
      for (let i = 0; i < bucket.words.length; i++) {
        // One edit adds or removes at most two letters from the set: a cheap test before the real one.
        if (bitCount(letters ^ bucket.letters[i]!) > 2 * max) continue;
        const distance = editDistance(word, bucket.words[i]!, max);
        if (distance <= max) found.push({ word: bucket.words[i]!, distance });
      }
    }
    return found.sort((a, b) => a.distance - b.distance);
  }
}

function letterSet(word: string): number {
  let set = 0;
  for (let i = 0; i < word.length; i++) {
    const letter = word.charCodeAt(i) - 97;
    if (letter >= 0 && letter < 26) set |= 1 << letter;
  }
  return set;
}

function bitCount(value: number): number {
  let count = 0;
  for (let v = value; v !== 0; v &= v - 1) count++;
  return count;
}
