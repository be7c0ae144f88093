/**
 * The reference point of the search benchmark: plain BM25 (k1 1.2, b 0.75) over each tool's name
 * and description, words lower-cased and identifiers split, nothing else (no stemming, stop
 * words, field weights, synonyms or typo handling).
 */
import { surfaceWords } from "../../src/search/tokenize.ts";
import type { AnyTool } from "../../src/tool/types.ts";

export class PlainBm25 {
  private readonly docs: Map<string, number>[];
  private readonly lengths: number[];
  private readonly df = new Map<string, number>();
  private readonly averageLength: number;

  constructor(private readonly tools: readonly AnyTool[]) {
    this.docs = tools.map((tool) => {
      const counts = new Map<string, number>();
      for (const word of surfaceWords(`${tool.name} ${tool.description}`)) {
        counts.set(word, (counts.get(word) ?? 0) + 1);
      }
      for (const word of counts.keys()) this.df.set(word, (this.df.get(word) ?? 0) + 1);
      return counts;
    });
    this.lengths = this.docs.map((counts) => [...counts.values()].reduce((a, b) => a + b, 0));
    this.averageLength = this.lengths.reduce((a, b) => a + b, 0) / Math.max(1, tools.length);
  }

  search(query: string, limit: number): string[] {
    const words = [...new Set(surfaceWords(query))];
    const n = this.tools.length;
    const scored = this.docs.map((counts, doc) => {
      let score = 0;
      for (const word of words) {
        const tf = counts.get(word);
        if (!tf) continue;
        const df = this.df.get(word)!;
        const idf = Math.log(1 + (n - df + 0.5) / (df + 0.5));
        score += idf * tf * 2.2 / (tf + 1.2 * (0.25 + 0.75 * this.lengths[doc]! / this.averageLength));
      }
      return { doc, score };
    });
    return scored.filter((s) => s.score > 0).sort((a, b) => b.score - a.score || a.doc - b.doc)
      .slice(0, limit).map((s) => this.tools[s.doc]!.name);
  }
}
