/**
 * Runs before every test file: toolrt's state dir (sandbox indexes and quarantine, audit log ...)
 * defaults to a fresh temp dir, so no test touches the real one. Tests that need their own set it.
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

process.env.TOOLRT_HOME ||= mkdtempSync(join(tmpdir(), "toolrt-test-state-"));
