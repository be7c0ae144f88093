/**
 * The search index as bytes, for the state-dir cache: a JSON header (names, aliases, terms,
 * words) followed by the postings' typed arrays as they are in memory, so loading is one JSON
 * parse of the short part and a copy of the long one.
 */
import { SearchIndex } from "./index.ts";
import { ToolIndex } from "./tool-index.ts";

interface Header {
  names: string[];
  aliases: string[][];
  /** Terms in id order. */
  terms: string[];
  words: string[];
  postings: number;
  servers: string[];
  nameTerms: number;
  idNouns: (readonly string[])[];
}

/** Every array starts on a multiple of 8 bytes, so each can be viewed in place. */
const ALIGN = 8;

export function encodeIndex(tool: ToolIndex): Uint8Array {
  const { names, postings, facts, words } = tool.index;
  const header: Header = {
    names: [...names],
    aliases: tool.aliases.map((list) => [...list]),
    terms: [...postings.terms.keys()],
    words: [...words],
    postings: postings.docs.length,
    servers: [...facts.servers],
    nameTerms: facts.nameTerms.length,
    idNouns: [...facts.idNouns],
  };
  const json = new TextEncoder().encode(JSON.stringify(header));
  const arrays = [
    postings.idf,
    postings.starts,
    postings.docs,
    postings.tfs,
    facts.nameStarts,
    facts.nameTerms,
    facts.serverIds,
    facts.actions,
    facts.numbers,
    facts.requiredInputs,
    facts.acceptedInputs,
  ];
  const offsets: number[] = [];
  let size = padded(4 + json.length);
  for (const array of arrays) {
    offsets.push(size);
    size = padded(size + array.byteLength);
  }
  const bytes = new Uint8Array(size);
  new DataView(bytes.buffer).setUint32(0, json.length, true);
  bytes.set(json, 4);
  arrays.forEach((array, i) =>
    bytes.set(new Uint8Array(array.buffer, array.byteOffset, array.byteLength), offsets[i])
  );
  return bytes;
}

/** The index in `bytes`; throws on bytes that are not one. */
export function decodeIndex(bytes: Uint8Array): ToolIndex {
  // A copy on a fresh buffer: Node's file buffers may start anywhere in a shared pool.
  const buffer = bytes.slice().buffer;
  const jsonLength = new DataView(buffer).getUint32(0, true);
  const header = JSON.parse(new TextDecoder().decode(new Uint8Array(buffer, 4, jsonLength))) as Header;
  let at = padded(4 + jsonLength);
  const take = <T>(make: (offset: number) => T, byteLength: number): T => {
    const array = make(at);
    at = padded(at + byteLength);
    return array;
  };
  const termCount = header.terms.length;
  const idf = take((o) => new Float64Array(buffer, o, termCount), termCount * 8);
  const starts = take((o) => new Int32Array(buffer, o, termCount + 1), (termCount + 1) * 4);
  const docs = take((o) => new Int32Array(buffer, o, header.postings), header.postings * 4);
  const tfs = take((o) => new Float32Array(buffer, o, header.postings), header.postings * 4);
  const toolCount = header.names.length;
  const nameStarts = take((o) => new Int32Array(buffer, o, toolCount + 1), (toolCount + 1) * 4);
  const nameTerms = take((o) => new Int32Array(buffer, o, header.nameTerms), header.nameTerms * 4);
  const serverIds = take((o) => new Int32Array(buffer, o, toolCount), toolCount * 4);
  const actions = take((o) => new Uint16Array(buffer, o, toolCount), toolCount * 2);
  const numbers = take((o) => new Int8Array(buffer, o, toolCount), toolCount);
  const requiredInputs = take((o) => new Uint8Array(buffer, o, toolCount), toolCount);
  const acceptedInputs = take((o) => new Uint8Array(buffer, o, toolCount), toolCount);
  const terms = new Map(header.terms.map((term, id) => [term, id]));
  const facts = {
    nameStarts,
    nameTerms,
    actions,
    numbers,
    serverIds,
    servers: header.servers,
    requiredInputs,
    acceptedInputs,
    idNouns: header.idNouns,
  };
  const index = new SearchIndex(header.names, { terms, starts, docs, tfs, idf }, facts, header.words);
  return new ToolIndex(index, header.aliases);
}

function padded(offset: number): number {
  return Math.ceil(offset / ALIGN) * ALIGN;
}
