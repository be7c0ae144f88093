/**
 * Catastrophes only the place shows: the analysis alone does not know the working directory or
 * where the home is, so `buildRequest` judges the line again with both. Every denied form here was
 * run in real bash 5.2 against a scratch home (HOME=/tmp/…/home, the workspace beside it) and
 * deleted, moved or locked the whole home; the spared ones touched only what they name.
 */
import { beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, realpathSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { analyzeBash, catastrophesAt } from "../../src/bash/analyze.ts";
import { loadBashParser } from "../../src/bash/parser.ts";
import { buildRequest } from "../../src/policy/request.ts";

const where = { cwd: "/home/me/work/app", homes: ["/home/me"] };
const ids = (command: string, at = where) => catastrophesAt(command, at).map((c) => c.id);

beforeAll(async () => {
  await loadBashParser();
});

describe("relative words from the working directory, the home by its absolute path", () => {
  test("the home or a directory above it, however it is named, is denied", () => {
    const denied: [string, string][] = [
      ["rm -rf ../..", "rm-root"],
      ["rm -rf ../../", "rm-root"],
      ["rm -rf ../../*", "rm-root"],
      ["rm -rf ../../.[!.]*", "rm-root"],
      ["rm -rf ../../../../*", "rm-root"],
      ["rm -rf ~+/../..", "rm-root"],
      ["rm -rf ~+/../../../../*", "rm-root"],
      ["cd .. && rm -rf ..", "rm-root"],
      ["rm -rf /home/me", "rm-root"],
      ["rm -rf /home/me/", "rm-root"],
      ["rm -rf /home/me/*", "rm-root"],
      ["rm -rf /home/ME", "rm-root"],
      ["find /home/me -delete", "rm-root"],
      ["find ../.. -delete", "rm-root"],
      ["rm -rf /proc/self/cwd/../..", "rm-root"],
      ["rm -rf /proc/self/root/home/me", "rm-root"],
      ["mv /home/me /tmp/gone", "move-root"],
      ["mv ../.. /tmp/gone", "move-root"],
      ["chmod -R 0 /home/me", "recursive-chmod-root"],
      ["chown -R nobody ../..", "recursive-chmod-root"],
    ];
    const missed = denied.filter(([command, id]) => !ids(command).includes(id));
    expect(missed).toEqual([]);
  });

  test("a wildcard over a directory above the home is a sweep of it", () => {
    const at = { cwd: "/tmp/t/ws", homes: ["/tmp/t/home"] };
    expect(ids("rm -rf /tmp/t/*", at)).toContain("rm-root");
    expect(ids("rm -rf ../*", at)).toContain("rm-root");
    expect(ids("rm -rf /tmp/t/hom?", at)).toContain("rm-root");
    expect(ids("rm -rf /tmp/t/ws/*", at)).toEqual([]);
    expect(ids("rm -rf ../other", at)).toEqual([]);
  });

  test("everyday deletions inside the workspace, a sibling or the home's own files are not", () => {
    const spared = [
      "rm -rf node_modules",
      "rm -rf ./dist ../app/build",
      "rm -rf ../other-repo/target",
      "rm -rf /home/me/work/app/.cache",
      "rm -rf ~/.cache/pip",
      "rm -rf /home/me/.cache/pip",
      "cp a.txt /home/me/",
      "mv build /home/me/old-build",
      "find . -name '*.pyc' -delete",
      "chmod -R u+w ../app",
    ];
    expect(spared.filter((command) => ids(command).length > 0)).toEqual([]);
  });

  test("/proc's links to / are / wherever the line runs", async () => {
    for (const command of ["rm -rf /proc/self/root/*", "find /proc/thread-self/root/ -delete"]) {
      expect((await analyzeBash(command)).catastrophic.map((c) => c.id), command).toContain("rm-root");
    }
    expect((await analyzeBash("ls /proc/self/root/etc")).catastrophic).toEqual([]);
  });
});

describe("buildRequest adds what the place shows", () => {
  test("a workspace beside the home: ../home is denied, ../ws/x is not", async () => {
    const root = realpathSync(mkdtempSync(join(tmpdir(), "toolrt-placed-")));
    const home = join(root, "home");
    const ws = join(root, "ws");
    mkdirSync(home);
    mkdirSync(ws);
    const request = async (command: string, cwd = ws, homeDir = home) =>
      buildRequest({ tool: "Bash", input: { command }, cwd, home: homeDir, bash: await analyzeBash(command) })
        .bash!.catastrophic.map((c) => c.id);
    expect(await request("rm -rf ../home")).toContain("rm-root");
    expect(await request(`rm -rf ${home}/`)).toContain("rm-root");
    expect(await request("rm -rf ../ws/build")).toEqual([]);
    // A home reached through a symlink is the same home.
    const link = join(root, "home-link");
    symlinkSync(home, link);
    expect(await request(`rm -rf ${home}`, ws, link)).toContain("rm-root");
  });
});
