/**
 * MCP client OAuth against a local authorization server fixture (fixtures/mcp/oauth-server.ts):
 * `toolrt mcp login` (discovery, dynamic registration, PKCE, the loopback redirect), calls with
 * the stored token, refresh after the access token expires, and a revoked grant.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { codeOfRedirect } from "../../src/mcp/oauth/login.ts";
import { runCli } from "../helpers/cli.ts";
import { fixtureArgv, scratchCli } from "./fixtures.ts";

const MAIN = join(import.meta.dir, "../../src/cli/main.ts");
let dir: string;
let base: string;
let fixture: ReturnType<typeof Bun.spawn>;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "toolrt-oauth-"));
  mkdirSync(join(dir, "ws"));
  fixture = Bun.spawn(fixtureArgv("oauth-server"), { stdout: "pipe", stderr: "inherit" });
  const reader = (fixture.stdout as ReadableStream<Uint8Array>).getReader();
  let text = "";
  while (!text.includes("\n")) text += new TextDecoder().decode((await reader.read()).value);
  reader.releaseLock();
  base = text.split("\n")[0]!.replace(/^listening /, "");
  writeFileSync(
    join(dir, "servers.json"),
    JSON.stringify({ mcpServers: { secure: { url: `${base}/mcp` } } }),
  );
});
afterAll(() => {
  fixture.kill();
  rmSync(dir, { recursive: true, force: true });
});

const globals = () => scratchCli(dir).globals;
const env = () => scratchCli(dir).env;
const cli = (...args: string[]) => runCli([...globals(), ...args], { env: env() });
const listed = () =>
  JSON.parse(cli("mcp", "list", "--json").stdout)[0] as { status: string; reason?: string };
const echo = (text: string) =>
  cli("--allow", "mcp__secure__echo", "run", "mcp__secure__echo", JSON.stringify({ text }));
const stats = async () => (await fetch(`${base}/test/stats`)).json() as Promise<Record<string, number>>;
const tokenDir = () => join(dir, "state", "mcp-oauth");

/** Runs `toolrt mcp login secure`, and plays the browser: opens the printed URL, follows the redirect. */
async function login(): Promise<{ code: number; stdout: string }> {
  const proc = Bun.spawn([process.execPath, MAIN, ...globals(), "mcp", "login", "secure"], {
    stdin: "ignore",
    stdout: "pipe",
    stderr: "pipe",
    env: { ...process.env, ...env() },
  });
  const reader = proc.stdout.getReader();
  let stdout = "";
  while (!/\/authorize\?\S+/.test(stdout)) {
    const { value, done } = await reader.read();
    if (done) break;
    stdout += new TextDecoder().decode(value);
  }
  const url = /(http:\/\/127\.0\.0\.1:\d+\/authorize\?\S+)/.exec(stdout)?.[1];
  expect(url).toBeDefined();
  const page = await fetch(url!);
  expect(await page.text()).toContain("toolrt is logged in");
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    stdout += new TextDecoder().decode(value);
  }
  return { code: await proc.exited, stdout };
}

describe("OAuth for a remote MCP server", () => {
  test("before any login the server needs authorization, and says how to get it", () => {
    expect(listed()).toMatchObject({ status: "needs-auth" });
    expect(listed().reason).toContain("run `toolrt mcp login secure` if it supports OAuth");
  }, 60_000);

  test("login: discovery, registration and PKCE; tokens stored 0600 in a 0700 directory", async () => {
    const { code, stdout } = await login();
    expect(code).toBe(0);
    const file = /tokens saved in (\S+)$/m.exec(stdout)![1]!;
    expect(dirname(file)).toBe(tokenDir());
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(dirname(file)).mode & 0o777).toBe(0o700);
    const stored = JSON.parse(readFileSync(file, "utf8"));
    expect(stored).toMatchObject({ serverUrl: `${base}/mcp`, tokens: { token_type: "Bearer" } });
    expect(stored.codeVerifier).toBeUndefined();
    expect(await stats()).toMatchObject({ registrations: 1, authorizations: 1, codeExchanges: 1 });
  }, 60_000);

  test("a call with the stored token", () => {
    expect(listed()).toMatchObject({ status: "connected" });
    const run = echo("with a token");
    expect([run.code, run.stdout.trim()]).toEqual([0, "with a token\n(mcp__secure__echo: ok)"]);
  }, 60_000);

  test("after the access token expires, it is refreshed and the call goes through", async () => {
    const before = (await stats()).refreshes!;
    await fetch(`${base}/test/expire`, { method: "POST" });
    const run = echo("after expiry");
    expect([run.code, run.stdout.trim()]).toEqual([0, "after expiry\n(mcp__secure__echo: ok)"]);
    expect((await stats()).refreshes).toBe(before + 1);
  }, 60_000);

  test("a revoked grant: the server needs a new login, and a call says so", async () => {
    await fetch(`${base}/test/revoke`, { method: "POST" });
    expect(listed()).toMatchObject({
      status: "needs-auth",
      reason: "the login is missing, expired or revoked; the authorization server wants a new login: " +
        "run `toolrt mcp login secure`",
    });
    const run = echo("after revocation");
    expect([run.code, run.stderr.trim()]).toEqual([
      1,
      "toolrt: mcp__secure__echo cannot be called now: MCP server secure needs authorization: the login is " +
      "missing, expired or revoked; the authorization server wants a new login: run `toolrt mcp login secure`",
    ]);
  }, 60_000);

  test("logging in again works, and logout forgets the tokens", async () => {
    expect((await login()).code).toBe(0);
    expect(echo("again").code).toBe(0);
    expect(cli("mcp", "logout", "secure").stdout).toStartWith("logged out of secure (removed ");
    expect(listed()).toMatchObject({ status: "needs-auth" });
    expect(cli("mcp", "logout", "secure").stdout.trim()).toBe("no stored login for secure");
  }, 60_000);
});

describe("the login's redirect", () => {
  test("carries the code only with this login's state; an error or a foreign state is refused", () => {
    expect(codeOfRedirect("http://127.0.0.1:1/callback?code=abc&state=s1", "s1")).toBe("abc");
    expect(() => codeOfRedirect("http://127.0.0.1:1/callback?code=abc&state=other", "s1")).toThrow(
      "the redirect's state does not match this login",
    );
    expect(() => codeOfRedirect("http://127.0.0.1:1/callback?error=access_denied&state=s1", "s1")).toThrow(
      "the authorization server refused: access_denied",
    );
    expect(() => codeOfRedirect("not a url", "s1")).toThrow("not a URL");
  });

  test("login refuses a stdio server", () => {
    writeFileSync(join(dir, "local.json"), JSON.stringify({ mcpServers: { local: { command: "true" } } }));
    const run = runCli([
      "--cwd",
      join(dir, "ws"),
      "--state-dir",
      join(dir, "state"),
      "--mcp-config",
      join(dir, "local.json"),
      "mcp",
      "login",
      "local",
    ], { env: env() });
    expect([run.code, run.stderr.trim()]).toEqual([
      2,
      "toolrt: local is a stdio server; OAuth is for http and sse servers",
    ]);
  }, 60_000);
});
