import { expect, test } from "bun:test";
import { decodeEntities } from "../../../src/tools/web-fetch/entities.ts";
import { htmlToText } from "../../../src/tools/web-fetch/html-to-text.ts";

test("unclosed paragraphs and list items still break lines", async () => {
  const { text } = await htmlToText("<p>one<p>two<ul><li>a<li>b</ul>", "http://h.test/");
  expect(text).toBe("one\n\ntwo\n\n- a\n- b");
});

test("fragment, javascript: and relative links are handled", async () => {
  const html = '<a href="#top">top</a> <a href="javascript:x()">js</a> <a href="../up">up</a>';
  expect((await htmlToText(html, "http://h.test/a/b/page")).text).toBe("top js [up](http://h.test/a/up)");
});

test("whitespace collapses outside pre; noscript, svg and template vanish", async () => {
  const html = "<div>  spread \n\t out  </div><noscript>enable js</noscript><svg><text>chart</text></svg>" +
    "<template>hidden</template><br>after";
  expect((await htmlToText(html, "http://h.test/")).text).toBe("spread out\n\nafter");
});

test("entities: numeric, named, unknown and invalid code points", () => {
  expect(decodeEntities("&lt;a&gt; &#65;&#x42; &mdash; &copy; &bogus; &amp;amp;")).toBe(
    "<a> AB — © &bogus; &amp;",
  );
  expect(decodeEntities("&#0; &#xD800;")).toBe("\ufffd \ufffd");
});
