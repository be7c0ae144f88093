/**
 * English word vectors (GloVe, 100 dimensions, made by `bench/search-word-vectors.py`) and each
 * word's nearest neighbours, embedded in the binary and read on first use. They know what words
 * mean in general English, not in any tool catalog, so they serve any catalog connected at run
 * time: a query word's neighbours that a tool also uses stand in for it ("reimburse" → "refund").
 *
 * File layout (little-endian), each array starting on a multiple of 4 bytes:
 *   "TRWV", version, word count, dimensions, neighbour count, byte length of the word list (u32 each)
 *   words: UTF-8, joined by "\n"
 *   scales: f32 per word (a stored component times its word's scale is the unit vector's)
 *   neighbour starts: u32 per word + 1
 *   vectors: i8, dimensions per word
 *   neighbours: u16 word ids, then u8 similarities (cosine × 255), nearest first
 */
import vectorsFile from "./word-vectors.bin" with { type: "file" };
import { readFileSync } from "node:fs";

const MAGIC = 0x56575254; // "TRWV"
const VERSION = 1;
const HEADER_BYTES = 24;

export interface Neighbour {
  word: string;
  similarity: number;
}

export class WordVectors {
  private ids: Map<string, number> | undefined;

  constructor(
    readonly words: readonly string[],
    readonly dims: number,
    private readonly scales: Float32Array,
    private readonly vectors: Int8Array,
    private readonly neighbourStarts: Uint32Array,
    private readonly neighbourIds: Uint16Array,
    private readonly similarities: Uint8Array,
  ) {}

  id(word: string): number | undefined {
    if (!this.ids) this.ids = new Map(this.words.map((w, id) => [w, id]));
    return this.ids.get(word);
  }

  /** The word's nearest neighbours, nearest first; none for a word it does not know. */
  neighbours(word: string): Neighbour[] {
    const id = this.id(word);
    if (id === undefined) return [];
    const out: Neighbour[] = [];
    for (let i = this.neighbourStarts[id]!, end = this.neighbourStarts[id + 1]!; i < end; i++) {
      out.push({ word: this.words[this.neighbourIds[i]!]!, similarity: this.similarities[i]! / 255 });
    }
    return out;
  }

  /** Adds `weight` times the word's unit vector to `sum`; false for a word it does not know. */
  addTo(sum: Float32Array, word: string, weight: number): boolean {
    const id = this.id(word);
    if (id === undefined) return false;
    const scale = this.scales[id]! * weight;
    const base = id * this.dims;
    for (let d = 0; d < this.dims; d++) sum[d]! += this.vectors[base + d]! * scale;
    return true;
  }
}

export function decodeWordVectors(bytes: Uint8Array): WordVectors {
  const buffer = bytes.slice().buffer;
  const header = new DataView(buffer);
  const [magic, version, count, dims, total, wordLength] = [0, 1, 2, 3, 4, 5].map((i) =>
    header.getUint32(i * 4, true)
  ) as [number, number, number, number, number, number];
  if (magic !== MAGIC || version !== VERSION) throw new Error("not a word vector file of this version");
  let at = HEADER_BYTES;
  const take = <T>(make: (offset: number) => T, byteLength: number): T => {
    const array = make(at);
    at = aligned(at + byteLength);
    return array;
  };
  const words = take((o) => new TextDecoder().decode(new Uint8Array(buffer, o, wordLength)), wordLength)
    .split("\n");
  const scales = take((o) => new Float32Array(buffer, o, count), count * 4);
  const starts = take((o) => new Uint32Array(buffer, o, count + 1), (count + 1) * 4);
  const vectors = take((o) => new Int8Array(buffer, o, count * dims), count * dims);
  const ids = take((o) => new Uint16Array(buffer, o, total), total * 2);
  const similarities = take((o) => new Uint8Array(buffer, o, total), total);
  return new WordVectors(words, dims, scales, vectors, starts, ids, similarities);
}

let shipped: WordVectors | undefined;

/** The vectors embedded in toolrt, read on first use. */
export function wordVectors(): WordVectors {
  shipped ??= decodeWordVectors(readFileSync(vectorsFile));
  return shipped;
}

function aligned(offset: number): number {
  return Math.ceil(offset / 4) * 4;
}
