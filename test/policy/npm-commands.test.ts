/**
 * npm runs `publish` for `npm publ`, `npm pub` and `npm --registry=URL publish` (verified in real
 * bash: `npm publ --help` prints publish's usage, `npm publ --dry-run` prints "Publishing to ...").
 * A deny or ask rule for `npm publish` holds for each spelling.
 */
import { beforeAll, describe, expect, test } from "bun:test";
import { analyzeBash } from "../../src/bash/analyze.ts";
import { npmCommand, npmCommandTexts } from "../../src/bash/npm-commands.ts";
import { decide } from "../../src/policy/decide.ts";
import { buildRequest } from "../../src/policy/request.ts";
import { type Sandbox, sandbox } from "./helpers.ts";

let box: Sandbox;
beforeAll(() => {
  box = sandbox();
});

describe("npm's command names", () => {
  test("aliases and unique starts name the command; ambiguous starts name none", () => {
    expect(npmCommand("publ")).toBe("publish");
    expect(npmCommand("pub")).toBe("publish");
    expect(npmCommand("i")).toBe("install");
    expect(npmCommand("isntall")).toBe("install");
    expect(npmCommand("unp")).toBe("unpublish");
    expect(npmCommand("p")).toBeUndefined();
    expect(npmCommand("bogus")).toBeUndefined();
  });
  test("options before the command, and option values that could be the command", () => {
    expect(npmCommandTexts(["npm", "--registry=x", "publ"])).toEqual(["npm publish"]);
    expect(npmCommandTexts(["npm", "-w", "web", "publish", "--tag", "x"])).toEqual([
      "npm publish --tag x",
    ]);
    expect(npmCommandTexts(["npm", "--loglevel", "pub", "ls"])).toEqual(["npm publish ls", "npm ls"]);
    expect(npmCommandTexts(["pnpm", "publish"])).toEqual([]);
  });
});

describe("a deny rule for npm publish holds for every spelling", () => {
  const check = async (command: string) => {
    const bash = await analyzeBash(command);
    const request = buildRequest({ tool: "Bash", input: { command }, cwd: box.cwd, home: box.home, bash });
    return decide(request, box.load({ cliRules: { deny: ["Bash(npm publish:*)"] } }).policy).decision;
  };
  for (
    const command of [
      "npm publ",
      "npm pub --dry-run",
      "npm --registry=http://127.0.0.1:9 publish",
      "npm --registry http://127.0.0.1:9 publish",
      "npm -w pkg publish",
      "timeout 9 npm publi",
    ]
  ) {
    test(command, async () => expect(await check(command)).toBe("deny"));
  }
  test("other npm commands are not caught", async () => {
    expect(await check("npm ls")).toBe("allow");
    expect(await check("npm run build")).toBe("ask");
  });
});
