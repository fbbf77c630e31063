// The pre-check of post HTML (issue 24 item 1, docs/adr/0107; issue 40 item 10, docs/adr/0162): how many
// elements and how deep a nesting the HTML parser builds, measured with the parser itself (parse5, the one
// jsdom and so DOMPurify use), so that markup too large for the sanitiser (DOMPurify on jsdom costs about
// 20-40 µs per element and grows with the depth) is refused before the sanitiser sees it. The parse stops
// at the first element past a bound: every structure of the parser then holds at most a few hundred
// entries, and its cost stays linear in the length of the text. Server only in practice (the services'
// schemas and the sanitiser); the browser imports only types and constants of post HTML.
import { defaultTreeAdapter, parse, type DefaultTreeAdapterMap, type TreeAdapter } from "parse5";

/** The only elements post HTML may hold (the sanitiser's allowlist, lib/validation/post-html.ts). */
export const POST_HTML_TAGS = ["p", "br", "strong", "em", "u", "s", "a", "ul", "ol", "li", "blockquote", "code", "pre", "h2", "h3"] as const;

/**
 * At most this many elements (as the HTML parser builds them) in one post's HTML, a link counting as
 * LINK_WEIGHT of them: DOMPurify on jsdom spends about 37 µs of CPU on an element and 95 µs on a link
 * (docs/adr/0107 has the measurements).
 */
export const POST_HTML_MAX_ELEMENTS = 300;
export const LINK_WEIGHT = 3;
/** At most this deep a nesting of elements. */
export const POST_HTML_MAX_DEPTH = 32;
/**
 * At most this many elements outside the allowlist: the sanitiser takes each one out and puts its content
 * in its place, and jsdom pays for that with the number of its siblings (1,500 <span> siblings cost
 * about 0.4 s, quadratic), so these get a bound of their own.
 */
export const POST_HTML_MAX_REMOVED = 32;

export type PostHtmlLimits = { elements: number; depth: number; removed: number };
export const POST_HTML_LIMITS: PostHtmlLimits = { elements: POST_HTML_MAX_ELEMENTS, depth: POST_HTML_MAX_DEPTH, removed: POST_HTML_MAX_REMOVED };

/**
 * Elements the sanitiser drops with their content (DOMPurify's FORBID_CONTENTS, lib/validation/post-html.ts):
 * one removal each, whatever they hold.
 */
export const POST_HTML_DROPPED_WITH_CONTENT = ["script", "style", "template", "noscript", "iframe", "object", "embed", "svg", "math", "textarea", "select", "title", "xmp", "noembed", "noframes", "plaintext"];

export type PostHtmlShape = { elements: number; depth: number; removed: number; ok: boolean };

const ALLOWED: ReadonlySet<string> = new Set(POST_HTML_TAGS);

const HTML_NS = "http://www.w3.org/1999/xhtml";
/** The document's own elements: the parser makes each once, whatever the text (they are not the post's). */
const DOCUMENT = new Set(["html", "head", "body"]);

type Node = DefaultTreeAdapterMap["node"];

/** Thrown from the tree adapter at the first element past a bound: the parse goes no further. */
class PastBound extends Error {}

const DROPPED: ReadonlySet<string> = new Set(POST_HTML_DROPPED_WITH_CONTENT);

/**
 * The shape of the tree the HTML parser builds from `html` (parse5 with scripting off, as DOMParser and so
 * DOMPurify parse): `elements` counts every element it creates — tags, the `<p>` a lone `</p>` makes, the
 * formatting elements it re-opens and clones, the table parts it implies, foreign (svg, math) ones — a
 * link counting LINK_WEIGHT; `depth` is the deepest nesting of elements; `removed` counts the elements the
 * sanitiser takes out (outside the allowlist; inside one dropped with its content, none more). html, head
 * and body are left out. `ok` is false when a bound is passed. The parse stops at the first element past
 * the element bound, so the tree measured afterwards holds at most that many elements.
 */
export function measurePostHtml(html: string, limits: PostHtmlLimits = POST_HTML_LIMITS): PostHtmlShape {
  let elements = 0;
  let document: Node | null = null;
  const adapter: TreeAdapter<DefaultTreeAdapterMap> = {
    ...defaultTreeAdapter,
    createDocument() {
      const made = defaultTreeAdapter.createDocument();
      document = made;
      return made;
    },
    createElement(tagName, namespaceURI, attrs) {
      if (!(namespaceURI === HTML_NS && DOCUMENT.has(tagName))) {
        elements += namespaceURI === HTML_NS && tagName === "a" ? LINK_WEIGHT : 1;
        if (elements > limits.elements) throw new PastBound();
      }
      return defaultTreeAdapter.createElement(tagName, namespaceURI, attrs);
    },
  };
  let stopped = false;
  try {
    parse(html, { treeAdapter: adapter, scriptingEnabled: false });
  } catch (err) {
    if (!(err instanceof PastBound)) throw err;
    stopped = true;
  }
  const { depth, removed } = document ? treeOf(document) : { depth: 0, removed: 0 };
  return { elements, depth, removed, ok: !stopped && depth <= limits.depth && removed <= limits.removed };
}

/** The deepest nesting of elements under `root` and the elements the sanitiser removes (a template's content counts inside its template). */
function treeOf(root: Node): { depth: number; removed: number } {
  let depth = 0;
  let removed = 0;
  const stack: { node: Node; above: number; dropped: boolean }[] = [{ node: root, above: 0, dropped: false }];
  while (stack.length > 0) {
    const { node, above, dropped } = stack.pop()!;
    let here = above;
    let inDropped = dropped;
    let children: Node[] = "childNodes" in node ? node.childNodes : [];
    if (defaultTreeAdapter.isElementNode(node)) {
      const isHtml = node.namespaceURI === HTML_NS;
      if (!(isHtml && DOCUMENT.has(node.tagName))) {
        here++;
        if (!dropped && !(isHtml && ALLOWED.has(node.tagName))) removed++;
        inDropped ||= !isHtml || DROPPED.has(node.tagName);
      }
      if (isHtml && node.tagName === "template") children = defaultTreeAdapter.getTemplateContent(node as DefaultTreeAdapterMap["template"]).childNodes;
    }
    depth = Math.max(depth, here);
    for (const child of children) stack.push({ node: child, above: here, dropped: inDropped });
  }
  return { depth, removed };
}

/** True when the HTML is within the bounds (what the sanitiser may be given). */
export function postHtmlWithinBounds(html: string): boolean {
  return measurePostHtml(html).ok;
}
