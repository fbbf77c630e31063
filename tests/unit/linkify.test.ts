import { describe, expect, it } from "vitest";
import { LINK_URL_MAX, linkParts, linkifyStepCount } from "@/lib/validation/linkify";
import { sanitizePostHtml } from "@/lib/validation/post-html";

// Issue 27 (ADR 0131): plain URLs become links in posts, comments and messages; the scanner is linear.

const hrefs = (text: string) => linkParts(text).flatMap((p) => (typeof p === "string" ? [] : [p.href]));

/** The scanner's looks at characters for `text`: the step counter before and after. */
function stepsFor(text: string): number {
  const before = linkifyStepCount();
  linkParts(text);
  return linkifyStepCount() - before;
}

describe("linkParts", () => {
  it("finds http(s) URLs, leaving sentence punctuation and balanced parentheses right", () => {
    // (The comment-text test covers a Russian sentence with two links and a closing parenthesis.)
    expect(linkParts("Read https://krug.example/a#b, then?")).toEqual(["Read ", { href: "https://krug.example/a#b" }, ", then?"]);
    expect(hrefs("https://en.wikipedia.org/wiki/Mir_(station), read it")).toEqual(["https://en.wikipedia.org/wiki/Mir_(station)"]);
    expect(hrefs("«https://krug.example/post/1»")).toEqual(["https://krug.example/post/1"]);
    expect(hrefs("HTTPS://EXAMPLE.COM/X")).toEqual(["HTTPS://EXAMPLE.COM/X"]);
    expect(hrefs("a https://a.b\nb http://c.d\tc")).toEqual(["https://a.b", "http://c.d"]);
    expect(linkParts("")).toEqual([]);
    expect(linkParts("no links here")).toEqual(["no links here"]);
  });

  it("never links other schemes, glued or hostless URLs, or over-long ones", () => {
    for (const text of [
      "javascript:alert(1)",
      "JaVaScRiPt:alert(1) data:text/html;base64,PHNjcmlwdD4= vbscript:x file:///etc/passwd ftp://host",
      "xhttp://glued.example",
      "http:// https:/// http://",
      "www.example.com",
      "https://" + "a".repeat(LINK_URL_MAX),
    ]) {
      expect(hrefs(text), text).toEqual([]);
    }
    // A quote or angle bracket ends the URL: no attribute or tag can be smuggled into the href.
    expect(hrefs('https://x.y/"onmouseover="alert(1)')).toEqual(["https://x.y/"]);
    expect(hrefs("https://x.y/<script>alert(1)</script>")).toEqual(["https://x.y/"]);
    expect(hrefs("https://" + "a".repeat(LINK_URL_MAX - 8))).toHaveLength(1);
  });

  it("stays linear on 100 KB of hostile input (counts the characters it looks at; no timing)", () => {
    const n = 100_000;
    const hostile = [
      "https://a" + ".".repeat(n) + "x", // a punctuation run inside a URL (quadratic for /[.]+$/)
      "https://a" + ")".repeat(n) + "x",
      "https://a" + "(".repeat(n / 2) + ")".repeat(n / 2),
      "http://".repeat(n / 7), // every position starts a candidate
      "http:/".repeat(n / 6), // near misses
      "xhttp://a ".repeat(n / 10),
      "https://a.b ".repeat(n / 12), // very many links
      "h".repeat(n),
      "http" + "s".repeat(n),
      "\u2028https://a.b".repeat(n / 12),
      "https://" + "a".repeat(n), // over-long
    ];
    for (const text of hostile) {
      expect(text.length).toBeGreaterThan(n * 0.9);
      const steps = stepsFor(text);
      // Every character is looked at a bounded number of times: the lowercase copy, the search, the run
      // and the trailing punctuation; a quadratic scanner would take ~10^10 steps here.
      expect(steps, text.slice(0, 20)).toBeLessThanOrEqual(6 * text.length);
    }
  });
});

describe("post HTML: links from plain URLs in the one sanitiser", () => {
  it("links URLs in text with the post rel, not inside links or code, and is stable on render", () => {
    const stored = sanitizePostHtml(
      '<p>Смотри https://example.com/a. и <a href="https://x.y">https://inner.example</a></p><pre><code>https://code.example</code></pre>',
    );
    expect(stored).toBe(
      '<p>Смотри <a href="https://example.com/a" rel="nofollow noopener ugc">https://example.com/a</a>. и <a href="https://x.y" rel="nofollow noopener ugc">https://inner.example</a></p><pre><code>https://code.example</code></pre>',
    );
    // Rendering runs the sanitiser again: the same HTML, no nested links.
    expect(sanitizePostHtml(stored)).toBe(stored);
  });

  it("never turns hostile text into markup", () => {
    const out = sanitizePostHtml("<p>https://x.y/&lt;img src=x onerror=alert(1)&gt; javascript:alert(1) data:text/html,x</p>");
    expect(out).toBe('<p><a href="https://x.y/" rel="nofollow noopener ugc">https://x.y/</a>&lt;img src=x onerror=alert(1)&gt; javascript:alert(1) data:text/html,x</p>');
    expect(out).not.toMatch(/<img|href="(javascript|data):/i);
  });

  it("keeps a text with more URLs than the bounds allow as written (no plain-paragraph fallback)", () => {
    const many = `<p>${Array.from({ length: 150 }, (_, i) => `https://e.example/${i}`).join(" ")}</p>`;
    expect(sanitizePostHtml(many)).toBe(many);
    const some = sanitizePostHtml(`<p>${Array.from({ length: 20 }, (_, i) => `https://e.example/${i}`).join(" ")}</p>`);
    expect(some.match(/<a /g)).toHaveLength(20);
  });

  it("handles 100 KB of hostile URL text in linear steps", () => {
    const before = linkifyStepCount();
    const text = "https://a" + ".".repeat(100_000) + "x";
    sanitizePostHtml(`<p>${text}</p>`);
    expect(linkifyStepCount() - before).toBeLessThanOrEqual(6 * text.length);
  });
});
