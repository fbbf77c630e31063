import DOMPurify from "isomorphic-dompurify";
import { linkifyDom } from "./linkify";
import { POST_HTML_DROPPED_WITH_CONTENT, POST_HTML_TAGS, postHtmlWithinBounds } from "./post-html-bounds";
import { visibleText } from "./post-shared";

// The one sanitiser of post HTML (issue 9): the services run it on write, the UI runs it again when
// rendering postText (server components and the browser alike — isomorphic-dompurify uses jsdom on
// the server and the browser's DOM in the browser), through renderPostHtml's cache per post and edit.

export { POST_HTML_TAGS };

/** Every link gets this rel: no referrer juice for spam, no window.opener, marked as user content. */
export const POST_LINK_REL = "nofollow noopener ugc";

const SAFE_HREF = /^(?:https?:\/\/|mailto:)/i;

const CONFIG = {
  ALLOWED_TAGS: [...POST_HTML_TAGS],
  ALLOWED_ATTR: ["href"],
  ALLOWED_URI_REGEXP: SAFE_HREF,
  ALLOW_DATA_ATTR: false,
  ALLOW_ARIA_ATTR: false,
  ALLOW_UNKNOWN_PROTOCOLS: false,
  KEEP_CONTENT: true,
  // Script, style and the like are dropped with their content, not unwrapped into text.
  FORBID_CONTENTS: POST_HTML_DROPPED_WITH_CONTENT,
};

function fixLink(node: Element) {
  if (node.nodeName !== "A") return;
  const href = node.getAttribute("href");
  if (href !== null && !SAFE_HREF.test(href.trim())) node.removeAttribute("href");
  node.setAttribute("rel", POST_LINK_REL);
}

/**
 * Post HTML reduced to the allowlist: p, br, strong, em, u, s, a, ul, ol, li, blockquote, code, pre,
 * h2, h3; no attributes but href on links (http, https and mailto only), and every link carries
 * rel="nofollow noopener ugc". Anything else is removed (the text of unknown elements is kept). Plain
 * http(s) URLs in the text (not in links or code) become such links too (lib/validation/linkify.ts).
 *
 * HTML beyond the bounds of the pre-check (lib/validation/post-html-bounds.ts: more elements or a
 * deeper nesting than a post needs, which would cost DOMPurify far more than 100 ms) never reaches
 * DOMPurify: it comes back as its visible text in one plain paragraph. The services refuse such HTML
 * before it is stored (postErrors.textTooComplex), so only a row written before the bound gets there.
 */
export function sanitizePostHtml(html: string): string {
  if (!postHtmlWithinBounds(html)) return plainParagraph(html);
  sanitizerRuns++;
  const clean = withLinkHook(() => DOMPurify.sanitize(html, { ...CONFIG, RETURN_DOM_FRAGMENT: true }));
  // Plain URLs in the text become links (issue 27, ADR 0131), outside links and code. Links weigh on the
  // bounds above: HTML that would leave them is sanitised again without the new links (a rare second
  // run), so a post with very many URLs renders as written rather than as one plain paragraph.
  const made = linkifyDom(clean, POST_LINK_REL);
  const linked = serialize(clean);
  if (made === 0 || postHtmlWithinBounds(linked)) return linked;
  sanitizerRuns++;
  return withLinkHook(() => DOMPurify.sanitize(html, CONFIG).trim());
}

/** Runs the sanitiser with fixLink: `rel` is written by the hook after the attribute filter ran, so it survives. */
function withLinkHook<T>(run: () => T): T {
  DOMPurify.addHook("afterSanitizeAttributes", fixLink);
  try {
    return run();
  } finally {
    DOMPurify.removeHook("afterSanitizeAttributes");
  }
}

function serialize(fragment: DocumentFragment): string {
  const box = fragment.ownerDocument.createElement("div");
  box.appendChild(fragment);
  return box.innerHTML.trim();
}

const ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" };

/** The visible text of `html` as one paragraph of escaped text (nothing in it is markup). */
function plainParagraph(html: string): string {
  const text = visibleText(html).replace(/[&<>"]/g, (c) => ESCAPES[c]);
  return text ? `<p>${text}</p>` : "";
}

let sanitizerRuns = 0;

/** How many times DOMPurify has run in this process (tests). */
export function sanitizerRunCount(): number {
  return sanitizerRuns;
}

/** The fields of a post its rendering depends on. */
export type RenderablePost = { id: number; postText: string; timeChanged: string | null };

/** At most this many characters (stored texts and results together) are remembered: about 16 MB. */
export const RENDER_CACHE_CHARS = 8_000_000;
const rendered = new Map<string, { text: string; html: string }>();
let renderedChars = 0;

/**
 * The HTML of a post to render: its stored (already sanitised) text passed through sanitizePostHtml
 * again, remembered per post and edit (id and timeChanged; docs/adr/0107), so a feed rendered for many
 * people runs the sanitiser once per post per process, whatever the size of the text. The stored text is
 * compared as well: a post id seen with another text (a database reset under a running server) is
 * sanitised afresh, never answered from another text.
 */
export function renderPostHtml(post: RenderablePost): string {
  const key = `${post.id}@${post.timeChanged ?? ""}`;
  const known = rendered.get(key);
  if (known && known.text === post.postText) {
    rendered.delete(key);
    rendered.set(key, known);
    return known.html;
  }
  if (known) forget(key, known);
  const html = sanitizePostHtml(post.postText);
  const entry = { text: post.postText, html };
  rendered.set(key, entry);
  renderedChars += entry.text.length + entry.html.length;
  for (const [oldKey, old] of rendered) {
    if (renderedChars <= RENDER_CACHE_CHARS) break;
    forget(oldKey, old);
  }
  return html;
}

function forget(key: string, entry: { text: string; html: string }) {
  rendered.delete(key);
  renderedChars -= entry.text.length + entry.html.length;
}

/** How much the render cache holds (tests). */
export function renderCacheSize(): { entries: number; chars: number } {
  return { entries: rendered.size, chars: renderedChars };
}
