/**
 * How loadPolicy compiles its sources: directly, or through a CompileCache kept by a long-lived
 * process (the hook's resident helper) between loads. A cache entry is keyed by everything its
 * compilation reads — the file name, the full text and the context — and compiling is pure, so a
 * hit is what compiling again would give and a changed source is simply another key. Files are
 * still read on every load; only compiling them again is saved.
 */
import { type ClaudeSettingsResult, compileClaudeSettings } from "./claude-settings.ts";
import type { PathAnchors } from "./path-glob.ts";
import { type CompiledFile, compilePolicyText, type FileContext } from "./policy-file.ts";

export interface PolicyCompiler {
  policyText(file: string, text: string, context: FileContext): CompiledFile;
  claudeSettings(file: string, text: string, anchors: PathAnchors, trusted: boolean): ClaudeSettingsResult;
}

export const compileDirectly: PolicyCompiler = {
  policyText: compilePolicyText,
  claudeSettings: compileClaudeSettings,
};

/** Compiled sources by their inputs; the least recently used go first beyond `capacity`. */
export class CompileCache implements PolicyCompiler {
  readonly #entries = new Map<string, CompiledFile | ClaudeSettingsResult>();

  constructor(readonly capacity = 64) {}

  policyText(file: string, text: string, context: FileContext): CompiledFile {
    const key = JSON.stringify(["policy", file, text, context]);
    return this.#get(key, () => compilePolicyText(file, text, context)) as CompiledFile;
  }

  claudeSettings(file: string, text: string, anchors: PathAnchors, trusted: boolean): ClaudeSettingsResult {
    const key = JSON.stringify(["claude", file, text, anchors, trusted]);
    return this.#get(key, () => compileClaudeSettings(file, text, anchors, trusted)) as ClaudeSettingsResult;
  }

  get size(): number {
    return this.#entries.size;
  }

  #get(key: string, compile: () => CompiledFile | ClaudeSettingsResult) {
    const entry = this.#entries.get(key) ?? compile();
    this.#entries.delete(key);
    this.#entries.set(key, entry);
    if (this.#entries.size > this.capacity) this.#entries.delete(this.#entries.keys().next().value!);
    return entry;
  }
}
