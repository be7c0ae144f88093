import { describe, expect, test } from "bun:test";
import { insideBwrap } from "../../src/sandbox/detect.ts";

describe("insideBwrap", () => {
  test("a pid namespace whose first process is bwrap is a sandbox already", () => {
    expect(insideBwrap(() => "bwrap\n")).toBe(true);
  });
  test("any other first process, or no /proc, is not", () => {
    expect(insideBwrap(() => "systemd\n")).toBe(false);
    expect(insideBwrap(() => {
      throw new Error("ENOENT");
    })).toBe(false);
  });
});
