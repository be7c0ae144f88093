import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Server } from "bun";
import { createWebFetchTool, webFetchTool } from "../../../src/tools/web-fetch/tool.ts";
import { callTool, makeContext, modelText } from "../helpers.ts";

const PAGE = `<!doctype html><html><head><title>Release &amp; notes</title>
<style>body { color: red }</style><script>alert("never shown")</script></head>
<body><h1>Version 2</h1><p>Read the <a href="/docs">docs</a> first.</p>
<ul><li>fast</li><li>small</li></ul><pre>  keep   spacing</pre></body></html>`;

let server: Server<undefined>;
let base: string;

beforeAll(() => {
  server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    async fetch(request) {
      const path = new URL(request.url).pathname;
      const html = { "content-type": "text/html; charset=utf-8" };
      switch (path) {
        case "/page":
          return new Response(PAGE, { headers: html });
        case "/plain":
          return new Response("just text\n", { headers: { "content-type": "text/plain" } });
        case "/latin1":
          return new Response(new Uint8Array([0x63, 0x61, 0x66, 0xe9]), {
            headers: { "content-type": "text/plain; charset=iso-8859-1" },
          });
        case "/big":
          return new Response("x".repeat(64 * 1024), { headers: { "content-type": "text/plain" } });
        case "/png":
          return new Response(new Uint8Array(100), { headers: { "content-type": "image/png" } });
        case "/missing":
          return new Response("<p>no such page</p>", { status: 404, headers: html });
        case "/same-host":
          return Response.redirect("/page", 302);
        case "/other-host":
          return Response.redirect(`http://localhost:${server.port}/page`, 301);
        case "/loop":
          return Response.redirect("/loop", 302);
        case "/slow":
          await Bun.sleep(5_000);
          return new Response("late");
        default:
          return new Response("?", { status: 500 });
      }
    },
  });
  base = `http://127.0.0.1:${server.port}`;
});

afterAll(() => server.stop(true));

const tool = createWebFetchTool({
  timeoutMs: 300,
  maxBytes: 16 * 1024,
  maxRedirects: 3,
  maxTextChars: 10_000,
});
const fetchText = async (path: string, ctx = makeContext("/w")) =>
  callTool(tool, { url: `${base}${path}`, prompt: "What changed?" }, ctx);

describe("WebFetch", () => {
  test("HTML becomes readable text: title, headings, absolute links, lists, pre; no script or style", async () => {
    const out = await fetchText("/page");
    const text = modelText(out);
    expect(text).toContain("Title: Release & notes");
    expect(text).toContain("Question: What changed?");
    expect(text).toContain("# Version 2");
    expect(text).toContain(`Read the [docs](${base}/docs) first.`);
    expect(text).toContain("- fast\n- small");
    expect(text).toContain("```\n  keep   spacing\n```");
    expect(text).not.toContain("never shown");
    expect(text).not.toContain("color: red");
  });

  test("plain text passes through, and a declared charset is honoured", async () => {
    expect(modelText(await fetchText("/plain"))).toEndWith("just text\n");
    expect(modelText(await fetchText("/latin1"))).toEndWith("café");
  });

  test("a body over the size cap is cut and says so", async () => {
    const out = await fetchText("/big");
    if (!out.ok) throw new Error(out.message);
    expect(out.data.bytes).toBe(16 * 1024);
    expect(out.data.cut).toBe(true);
    expect(out.text).toContain("cut at the size limit");
  });

  test("binary content is described, not shown", async () => {
    expect(modelText(await fetchText("/png"))).toContain(
      "(image/png content, 100 B, is not text and is not shown.)",
    );
  });

  test("an error status fails with the status and the page's words", async () => {
    const out = await fetchText("/missing");
    expect(out).toMatchObject({ ok: false, stage: "call" });
    expect(modelText(out)).toContain("answered 404: no such page");
  });

  test("same-host redirects are followed; other hosts are reported, not fetched", async () => {
    const same = await fetchText("/same-host");
    expect(same.ok && same.data.finalUrl).toBe(`${base}/page`);
    const other = await fetchText("/other-host");
    expect(other.ok && other.data.kind).toBe("redirect");
    expect(modelText(other)).toContain(`to another host: http://localhost:${server.port}/page`);
  });

  test("a redirect loop ends with a clear failure", async () => {
    expect(modelText(await fetchText("/loop"))).toContain("Too many redirects");
  });

  test("a slow server times out, and an interrupted call says so", async () => {
    expect(modelText(await fetchText("/slow"))).toContain("timed out after 0.3 s");
    const controller = new AbortController();
    controller.abort();
    const out = await fetchText("/page", makeContext("/w", { abortSignal: controller.signal }));
    expect(modelText(out)).toContain("was interrupted");
  });

  test("only complete http(s) URLs without credentials are accepted", async () => {
    const ctx = makeContext("/w");
    for (
      const [url, why] of [
        ["ftp://example.com/x", "Only http and https"],
        ["file:///etc/passwd", "Only http and https"],
        ["example.com", "not a valid URL"],
        ["http://user:pw@example.com/", "user name or password"],
      ]
    ) {
      const out = await callTool(tool, { url, prompt: "x" }, ctx);
      expect(out).toMatchObject({ ok: false, stage: "validation" });
      expect(modelText(out)).toContain(why!);
    }
    expect(await callTool(tool, { url: `${base}/page`, prompt: "" }, ctx)).toMatchObject({ stage: "schema" });
  });

  test("contract: deferred, not read-only (it can carry data out), parallel-safe, cancellable", () => {
    const input = { url: "https://example.com", prompt: "p" };
    expect(webFetchTool.shouldDefer).toBe(true);
    expect(webFetchTool.isReadOnly(input)).toBe(false);
    expect(webFetchTool.isConcurrencySafe(input)).toBe(true);
    expect(webFetchTool.isDestructive(input)).toBe(false);
    expect(webFetchTool.interruptBehavior()).toBe("cancel");
    expect(webFetchTool.maxResultSizeChars).toBe(100_000);
  });
});
