/**
 * The single binary: built with and without a compile-time gate, run from a directory with no
 * node_modules. Slow-ish (two compiles), so both builds are shared by the tests below.
 */
import { beforeAll, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { buildBinary } from "../build.ts";
import { tempDir } from "./helpers/session-context.ts";

/** A sentence that exists only in WebFetch's model-facing prompt. */
const WEB_FETCH_MARKER = "Fetches a web page and returns its content as readable text";

const outdir = tempDir("toolrt-build-");
const plain = join(outdir, "toolrt");
const airgapped = join(outdir, "toolrt-airgapped");

beforeAll(async () => {
  await buildBinary({ outfile: plain, features: [] });
  await buildBinary({ outfile: airgapped, features: ["AIRGAPPED"] });
}, 120_000);

function toolNames(binary: string): string[] {
  const cwd = tempDir("toolrt-run-"); // no node_modules anywhere up from here
  const run = Bun.spawnSync([binary, "tools", "--json", "--all"], {
    cwd,
    env: { PATH: process.env.PATH ?? "" },
  });
  expect(run.exitCode).toBe(0);
  return JSON.parse(run.stdout.toString()).map((t: { name: string }) => t.name);
}

describe("compiled binary", () => {
  test("runs from a directory without node_modules and lists the built-ins", () => {
    expect(toolNames(plain)).toEqual(
      expect.arrayContaining(["Read", "Write", "Edit", "Glob", "Grep", "WebFetch"]),
    );
  });
  test("the default build contains the network family", () => {
    expect(readFileSync(plain).includes(WEB_FETCH_MARKER)).toBe(true);
  });
  test("a build with AIRGAPPED does not contain WebFetch's code at all", () => {
    expect(readFileSync(airgapped).includes(WEB_FETCH_MARKER)).toBe(false);
    expect(toolNames(airgapped)).not.toContain("WebFetch");
    expect(toolNames(airgapped)).toContain("Read");
  });
});
