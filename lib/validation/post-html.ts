import DOMPurify from "isomorphic-dompurify";

// The one sanitiser of post HTML (issue 9): the services run it on write, the UI runs it again when
// rendering postText (server components and the browser alike — isomorphic-dompurify uses jsdom on
// the server and the browser's DOM in the browser).

/** The only elements post HTML may hold. */
export const POST_HTML_TAGS = ["p", "br", "strong", "em", "u", "s", "a", "ul", "ol", "li", "blockquote", "code", "pre", "h2", "h3"] as const;

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
  FORBID_CONTENTS: ["script", "style", "template", "noscript", "iframe", "object", "embed", "svg", "math", "textarea", "select", "title", "xmp", "noembed", "noframes", "plaintext"],
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
 * rel="nofollow noopener ugc". Anything else is removed (the text of unknown elements is kept).
 *
 * The result is a function of the input string alone, so it is remembered per input (a bounded memo,
 * most recently used kept): a feed rendered for many people sanitises each post once per process, not
 * once per card per render (on the server DOMPurify runs on jsdom, about 4 ms per post).
 */
export function sanitizePostHtml(html: string): string {
  const known = memo.get(html);
  if (known !== undefined) {
    memo.delete(html);
    memo.set(html, known);
    return known;
  }
  const clean = sanitizeNow(html);
  remember(html, clean);
  return clean;
}

function sanitizeNow(html: string): string {
  DOMPurify.addHook("afterSanitizeAttributes", fixLink);
  try {
    // `rel` is written by the hook after the attribute filter ran, so it survives.
    return DOMPurify.sanitize(html, CONFIG).trim();
  } finally {
    DOMPurify.removeHook("afterSanitizeAttributes");
  }
}

/** At most this many characters (inputs and results together) are remembered: a few megabytes. */
export const SANITIZE_MEMO_CHARS = 2_000_000;
const memo = new Map<string, string>();
let memoChars = 0;

function remember(html: string, clean: string): void {
  const size = html.length + clean.length;
  if (size > SANITIZE_MEMO_CHARS / 20) return; // a huge text would push out many ordinary ones
  memo.set(html, clean);
  memoChars += size;
  for (const [oldest, result] of memo) {
    if (memoChars <= SANITIZE_MEMO_CHARS) break;
    memo.delete(oldest);
    memoChars -= oldest.length + result.length;
  }
}

/** How much the memo holds (tests). */
export function sanitizeMemoSize(): { entries: number; chars: number } {
  return { entries: memo.size, chars: memoChars };
}
