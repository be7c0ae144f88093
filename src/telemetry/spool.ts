/**
 * Export requests kept for later: what a process could not deliver before its exit deadline (a
 * hook call never waits for a collector). They wait in `<state dir>/telemetry-spool/<config key>/`,
 * one file per encoded request, and the next process exporting to the same targets sends them
 * (the resident hook helper, `agent`, `serve`, or a command whose own records went through in time).
 * A file is claimed by renaming it, so two processes never send the same one; the directory is
 * bounded, and what does not fit is dropped and counted.
 */
import {
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import type { Signal } from "./config.ts";
import type { Payload } from "./transport.ts";

const MAX_FILES = 512;
/** A claimed file whose claimer has not sent or returned it by then is claimable again. */
const STALE_CLAIM_MS = 10 * 60_000;
const NAME = /^(\d+-\d+-\d+)\.(logs|metrics|traces)\.(pb|json)$/;

let sequence = 0;

export function spoolDir(stateDir: string, configKey: string): string {
  return join(stateDir, "telemetry-spool", configKey);
}

/** Keeps one request; false when the spool is full (the caller counts it as dropped). */
export function spoolPayload(dir: string, payload: Payload): boolean {
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    if (readdirSync(dir).length >= MAX_FILES) return false;
    const extension = payload.contentType === "application/json" ? "json" : "pb";
    const name = `${Date.now()}-${process.pid}-${sequence++}.${payload.signal}.${extension}`;
    const temporary = join(dir, `.${name}.tmp`);
    writeFileSync(temporary, payload.body, { mode: 0o600 });
    renameSync(temporary, join(dir, name));
    return true;
  } catch {
    return false;
  }
}

export interface SpooledPayload extends Payload {
  /** Removes the file once delivered. */
  done(): void;
  /** Puts it back for a later process. */
  release(): void;
}

/** Claims up to `limit` spooled requests, oldest first. */
export function claimSpooled(dir: string, limit: number): SpooledPayload[] {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  const claimed: SpooledPayload[] = [];
  const claimable = names.filter((name) => NAME.test(name) || isStaleClaim(dir, name)).sort();
  for (const name of claimable) {
    if (claimed.length >= limit) break;
    const original = name.replace(/\.claimed-\d+$/, "");
    const match = NAME.exec(original);
    if (!match) continue;
    const claim = join(dir, `${original}.claimed-${process.pid}`);
    try {
      renameSync(join(dir, name), claim);
      // A rename keeps the old time: the claim's age starts now.
      utimesSync(claim, new Date(), new Date());
      claimed.push({
        signal: match[2] as Signal,
        contentType: match[3] === "json" ? "application/json" : "application/x-protobuf",
        body: new Uint8Array(readFileSync(claim)),
        done: () => rmSync(claim, { force: true }),
        release: () => {
          try {
            renameSync(claim, join(dir, original));
          } catch { /* removed meanwhile */ }
        },
      });
    } catch {
      // Another process claimed it first.
    }
  }
  return claimed;
}

function isStaleClaim(dir: string, name: string): boolean {
  if (!/\.claimed-\d+$/.test(name)) return false;
  try {
    return Date.now() - statSync(join(dir, name)).mtimeMs > STALE_CLAIM_MS;
  } catch {
    return false;
  }
}
