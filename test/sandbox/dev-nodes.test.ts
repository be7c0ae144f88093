/**
 * A command running as the host's uid 0 gets device nodes of its own: a chmod of `/dev/null` inside
 * must not touch the host's. The payload is `chmod 666`, the normal mode: harmless to the host even
 * on a build that binds the host's node, where it shows as a new change time.
 */
import { afterAll, describe, expect, test } from "bun:test";
import {
  closeSync,
  existsSync,
  fstatSync,
  mkdirSync,
  mkdtempSync,
  realpathSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { bwrapArgs } from "../../src/sandbox/bwrap.ts";
import {
  DEV_NODES,
  DevNodesError,
  devNodesForRun,
  makePrivateDevNodes,
  ownedHostNodes,
} from "../../src/sandbox/dev-nodes.ts";
import { runCli } from "../helpers/cli.ts";
import { sandboxFor } from "../helpers/requirements.ts";

const isRoot = process.getuid?.() === 0;
const usable = sandboxFor("private device nodes in real runs", "bwrap");
if (!isRoot) console.warn("skipping the private device node cases: they need toolrt to run as root (mknod)");

const dir = realpathSync(mkdtempSync(join(tmpdir(), "toolrt-devnodes-")));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("bwrap arguments", () => {
  test("each private node is bound by its descriptor over --dev's, before anything else is mounted", () => {
    const args = bwrapArgs({ mounts: [], refusals: [], notices: [], absent: [] } as never, {
      bwrapPath: "bwrap",
      cwd: "/w",
      seccompFd: 3,
      mountFds: [],
      devNodes: [{ target: "/dev/null", fd: 5 }],
    });
    const dev = args.indexOf("--dev");
    expect(args.slice(dev, dev + 2)).toEqual(["--dev", "/dev"]);
    const bind = args.indexOf("--dev-bind");
    expect(bind).toBeGreaterThan(dev);
    expect(args.slice(bind, bind + 3)).toEqual(["--dev-bind", "/proc/self/fd/5", "/dev/null"]);
  });
});

describe("which host nodes need a private twin", () => {
  test("only those the command's uid owns: none in a rootless container, where they belong to nobody", () => {
    expect(ownedHostNodes(0, () => 65534)).toEqual([]);
    expect(ownedHostNodes(0, () => 0)).toEqual([...DEV_NODES]);
    expect(ownedHostNodes(0, (path) => path === "/dev/tty" ? 0 : 65534).map((n) => n.name)).toEqual(["tty"]);
    const missing = (path: string) => {
      if (path === "/dev/full") throw new Error("ENOENT");
      return 0;
    };
    expect(ownedHostNodes(0, missing).map((n) => n.name)).not.toContain("full");
  });
  test("owning none, a run makes nothing and needs no place", () => {
    const cleanups: Array<() => void> = [];
    const runDir = join(dir, "owns-none");
    expect(devNodesForRun(runDir, join(dir, "no-state"), cleanups, [])).toEqual({ nodes: [], place: "none" });
    expect(existsSync(runDir) || existsSync(join(dir, "no-state")) || cleanups.length > 0).toBe(false);
  });
});

describe.skipIf(!isRoot)("making the nodes", () => {
  test("every node bwrap's --dev takes from the host, same device, mode 0666 whatever the umask", () => {
    const place = join(dir, "made");
    mkdirSync(place);
    const { nodes } = makePrivateDevNodes([() => place]);
    try {
      expect(nodes.map((n) => n.target)).toEqual(DEV_NODES.map((d) => `/dev/${d.name}`));
      for (const n of nodes) {
        const mine = fstatSync(n.fd);
        const host = statSync(n.target);
        expect(mine.isCharacterDevice()).toBe(true);
        expect(mine.rdev).toBe(host.rdev);
        expect(mine.mode & 0o7777).toBe(0o666);
        expect(mine.ino).not.toBe(host.ino);
      }
    } finally {
      for (const n of nodes) closeSync(n.fd);
    }
  });
  test("a place where they cannot be made gives way to the next", () => {
    const [bad, good] = [join(dir, "bad"), join(dir, "good")];
    mkdirSync(bad);
    mkdirSync(good);
    const { nodes, index } = makePrivateDevNodes(
      [() => bad, () => good],
      DEV_NODES,
      (path, _mode, major, minor) => {
        if (path.startsWith(bad)) throw new Error("EPERM");
        Bun.spawnSync(["mknod", path, "c", String(major), String(minor)]);
      },
    );
    for (const n of nodes) closeSync(n.fd);
    expect(index).toBe(1);
    expect(statSync(join(good, "dev", "null")).isCharacterDevice()).toBe(true);
  });
  test("nowhere to make them is a refusal naming each place and what to do, never the host's nodes", () => {
    const notNodes = join(dir, "plain");
    mkdirSync(notNodes);
    const attempt = () =>
      makePrivateDevNodes(
        [() => notNodes, () => {
          throw new Error("no state dir");
        }],
        DEV_NODES,
        (path) => writeFileSync(path, ""),
      ); // a regular file where the node should be
    let error: unknown;
    try {
      attempt();
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(DevNodesError);
    expect((error as Error).message).toMatch(/plain: .*not the node just made.*no state dir.*TMPDIR .*nodev/);
  });
});

describe.skipIf(!usable || !isRoot)("toolrt sandbox as root", () => {
  const ws = join(dir, "ws");
  mkdirSync(ws);
  const env = { HOME: join(dir, "home"), TOOLRT_HOME: join(dir, "state") };
  Bun.spawnSync(["git", "init", "-q", ws]);

  const hostNull = () => {
    const st = statSync("/dev/null", { bigint: true });
    return { mode: st.mode & 0o7777n, ctimeNs: st.ctimeNs };
  };
  const script = "chmod 666 /dev/null && echo chmod-ok; echo x > /dev/null && echo write-ok; " +
    "head -c 3 /dev/zero | od -An -tx1; head -c 16 /dev/urandom | wc -c; git status --short && echo git-ok";

  for (const flags of [[], ["--run-as-root"]]) {
    test(`${flags.join(" ") || "a root-owned workspace"}: the chmod stays inside, the nodes work`, () => {
      const before = hostNull();
      const run = runCli(["sandbox", ...flags, "--workspace", ws, "--", "/bin/sh", "-c", script], {
        cwd: ws,
        env,
      });
      expect(hostNull()).toEqual(before);
      expect(run.stderr).not.toContain("Permission denied");
      expect(run.stdout.split("\n").map((l) => l.trim())).toEqual([
        "chmod-ok",
        "write-ok",
        "00 00 00",
        "16",
        "git-ok",
        "",
      ]);
      expect(run.code).toBe(0);
    });
  }
  test("the node descriptors left open in the command lead nowhere: no parent directory, no link out", () => {
    const probe = 'for fd in /proc/self/fd/*; do case "$(readlink "$fd")" in /dev/null) ;; */dev/null) ' +
      'echo found; ls "$fd/.." >/dev/null 2>&1 && echo parent; ln -L "$fd" ./linked 2>/dev/null && echo linked;; ' +
      "esac; done; true";
    const run = runCli(["sandbox", "--workspace", ws, "--", "/bin/sh", "-c", probe], { cwd: ws, env });
    expect(run.stdout).toBe("found\n");
    expect(existsSync(join(ws, "linked"))).toBe(false);
  });
  test("--explain says the nodes are private, after making them once here", () => {
    const run = runCli(["sandbox", "--explain", "--workspace", ws], { cwd: ws, env });
    expect(run.stdout).toContain("device nodes: the command runs as the host's uid 0");
    expect(run.stdout).toContain("private nodes made for each run, in the temp dir");
  });
});
