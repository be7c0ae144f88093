/**
 * What a tool needs and what a request gives: near-identical tools differ in their required
 * inputs more than in their words. `reverse_geocode` needs a latitude and a longitude, `geocode`
 * an address; `get_issue` needs an issue number, `list_issues` none; `update_issue` an id,
 * `create_issue` none. Input kinds are read from the names of a tool's input schema properties
 * and from the request's text (an id, a coordinate pair, an e-mail address, a URL, a date, a path).
 * A set of kinds is a bit mask.
 */
import type { JsonSchema } from "../tool/types.ts";
import { isIdentifier } from "./identifiers.ts";
import { isPlural } from "./number.ts";
import { isStopWord, stem, surfaceWords } from "./tokenize.ts";

export const IDENTIFIER = 1;
export const COORDINATES = 2;
export const EMAIL = 4;
export const URL = 8;
export const DATE = 16;
export const PATH = 32;

/** The last word of a property name says its kind (`issue_number`, `projectId`, `start_date`). */
const KIND_OF_LAST_WORD: Record<string, number> = {
  id: IDENTIFIER,
  ids: IDENTIFIER,
  iid: IDENTIFIER,
  number: IDENTIFIER,
  key: IDENTIFIER,
  sha: IDENTIFIER,
  slug: IDENTIFIER,
  uuid: IDENTIFIER,
  latitude: COORDINATES,
  longitude: COORDINATES,
  lat: COORDINATES,
  lng: COORDINATES,
  lon: COORDINATES,
  coordinates: COORDINATES,
  email: EMAIL,
  url: URL,
  uri: URL,
  date: DATE,
  since: DATE,
  until: DATE,
  path: PATH,
};

/** The kinds a property name says, from its last word; 0 for a name that says none. */
export function kindOfName(name: string): number {
  const words = surfaceWords(name);
  return KIND_OF_LAST_WORD[words[words.length - 1] ?? ""] ?? 0;
}

/** How deep property names are read: a list of `{latitude, longitude}` still needs coordinates. */
const MAX_DEPTH = 2;

/** What a tool's input schema says it needs: see `ToolInputs`. */
export interface ToolInputs {
  /** Kinds of the required inputs. */
  required: number;
  /** Kinds of all inputs. */
  accepted: number;
  /** Stemmed words of the things whose ids it requires: `issue_iid` → "issu", `projectId` → "project". */
  idNouns: readonly string[];
}

export function schemaInputs(schema: unknown): ToolInputs {
  const inputs = { required: 0, accepted: 0, idNouns: [] as string[] };
  if (!isSchema(schema) || !isSchema(schema.properties)) return inputs;
  const requiredNames = Array.isArray(schema.required) ? schema.required : [];
  for (const [name, property] of Object.entries(schema.properties)) {
    const kinds = kindOfName(name) | nestedKinds(property, 1);
    inputs.accepted |= kinds;
    if (!requiredNames.includes(name)) continue;
    inputs.required |= kinds;
    if (kindOfName(name) === IDENTIFIER) {
      for (const word of surfaceWords(name).slice(0, -1)) {
        if (!isStopWord(word)) inputs.idNouns.push(stem(word));
      }
    }
  }
  return inputs;
}

function nestedKinds(schema: unknown, depth: number): number {
  if (!isSchema(schema) || depth > MAX_DEPTH) return 0;
  let kinds = nestedKinds(schema.items, depth + 1);
  if (isSchema(schema.properties)) {
    for (const [name, property] of Object.entries(schema.properties)) {
      kinds |= kindOfName(name) | nestedKinds(property, depth + 1);
    }
  }
  return kinds;
}

const LAT_LNG = /-?\d{1,3}\.\d+\s*,\s*-?\d{1,3}\.\d+/;
const EMAIL_ADDRESS = /[\w.+-]+@[\w-]+\.[\w.]+/;
const WEB_ADDRESS = /\bhttps?:\/\/\S+|\b[\w-]+\.(?:com|org|net|io|dev|app)\/\S*/i;
const DATE_TEXT = new RegExp(
  [
    String.raw`\b\d{4}-\d{2}-\d{2}\b`,
    String.raw`\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\.?\s+\d{1,2}\b`,
    String.raw`\b\d{1,2}\s+(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\b`,
    String.raw`\b(?:since|until|between)\b`,
    String.raw`\b(?:yesterday|today|last\s+(?:week|month|year|night))\b`,
  ].join("|"),
  "i",
);
const PATH_TEXT =
  /(?:^|\s)(?:~|\.{1,2})?\/[\w.-]+|\b[\w-]+\.(?:ts|js|py|go|rs|json|ya?ml|md|txt|csv|log|toml|sh)\b/;
/** "#42", "!45" (a merge request): a number that names one thing. */
const NUMBERED = /^[#!]\d+$/;
/** A tracker key ("ENG-42"): an issue. */
const ISSUE_KEY = /^[A-Z][A-Z0-9]{1,9}-\d+$/;

/** What a request supplies: kinds of input, and the things it gives ids of ("issue 42" → "issu"). */
export interface SuppliedInputs {
  kinds: number;
  idNouns: string[];
}

const MONTHS = new Set("jan feb mar apr may jun jul aug sep sept oct nov dec".split(" "));

export function suppliedInputs(text: string): SuppliedInputs {
  let kinds = 0;
  if (LAT_LNG.test(text)) kinds |= COORDINATES;
  if (EMAIL_ADDRESS.test(text)) kinds |= EMAIL;
  if (WEB_ADDRESS.test(text)) kinds |= URL;
  if (DATE_TEXT.test(text)) kinds |= DATE;
  if (PATH_TEXT.test(text)) kinds |= PATH;
  const idNouns: string[] = [];
  const tokens = text.split(/\s+/).map((token) => token.replace(/^[("'`]+|[)"'`?!.,;:]+$/g, ""));
  tokens.forEach((token, at) => {
    const lower = token.toLowerCase();
    const before = tokens[at - 1]?.toLowerCase() ?? "";
    let named = false;
    if (ISSUE_KEY.test(token)) {
      idNouns.push(stem("issue"));
      named = true;
    } else if (
      NUMBERED.test(token) || (isIdentifier(lower) && !lower.includes("@") && !/^https?:/.test(lower))
    ) {
      named = true;
    } else if (
      /^\d+$/.test(token) && !isPlural(tokens[at + 1]?.toLowerCase() ?? "") && !MONTHS.has(before.slice(0, 3))
    ) {
      // "issue 42", not "5 replicas" or "March 3".
      named = true;
    }
    if (!named) return;
    kinds |= IDENTIFIER;
    // The words just before the id name what it is the id of: "merge request !45", "job 1234".
    for (const word of surfaceWords(tokens.slice(Math.max(0, at - 2), at).join(" "))) {
      if (!isStopWord(word)) idNouns.push(stem(word));
    }
  });
  return { kinds, idNouns };
}

/** How a tool's inputs fit what the request supplies; each part is a re-ranking feature. */
export interface InputFit {
  /** Share of the supplied kinds the tool takes (required ones count double). */
  given: number;
  /** 1 when the request gives an id of a thing the tool requires the id of ("issue 42", `issue_iid`). */
  idNamed: number;
}

export function inputFit(supplied: SuppliedInputs, tool: ToolInputs): InputFit {
  const count = bits(supplied.kinds);
  const given = count === 0
    ? 0
    : (bits(supplied.kinds & tool.required) + bits(supplied.kinds & tool.accepted)) / (2 * count);
  return { given, idNamed: tool.idNouns.some((noun) => supplied.idNouns.includes(noun)) ? 1 : 0 };
}

function bits(mask: number): number {
  let count = 0;
  for (let m = mask; m !== 0; m &= m - 1) count++;
  return count;
}

function isSchema(value: unknown): value is JsonSchema {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
