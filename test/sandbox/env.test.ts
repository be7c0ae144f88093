import { describe, expect, test } from "bun:test";
import {
  DEFAULT_SECRET_ENV_PATTERNS,
  globToRegExp,
  NEEDED_ENV_NAMES,
  scrubEnv,
  SECRET_ENV_NAMES,
  SECRET_ENV_WORDS,
  stripUrlCredentials,
  wordGlobs,
} from "../../src/sandbox/env.ts";
import { SECRET_NAMES_ONCE_MISSED } from "./fixtures.ts";

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

describe("every reviewed secret-name pattern", () => {
  for (const entry of SECRET_ENV_NAMES) {
    test(`${entry.pattern} (${entry.why}) drops ${entry.catches.join(", ")} and nothing commands need`, () => {
      const env = Object.fromEntries([...entry.catches, ...NEEDED_ENV_NAMES].map((n) => [n, "v"]));
      const { removed, env: kept } = scrubEnv(env, [entry.pattern]);
      expect(removed).toEqual([...entry.catches].sort());
      for (const name of NEEDED_ENV_NAMES) expect(kept[name]).toBe("v");
    });
  }
  for (const entry of SECRET_ENV_WORDS) {
    test(`the word ${entry.word} (${entry.why}) drops ${entry.catches.join(", ")} and nothing commands need`, () => {
      const env = Object.fromEntries([...entry.catches, ...NEEDED_ENV_NAMES].map((n) => [n, "v"]));
      const { removed, env: kept } = scrubEnv(env, wordGlobs(entry));
      expect(removed).toEqual([...entry.catches].sort());
      for (const name of NEEDED_ENV_NAMES) expect(kept[name]).toBe("v");
    });
  }
  test("a word matches whole parts only: longer words that contain it stay", () => {
    const env = Object.fromEntries(
      [
        "KEYBOARD_LAYOUT",
        "GIT_ASKPASS",
        "BYPASS_CACHE",
        "AUTHOR",
        "OLDPWD",
        "PWD",
        "MONKEY_MODE",
        "TOKENIZERS_PARALLELISM",
      ]
        .map((n) => [n, "v"]),
    );
    const words = SECRET_ENV_WORDS.flatMap(wordGlobs);
    expect(scrubEnv(env, words).removed).toEqual([]);
  });
  test("the names the red team saw survive the old list are dropped", () => {
    const names = SECRET_NAMES_ONCE_MISSED;
    const env = Object.fromEntries([...names, "PWD", "OLDPWD"].map((n) => [n, "v"]));
    const { removed, env: kept } = scrubEnv(env, DEFAULT_SECRET_ENV_PATTERNS);
    expect(removed).toEqual([...names].sort());
    expect(Object.keys(kept).sort()).toEqual(["OLDPWD", "PWD"]);
  });
  test("the needed names survive all patterns together", () => {
    const env = Object.fromEntries(NEEDED_ENV_NAMES.map((n) => [n, "v"]));
    expect(scrubEnv(env, DEFAULT_SECRET_ENV_PATTERNS).removed).toEqual([]);
  });
});

describe("credentials in URLs", () => {
  const cases: Array<[string, string, string]> = [
    ["REDIS_URL", "redis://:s3cret@cache:6379/0", "redis://cache:6379/0"],
    [
      "MONGODB_URI",
      "mongodb+srv://app:s3cret@cluster0.example.net/db?retryWrites=true",
      "mongodb+srv://cluster0.example.net/db?retryWrites=true",
    ],
    ["HTTPS_PROXY", "http://user:s3cret@proxy.corp:3128", "http://proxy.corp:3128"],
    ["PIP_INDEX_URL", "https://ghp_s3cret@pypi.example.com/simple", "https://pypi.example.com/simple"],
    ["AMQP_URL", "amqp://u:p@ss@rabbit:5672", "amqp://rabbit:5672"],
    ["HTTPS_PROXY_BARE", "user:s3cret@proxy.corp:3128", "proxy.corp:3128"],
    [
      "MIRRORS",
      "https://a:s3cret@one.example,https://b:s3cret@two.example",
      "https://one.example,https://two.example",
    ],
    [
      "MIRRORS_SPACED",
      "https://a:s3cret@one.example https://two.example/x@y",
      "https://one.example https://two.example/x@y",
    ],
  ];
  for (const [name, value, expected] of cases) {
    test(`${name}: the user-info goes, the rest stays`, () => {
      const { env, stripped, removed } = scrubEnv({ [name]: value }, DEFAULT_SECRET_ENV_PATTERNS);
      expect(removed).toEqual([]);
      expect(stripped).toEqual([name]);
      expect(env[name]).toBe(expected);
      expect(env[name]).not.toContain("s3cret");
    });
  }
  test("values without credentials are untouched", () => {
    for (
      const value of [
        "http://proxy.corp:3128",
        "git@github.com:o/r.git",
        "a@b.c",
        "/usr/bin:/bin",
        "\\u@\\h:\\w",
      ]
    ) {
      expect(stripUrlCredentials(value)).toBe(value);
    }
    const { stripped } = scrubEnv({ HTTPS_PROXY: "http://proxy.corp:3128" }, DEFAULT_SECRET_ENV_PATTERNS);
    expect(stripped).toEqual([]);
  });
});
