import { expect, test } from "bun:test";
import { createServer } from "node:net";
import Anthropic from "@anthropic-ai/sdk";
import { describeApiFailure } from "../../src/agent/api-errors.ts";
import { withRetries } from "../../src/agent/retry.ts";
import { runCliAsync } from "../helpers/cli.ts";
import { tempDir } from "../helpers/session-context.ts";

const connectionError = (code: string) =>
  new Anthropic.APIConnectionError({
    message: "Connection error.",
    cause: Object.assign(new TypeError(code), { code }),
  });

test("refused and unknown hosts are unreachable, named by the base URL; a reset connection is not", () => {
  process.env.ANTHROPIC_BASE_URL = "http://gateway.test:8080";
  try {
    const refused = describeApiFailure(connectionError("ECONNREFUSED"));
    expect(refused).toMatchObject({ retryable: true, unreachable: true });
    expect(refused.message).toContain("http://gateway.test:8080: connection refused (ECONNREFUSED)");
    expect(describeApiFailure(connectionError("ENOTFOUND")).message).toContain("unknown host (ENOTFOUND)");
    const reset = describeApiFailure(connectionError("ECONNRESET"));
    expect(reset.unreachable).toBeUndefined();
    expect(reset.message).toContain("http://gateway.test:8080");
  } finally {
    delete process.env.ANTHROPIC_BASE_URL;
  }
});

test("an unreachable address gets its few retries, not the full count", async () => {
  let attempts = 0;
  const policy = { maxRetries: 8, maxUnreachableRetries: 2, baseDelayMs: 1, maxDelayMs: 1 };
  const failing = withRetries(() => {
    attempts++;
    return Promise.reject(connectionError("ECONNREFUSED"));
  }, { policy, onRetry: () => {} });
  await expect(failing).rejects.toThrow("connection refused");
  expect(attempts).toBe(3);
});

test("toolrt agent against a closed port stops after two retries and names the URL", async () => {
  const port = await new Promise<number>((resolve) => {
    const server = createServer().listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
  const root = tempDir();
  const url = `http://127.0.0.1:${port}`;
  const run = await runCliAsync([
    "--cwd",
    root,
    "--state-dir",
    `${root}/state`,
    "agent",
    "--output-format",
    "stream-json",
    "hi",
  ], {
    env: { ANTHROPIC_BASE_URL: url, ANTHROPIC_API_KEY: "test-key", HOME: root },
  });
  const lines = run.stdout.trim().split("\n").map((line) => JSON.parse(line));
  expect(lines.filter((l) => l.subtype === "api_retry").length).toBe(2);
  expect(run.stderr).toContain(`could not reach the gateway at ${url}: connection refused`);
  expect(run.code).toBe(1);
});
