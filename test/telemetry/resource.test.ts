import { describe, expect, test } from "bun:test";
import { spawnSync } from "node:child_process";
import { userName, type UserSources } from "../../src/telemetry/resource.ts";

const PASSWD = [
  "root:x:0:0:root:/root:/bin/bash",
  "# a comment",
  "broken-line",
  "alice:x:1000:1000:Alice:/home/alice:/bin/zsh",
  "bob:x:10000:10000::/home/bob:/bin/sh",
].join("\n");

const sources = (info: () => string, uid: number | undefined = 1000): UserSources => ({
  info,
  passwd: () => PASSWD,
  uid,
});

describe("the resource's user.name", () => {
  test("what userInfo() says, when it knows", () => {
    expect(userName({}, sources(() => "carol"))).toBe("carol");
  });

  test("Bun's 'unknown' (no $USER) is not a name: LOGNAME, then the passwd entry of the uid", () => {
    const unknown = () => "unknown";
    expect(userName({ LOGNAME: "dave" }, sources(unknown))).toBe("dave");
    expect(userName({}, sources(unknown))).toBe("alice");
    // uid 1000 is not uid 10000: the uid field is compared whole
    expect(userName({}, sources(unknown, 10000))).toBe("bob");
  });

  test("no entry for the uid, no passwd file, no uid: no name rather than a wrong one", () => {
    const unknown = () => "unknown";
    expect(userName({}, sources(unknown, 4242))).toBeUndefined();
    expect(userName({}, {
      info: unknown,
      passwd: () => {
        throw new Error("ENOENT");
      },
      uid: 1000,
    })).toBeUndefined();
    expect(userName({}, { ...sources(unknown), uid: undefined })).toBeUndefined();
  });

  test("a userInfo() that throws (no passwd entry) falls back the same way", () => {
    const throws = () => {
      throw new Error("ENOENT");
    };
    expect(userName({ USER: "erin" }, sources(throws))).toBe("erin");
  });

  test("a process started without USER or LOGNAME still names its user", () => {
    const env = Object.fromEntries(
      Object.entries(process.env).filter(([k]) => k !== "USER" && k !== "LOGNAME"),
    ) as Record<string, string>;
    const expected = spawnSync("id", ["-un"], { encoding: "utf8" }).stdout.trim();
    const child = spawnSync(process.execPath, [
      "-e",
      `import("${import.meta.dir}/../../src/telemetry/resource.ts").then((m) => ` +
      `console.log(m.baseResource({ resourceAttributes: {}, serviceName: "t" }, process.env)["user.name"]))`,
    ], { env, encoding: "utf8" });
    expect(child.stdout.trim()).toBe(expected);
  });
});
