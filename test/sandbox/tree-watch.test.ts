/**
 * The change watcher (`tree-watch.ts`): what changes between two scans is seen, and whenever it
 * cannot vouch for what it did not look at (not synced yet, overflowed, watch limit, lost barrier)
 * the scan revalidates in full and says why. In-process, no sandbox needed (inotify only).
 */
import { afterAll, describe, expect, test } from "bun:test";
import {
  linkSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ENOSPC, Inotify, type InotifyLike } from "../../src/sandbox/inotify.ts";
import { TreeWatch } from "../../src/sandbox/tree-watch.ts";

const linux = process.platform === "linux";
if (!linux) console.warn("skipping the change watcher's tests: inotify is Linux's");

const base = realpathSync(mkdtempSync(join(tmpdir(), "toolrt-watch-")));
afterAll(() => rmSync(base, { recursive: true, force: true }));
let n = 0;

/** A workspace with two links of one file inside it, a plain file, and a dir outside. */
function fixture() {
  const dir = join(base, `case-${n++}`);
  const ws = join(dir, "ws");
  const outside = join(dir, "outside");
  mkdirSync(join(ws, "src", "deep"), { recursive: true });
  mkdirSync(outside);
  writeFileSync(join(ws, "src", "twin-a"), "t");
  linkSync(join(ws, "src", "twin-a"), join(ws, "src", "deep", "twin-b"));
  writeFileSync(join(ws, "src", "plain"), "p");
  writeFileSync(join(outside, "victim"), "v");
  const watches: TreeWatch[] = [];
  const sandboxDir = join(dir, "state", "sandbox");
  const watch = (options: ConstructorParameters<typeof TreeWatch>[1] = {}) => {
    const w = new TreeWatch(sandboxDir, options);
    watches.push(w);
    return w;
  };
  const close = () => watches.forEach((w) => w.close());
  return { ws, outside, watch, close, watchDir: join(sandboxDir, "watch") };
}

describe.if(linux)("TreeWatch", () => {
  test("its first scan of a tree is a full one, the next ones go by events", () => {
    const { ws, watch, close } = fixture();
    const w = watch();
    expect(w.scan([ws], []).revalidation).toEqual({
      mode: "full",
      reason: "the watcher has not read this tree yet",
    });
    expect(w.scan([ws], []).revalidation).toEqual({ mode: "events" });
    close();
  });

  test("a hard link made outside to a file of the tree between two scans is seen by the next one", () => {
    const { ws, outside, watch, close } = fixture();
    const w = watch();
    w.scan([ws], []);
    expect(w.scan([ws], []).scan.linkedOutside).toEqual([]); // both links inside
    linkSync(join(ws, "src", "twin-a"), join(outside, "third"));
    const next = w.scan([ws], []);
    expect(next.revalidation).toEqual({ mode: "events" });
    expect(next.scan.linkedOutside).toEqual([join(ws, "src", "deep", "twin-b"), join(ws, "src", "twin-a")]);
    close();
  });

  test("a hard link to an outside file made in the tree, and a new repository, are seen", () => {
    const { ws, outside, watch, close } = fixture();
    const w = watch();
    w.scan([ws], []);
    linkSync(join(outside, "victim"), join(ws, "src", "deep", "looks-innocent"));
    mkdirSync(join(ws, "src", "nested", ".git"), { recursive: true });
    const next = w.scan([ws], []).scan;
    expect(next.linkedOutside).toContain(join(ws, "src", "deep", "looks-innocent"));
    expect(next.nestedGitDirs).toEqual([join(ws, "src", "nested", ".git")]);
    // and what a run changes is seen after it
    mkdirSync(join(ws, "made-by-the-command", ".git"), { recursive: true });
    expect(w.gitEntries([ws]).nestedGitDirs).toEqual([
      join(ws, "made-by-the-command", ".git"),
      join(ws, "src", "nested", ".git"),
    ]);
    close();
  });

  test("a run is `unchanged` only if not one event came since its scan, whoever scanned meanwhile", () => {
    const { ws, watch, close } = fixture();
    const w = watch();
    w.scan([ws], []);
    const quiet = w.scan([ws], []).generation!;
    expect(w.gitEntries([ws], quiet).unchanged).toBe(true);
    const long = w.scan([ws], []).generation!; // a long run starts
    writeFileSync(join(ws, "src", ".bashrc"), "made by the long run");
    w.scan([ws], []); // another run's scan reads the event (and clears it) meanwhile
    expect(w.gitEntries([ws], long).unchanged).toBeUndefined();
    // and another watcher's generation never matches this one's
    expect(watch().gitEntries([ws], w.scan([ws], []).generation).unchanged).toBeUndefined();
    close();
  });

  test("a directory moved away and another put in its place is read again", () => {
    const { ws, outside, watch, close } = fixture();
    const w = watch();
    w.scan([ws], []);
    const swap = join(ws, "swap");
    mkdirSync(join(swap, "pkg"), { recursive: true });
    linkSync(join(outside, "victim"), join(swap, "pkg", "linked"));
    rmSync(join(ws, "src"), { recursive: true });
    // `swap` becomes `src`: a known path, a new inode
    Bun.spawnSync(["mv", swap, join(ws, "src")]);
    expect(w.scan([ws], []).scan.linkedOutside).toEqual([join(ws, "src", "pkg", "linked")]);
    close();
  });

  test("a queue overflow makes the next scan a full one that still sees every change", () => {
    const limit = Number(readFileSync("/proc/sys/fs/inotify/max_queued_events", "utf8"));
    if (limit > 100_000) {
      console.warn(`skipping the overflow test: max_queued_events is ${limit}, too many events to make`);
      return;
    }
    const { ws, outside, watch, close } = fixture();
    const w = watch();
    w.scan([ws], []);
    const burst = join(ws, "burst");
    mkdirSync(burst);
    w.scan([ws], []); // the burst dir is watched
    for (let i = 0; i <= limit / 2 + 100; i++) {
      writeFileSync(join(burst, `f${i}`), "");
      rmSync(join(burst, `f${i}`));
    }
    linkSync(join(outside, "victim"), join(ws, "src", "after-the-burst"));
    const next = w.scan([ws], []);
    expect(next.revalidation.mode).toBe("full");
    expect(next.revalidation.reason).toContain("overflowed");
    expect(next.scan.linkedOutside).toContain(join(ws, "src", "after-the-burst"));
    expect(w.scan([ws], []).revalidation).toEqual({ mode: "events" }); // synced again
    close();
  });

  test("when the watch limit is reached, every scan is a full one and says what to raise", () => {
    const { ws, outside, watch, close } = fixture();
    // A real inotify instance whose directory watches beyond the first two fail as at the limit.
    const limited = (): InotifyLike => {
      const real = new Inotify();
      let dirs = 0;
      return {
        add: (path, mask) => (mask & 0x100 && ++dirs > 2 ? { errno: ENOSPC } : real.add(path, mask)),
        drain: () => real.drain(),
        close: () => real.close(),
      };
    };
    const w = watch({ inotify: limited });
    const first = w.scan([ws], []);
    expect(first.revalidation.mode).toBe("full");
    expect(first.revalidation.reason).toContain("fs.inotify.max_user_watches");
    linkSync(join(outside, "victim"), join(ws, "src", "deep", "later"));
    const next = w.scan([ws], []);
    expect(next.revalidation.mode).toBe("full");
    expect(next.scan.linkedOutside).toContain(join(ws, "src", "deep", "later"));
    close();
  });

  test("barrier files of watchers whose process is gone are removed, live ones kept", () => {
    const { watch, close, watchDir } = fixture();
    watch().close(); // makes the state dir
    const gone = Bun.spawnSync(["true"]).pid;
    const live = Bun.spawn(["sleep", "30"]);
    const namespace = readlinkSync("/proc/self/ns/pid").match(/\d+/)![0];
    writeFileSync(join(watchDir, `barrier-${namespace}-${gone}-deadbeef`), "");
    writeFileSync(join(watchDir, `barrier-${namespace}-${live.pid}-cafecafe`), "");
    watch();
    const left = readdirSync(watchDir);
    live.kill();
    expect(left).toContain(`barrier-${namespace}-${live.pid}-cafecafe`);
    expect(left).not.toContain(`barrier-${namespace}-${gone}-deadbeef`);
    close();
  });

  test("a watcher that does not read back its barrier stops vouching: full scans from then on", () => {
    const { ws, outside, watch, close } = fixture();
    // A real inotify instance whose queue, after the first scan, loses the barrier's events (its
    // watch is the first one added).
    let losing = false;
    let barrierWd: number | undefined;
    const lossy = (): InotifyLike => {
      const real = new Inotify();
      return {
        add: (path, mask) => {
          const wd = real.add(path, mask);
          barrierWd ??= typeof wd === "number" ? wd : undefined;
          return wd;
        },
        drain: () => real.drain().filter((e) => !(losing && e.wd === barrierWd)),
        close: () => real.close(),
      };
    };
    const w = watch({ inotify: lossy });
    w.scan([ws], []);
    losing = true;
    linkSync(join(outside, "victim"), join(ws, "src", "deep", "unseen-by-events"));
    const next = w.scan([ws], []);
    expect(next.revalidation.mode).toBe("full");
    expect(next.revalidation.reason).toContain("barrier");
    expect(next.scan.linkedOutside).toContain(join(ws, "src", "deep", "unseen-by-events"));
    expect(w.scan([ws], []).revalidation.mode).toBe("full");
    close();
  });
});
