import fc from "fast-check";
import { parse } from "parse5";
import { describe, expect, it } from "vitest";
import { HOSTILE_POST_HTML } from "../support/hostile-post-html";
import { createPostInput, visibleText } from "@/lib/validation/post";
import { LINK_WEIGHT, POST_HTML_MAX_DEPTH, POST_HTML_MAX_ELEMENTS, POST_HTML_MAX_REMOVED, measurePostHtml, postHtmlWithinBounds } from "@/lib/validation/post-html-bounds";
import { renderPostHtml, renderCacheSize, sanitizePostHtml, sanitizerRunCount } from "@/lib/validation/post-html";

// Issue 24 items 1, 2 and 9 (docs/adr/0107): the linear pre-check of post HTML, the sanitiser that never
// runs DOMPurify on what the pre-check refuses, and visibleText in one pass.

const HOSTILE = HOSTILE_POST_HTML;

const base = { title: "Котики" };
const issues = (r: { success: boolean; error?: { issues: { message: string }[] } }) => r.error?.issues.map((i) => i.message) ?? [];

describe("the linear pre-check of post HTML", () => {
  for (const [label, html] of Object.entries(HOSTILE)) {
    it(`refuses ${label}`, () => {
      expect(measurePostHtml(html).ok).toBe(false);
      expect(postHtmlWithinBounds(html)).toBe(false);
      expect(issues(createPostInput.safeParse({ ...base, postText: html }))).toContain("postErrors.textTooComplex");
    });
  }

  it("takes what the composer writes, long posts included", () => {
    const tiptap =
      '<h2>Заголовок</h2><p>Очень <strong>милые</strong> <em>котики</em> и <a href="https://example.com" rel="nofollow noopener ugc">ссылка</a></p>' +
      "<ul><li><p>один</p></li><li><p>два <code>x</code></p><ol><li><p>три</p></li></ol></li></ul><blockquote><p>цитата</p></blockquote><pre><code>код</code></pre><p>a<br>b</p>";
    expect(measurePostHtml(tiptap)).toEqual({ elements: 22, depth: 5, removed: 0, ok: true });
    expect(createPostInput.safeParse({ ...base, postText: tiptap }).success).toBe(true);
    // 45,000 characters in 90 paragraphs of 500, each with a bold word, every third with a link.
    const paragraph = (i: number) =>
      `<p>${"к".repeat(430)} <strong>жирно</strong>${i % 3 === 0 ? ' <a href="https://example.com/x" rel="nofollow noopener ugc">ссылка</a>' : ""}</p>`;
    const long = Array.from({ length: 90 }, (_, i) => paragraph(i)).join("");
    expect(long.length).toBeGreaterThan(40_000);
    expect(measurePostHtml(long).ok).toBe(true);
  });

  it("stops at each bound", () => {
    expect(measurePostHtml("<p>a</p>".repeat(POST_HTML_MAX_ELEMENTS)).ok).toBe(true);
    expect(measurePostHtml("<p>a</p>".repeat(POST_HTML_MAX_ELEMENTS + 1)).ok).toBe(false);
    // A link costs the sanitiser about three elements.
    expect(measurePostHtml('<a href="https://x.y">a</a>'.repeat(Math.floor(POST_HTML_MAX_ELEMENTS / LINK_WEIGHT))).ok).toBe(true);
    expect(measurePostHtml('<a href="https://x.y">a</a>'.repeat(Math.floor(POST_HTML_MAX_ELEMENTS / LINK_WEIGHT) + 1)).ok).toBe(false);
    expect(measurePostHtml("<blockquote>".repeat(POST_HTML_MAX_DEPTH)).ok).toBe(true);
    expect(measurePostHtml("<blockquote>".repeat(POST_HTML_MAX_DEPTH + 1)).ok).toBe(false);
    expect(measurePostHtml("<span>a</span>".repeat(POST_HTML_MAX_REMOVED)).ok).toBe(true);
    expect(measurePostHtml("<span>a</span>".repeat(POST_HTML_MAX_REMOVED + 1)).ok).toBe(false);
  });

  it("is not fooled by end tags the parser does not see", () => {
    const open = "<div>".repeat(POST_HTML_MAX_DEPTH);
    const closes = "</div>".repeat(POST_HTML_MAX_DEPTH);
    // In a comment, an attribute value or raw text an end tag is text: the divs stay open.
    expect(measurePostHtml(`${open}<!--${closes}-->${open}`).ok).toBe(false);
    expect(measurePostHtml(`${open}<p title="${closes}">${open}`).ok).toBe(false);
    expect(measurePostHtml(`${open}<style>${closes}</style>${open}`).ok).toBe(false);
    // An end tag of an ordinary element never closes past a block; </form> closes nothing inside it.
    expect(measurePostHtml("<span><div></span>".repeat(POST_HTML_MAX_DEPTH)).ok).toBe(false);
    expect(measurePostHtml("<form><div></form>".repeat(POST_HTML_MAX_DEPTH)).ok).toBe(false);
    // Formatting closed by its block is opened again at every paragraph that follows.
    expect(measurePostHtml(`<p>${"<b>".repeat(20)}</p>${"<p>x</p>".repeat(100)}`).ok).toBe(false);
  });

  it("measures the tree the HTML parser builds: its elements, its depth, and a refusal exactly past a bound", () => {
    const names = ["p", "b", "strong", "em", "a", "div", "span", "li", "ul", "blockquote", "br", "form", "button", "table", "td", "style", "textarea", "svg", "script", "select", "dd", "h2", "code", "pre", "nobr", "noscript", "title", "iframe", "xmp", "plaintext", "math", "template", "option"];
    const token = fc.oneof(
      fc.tuple(fc.constantFrom(...names), fc.constantFrom("", ' title="</div>"', ' title=">"', " x=y", " =\"a>\"")).map(([n, a]) => `<${n}${a}>`),
      fc.constantFrom(...names).map((n) => `</${n}>`),
      fc.constantFrom("x", "<", ">", "<!--", "-->", "--!>", "<!-->", "<![CDATA[", "]]>", "<?x>", "</ x>", "<!x>", '"', "/>"),
    );
    const small = { elements: 12, depth: 4, removed: 3 };
    fc.assert(
      fc.property(fc.array(token, { maxLength: 60 }), (tokens) => {
        const html = tokens.join("");
        const model = measurePostHtml(html, { elements: Infinity, depth: Infinity, removed: Infinity });
        const tree = treeShape(html);
        expect(model.elements - (LINK_WEIGHT - 1) * tree.links).toBe(tree.elements);
        expect(model.depth).toBe(tree.depth);
        expect(model.removed).toBeLessThanOrEqual(tree.elements);
        // With small bounds: refused exactly when the whole tree passes one of them.
        const within = model.elements <= small.elements && model.depth <= small.depth && model.removed <= small.removed;
        expect(measurePostHtml(html, small).ok).toBe(within);
      }),
      { numRuns: 1_500 },
    );
  }, 60_000);

  it("takes a script, an svg, a formula or a select pasted before a link (issue 40 item 10)", () => {
    const link = '<a href="https://example.com">link</a>';
    expect(measurePostHtml(`<p>Safe text</p><script>alert(1)</script>${link}`)).toEqual({ elements: 5, depth: 1, removed: 1, ok: true });
    for (const before of [
      "<script>alert(1)</script>",
      '<svg viewBox="0 0 24 24"><g><path d="M0 0h24v24H0z"/><circle r="2"/></g></svg>',
      "<math><mi>x</mi><mo>=</mo><mn>2</mn></math>",
      `<select>${"<option>a</option>".repeat(40)}</select>`,
    ]) {
      const html = `<p>Safe text</p>${before}<p>${"<b>x</b> ".repeat(30)}${link}</p>`;
      expect(measurePostHtml(html).ok, before).toBe(true);
      expect(createPostInput.safeParse({ ...base, postText: html }).success, before).toBe(true);
      expect(sanitizePostHtml(html)).not.toMatch(/script|svg|math|select|option|alert/);
    }
    // What such an element holds is still parsed and counted: enough of it is refused.
    expect(measurePostHtml(`<svg>${"<g>".repeat(POST_HTML_MAX_ELEMENTS)}</svg>`).ok).toBe(false);
    expect(measurePostHtml(`<math>${"<mi>".repeat(POST_HTML_MAX_DEPTH + 1)}</math>`).ok).toBe(false);
  });

  it("stays linear on hostile input: each refused post and each long accepted one in a few milliseconds", () => {
    const inputs = [
      ...Object.values(HOSTILE),
      "<!---->".repeat(7_000),
      "</b>".repeat(12_000),
      "&amp;".repeat(10_000),
      "<".repeat(50_000),
      `<p ${Array.from({ length: 5_000 }, (_, i) => `a${i}=1`).join(" ")}>`,
      `<table>${"<td>".repeat(12_000)}`,
      `<table><b>${"x</b>".repeat(9_000)}`,
      `${"<b><i><u><s><em>".repeat(10)}${"<p>x</p>".repeat(6_000)}`,
      `<script>${"<b>".repeat(16_000)}`,
      `<svg>${"<g>".repeat(16_000)}`,
    ];
    for (const html of inputs) measurePostHtml(html); // warm-up
    for (const html of inputs) {
      const cpu = process.cpuUsage();
      measurePostHtml(html);
      const used = process.cpuUsage(cpu);
      // 50,000 characters cost about 5-20 ms of CPU (docs/adr); a quadratic path would cost seconds.
      expect((used.user + used.system) / 1000, html.slice(0, 30)).toBeLessThan(100);
    }
  });
});

/** Elements and depth of the tree parse5 (jsdom's parser, scripting off as in DOMParser) builds, html/head/body left out. */
function treeShape(html: string): { elements: number; depth: number; links: number } {
  let elements = 0;
  let depth = 0;
  let links = 0;
  type Node = { nodeName: string; childNodes?: Node[]; content?: { childNodes: Node[] } };
  const skip = new Set(["html", "head", "body"]);
  const walk = (node: Node, d: number) => {
    const element = !node.nodeName.startsWith("#") && !skip.has(node.nodeName);
    const here = element ? d + 1 : d;
    if (element) {
      elements++;
      if (node.nodeName === "a" && (node as { namespaceURI?: string }).namespaceURI === "http://www.w3.org/1999/xhtml") links++;
      depth = Math.max(depth, here);
    }
    for (const child of node.content?.childNodes ?? node.childNodes ?? []) walk(child, here);
  };
  walk(parse(html, { scriptingEnabled: false }) as unknown as Node, 0);
  return { elements, depth, links };
}

describe("sanitizePostHtml beyond the bounds", () => {
  it("never runs DOMPurify on refused HTML and answers its visible text as one plain paragraph", () => {
    const before = sanitizerRunCount();
    expect(sanitizePostHtml(HOSTILE["<strong>xxxxxxxxx × 2,500"])).toBe(`<p>${"xxxxxxxxx".repeat(2_500)}</p>`);
    expect(sanitizePostHtml(HOSTILE["<div> × 6,000"])).toBe("");
    expect(sanitizePostHtml(`${"<b>".repeat(40)}<script>alert(1)</script>1 &lt; 2 <img src=x onerror=alert(1)>`)).toBe("<p>1 &lt; 2</p>");
    expect(sanitizerRunCount()).toBe(before);
    expect(sanitizePostHtml("<p>ok</p>")).toBe("<p>ok</p>");
    expect(sanitizerRunCount()).toBe(before + 1);
  });
});

describe("renderPostHtml", () => {
  it("sanitises a post once per edit, whatever its size, and never answers another text", () => {
    const long = `<p>${"б".repeat(49_000)}</p><iframe></iframe>`;
    const post = { id: 9_001, postText: long, timeChanged: null };
    const before = sanitizerRunCount();
    expect(renderPostHtml(post)).toBe(`<p>${"б".repeat(49_000)}</p>`);
    expect(renderPostHtml({ ...post })).toBe(`<p>${"б".repeat(49_000)}</p>`);
    expect(sanitizerRunCount()).toBe(before + 1);
    // An edit is a new entry; the same id and time with another text is sanitised afresh.
    expect(renderPostHtml({ ...post, postText: "<p>new</p>", timeChanged: "2026-11-25T10:00:00.000Z" })).toBe("<p>new</p>");
    expect(renderPostHtml({ ...post, postText: "<p>other<script>x</script></p>" })).toBe("<p>other</p>");
    expect(sanitizerRunCount()).toBe(before + 3);
    expect(renderCacheSize().entries).toBe(2);
  });
});

describe("visibleText", () => {
  it("reads 50,000 '<' as text in one pass", () => {
    expect(visibleText("<".repeat(50_000))).toBe("<".repeat(50_000));
    expect(visibleText("<script".repeat(7_000))).toBe("<script".repeat(7_000));
    expect(visibleText(`${"<b>".repeat(16_000)}x`)).toBe("x");
  });

  it("keeps its rules for ordinary HTML", () => {
    expect(visibleText("<p>a&nbsp;b</p><p>c &amp; d</p>")).toBe("a b c & d");
    expect(visibleText("<p>x<script>alert(1)</script>y</p><STYLE>p{}</style >z")).toBe("x y z");
    expect(visibleText("a<br>b<br/>c<BR />d</li>e</blockquote>f")).toBe("a b c d e f");
    expect(visibleText("1 < 2 and 3 > 2 <a href='x'>l</a>")).toBe("1 2 l");
    expect(visibleText("<p>&#x41;&#66;&#0;&foo;&LT;</p>x < y")).toBe("AB&foo;< x < y");
  });
});
