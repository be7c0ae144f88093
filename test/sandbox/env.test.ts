import { describe, expect, test } from "bun:test";
import { DEFAULT_SECRET_ENV_PATTERNS, globToRegExp, scrubEnv } from "../../src/sandbox/env.ts";

describe("environment scrubbing", () => {
  const env = {
    PATH: "/usr/bin",
    HOME: "/home/u",
    GITHUB_TOKEN: "t",
    AWS_SECRET_ACCESS_KEY: "s",
    AWS_ACCESS_KEY_ID: "i",
    ANTHROPIC_API_KEY: "k",
    DB_PASSWORD: "p",
    npm_config_auth: "x",
    SSH_AUTH_SOCK: "/run/agent",
    KEYBOARD_LAYOUT: "us",
    SBX_KIT_VALUE: "v",
  };
  test("drops secret-looking names by the default patterns, keeps the rest", () => {
    const { env: kept, removed } = scrubEnv(env, DEFAULT_SECRET_ENV_PATTERNS);
    expect(removed).toEqual([
      "ANTHROPIC_API_KEY",
      "AWS_ACCESS_KEY_ID",
      "AWS_SECRET_ACCESS_KEY",
      "DB_PASSWORD",
      "GITHUB_TOKEN",
      "SSH_AUTH_SOCK",
      "npm_config_auth",
    ]);
    expect(Object.keys(kept).sort()).toEqual(["HOME", "KEYBOARD_LAYOUT", "PATH", "SBX_KIT_VALUE"]);
  });
  test("extra patterns (--unset-env) add to the defaults", () => {
    const { removed } = scrubEnv(env, [...DEFAULT_SECRET_ENV_PATTERNS, "SBX_KIT_*"]);
    expect(removed).toContain("SBX_KIT_VALUE");
  });
  test("globs match the whole name, case-insensitively, with regex characters literal", () => {
    expect(globToRegExp("*_KEY").test("api_key")).toBe(true);
    expect(globToRegExp("*_KEY").test("KEYBOARD")).toBe(false);
    expect(globToRegExp("A.B").test("AXB")).toBe(false);
    expect(globToRegExp("A?C").test("ABC")).toBe(true);
  });
});
