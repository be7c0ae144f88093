/**
 * The commands decisions never auto-allow in the sandbox because they need the host
 * (src/policy/host-commands.ts): each installed one's harmless probe really fails inside bwrap.
 */
import { afterAll, expect, test } from "bun:test";
import { mkdtempSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { HOST_COMMANDS } from "../../src/policy/host-commands.ts";
import { detectSandbox } from "../../src/sandbox/detect.ts";
import { buildSandboxProfile } from "../../src/sandbox/profile.ts";
import { runWrapped } from "../../src/sandbox/run.ts";
import { wrapCommand } from "../../src/sandbox/wrap.ts";

const availability = detectSandbox();
const usable = availability.available && availability.kind === "bwrap";
if (!usable) {
  console.warn(`skipping host-command probes: ${availability.available ? "not Linux" : availability.reason}`);
}
const ws = realpathSync(mkdtempSync(join(tmpdir(), "toolrt-host-commands-")));
afterAll(() => rmSync(ws, { recursive: true, force: true }));

test.skipIf(!usable).each(Object.entries(HOST_COMMANDS))(
  "%s cannot do its job inside the sandbox",
  async (name, entry) => {
    if (!Bun.which(name)) {
      console.warn(`${name} is not installed here: its probe is skipped`);
      return;
    }
    const wrapped = await wrapCommand(buildSandboxProfile({}, ws), entry.probe, {
      cwd: ws,
      env: { PATH: process.env.PATH ?? "/usr/bin:/bin" },
    });
    const result = await runWrapped(wrapped, ["ignore", "pipe", "pipe"]);
    expect(result.exitCode, `${entry.probe.join(" ")}: ${result.stderr}`).not.toBe(0);
  },
);
