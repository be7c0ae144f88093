import { afterAll, describe, expect, test } from "bun:test";
import { existsSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PlaceholderRegistry } from "../../src/sandbox/placeholders.ts";

const dir = realpathSync(mkdtempSync(join(tmpdir(), "toolrt-ph-")));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("placeholders", () => {
  test("created for the run, removed by the last run out, kept while another run holds a lease", () => {
    const registry = join(dir, "registry");
    const first = new PlaceholderRegistry(registry);
    const second = new PlaceholderRegistry(registry);
    first.acquire();
    second.acquire();
    first.create([{ path: join(dir, ".zshrc"), kind: "file" }, { path: join(dir, ".vscode"), kind: "dir" }]);
    expect(existsSync(join(dir, ".zshrc"))).toBe(true);
    first.release();
    expect(existsSync(join(dir, ".zshrc"))).toBe(true); // the second run may have it mounted
    second.release();
    expect(existsSync(join(dir, ".zshrc"))).toBe(false);
    expect(existsSync(join(dir, ".vscode"))).toBe(false);
  });
  test("overlapping runs: a placeholder directory holding placeholders goes too", () => {
    const registry = join(dir, "registry4");
    const first = new PlaceholderRegistry(registry);
    const second = new PlaceholderRegistry(registry);
    first.acquire();
    first.create([{ path: join(dir, ".claude"), kind: "dir" }]);
    second.acquire(); // planned after the first made .claude: its children are placeholders too
    second.create([{ path: join(dir, ".claude", "agents"), kind: "dir" }]);
    first.release();
    second.release();
    expect(existsSync(join(dir, ".claude"))).toBe(false);
  });
  test("a placeholder that got content meanwhile is left alone", () => {
    const registry = new PlaceholderRegistry(join(dir, "registry2"));
    registry.acquire();
    registry.create([{ path: join(dir, ".profile"), kind: "file" }]);
    writeFileSync(join(dir, ".profile"), "real content");
    registry.release();
    expect(existsSync(join(dir, ".profile"))).toBe(true);
  });
  test("an existing file is never recorded as a placeholder", () => {
    writeFileSync(join(dir, ".gitconfig"), "");
    const registry = new PlaceholderRegistry(join(dir, "registry3"));
    registry.acquire();
    registry.create([{ path: join(dir, ".gitconfig"), kind: "file" }]);
    registry.release();
    expect(existsSync(join(dir, ".gitconfig"))).toBe(true);
  });
  test("a registry directory others can write is refused", () => {
    const open = join(dir, "open");
    Bun.spawnSync(["mkdir", "-m", "777", open]);
    expect(() => new PlaceholderRegistry(open)).toThrow("not a private directory");
  });
});
