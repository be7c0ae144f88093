import { describe, expect, test } from "bun:test";
import { actionBit, actionFit, LOOKUP, nameActions, queryIntent } from "../../src/search/intent.ts";
import { stem } from "../../src/search/tokenize.ts";

const words = (text: string) => text.toLowerCase().split(" ");

describe("queryIntent", () => {
  test("a leading verb, after any lead-in, is the action", () => {
    expect(queryIntent(words("open a PR"))).toEqual({
      actions: queryIntent(["create"]).actions | actionBit("read"),
      at: 0,
    });
    expect(queryIntent(words("could you please delete the branch"))).toEqual({
      actions: actionBit("delete"),
      at: 3,
    });
    expect(queryIntent(words("I need to ping the team")).actions).toBe(actionBit("send"));
  });

  test("a question is a lookup, whatever verb follows", () => {
    expect(queryIntent(words("who deleted my s3 bucket"))).toEqual({ actions: LOOKUP, at: 0 });
    expect(queryIntent(words("is the build green")).actions).toBe(LOOKUP);
    expect(queryIntent(words("can this role read the bucket")).actions).toBe(LOOKUP);
  });

  test("no verb, no action", () => {
    expect(queryIntent(words("slack channel history"))).toEqual({ actions: 0, at: -1 });
    expect(queryIntent([])).toEqual({ actions: 0, at: -1 });
  });
});

describe("nameActions and actionFit", () => {
  test("a tool's action is its name's first verb", () => {
    expect(nameActions(["slack", "post", "messag"])).toBe(actionBit("create") | actionBit("send"));
    expect(nameActions(["r2", "list", "bucket"].map(stem))).toBe(actionBit("list"));
    expect(nameActions(["sequentialthink"])).toBe(0);
  });

  test("shared class 1, between lookups 0.5, conflict -1, unknown 0", () => {
    expect(actionFit(actionBit("delete"), actionBit("delete"))).toBe(1);
    expect(actionFit(LOOKUP, actionBit("read"))).toBe(1);
    expect(actionFit(actionBit("list"), actionBit("read"))).toBe(0.5);
    expect(actionFit(LOOKUP, actionBit("delete"))).toBe(-1);
    expect(actionFit(0, actionBit("delete"))).toBe(0);
  });
});
