// Plain URLs in user text become links (issue 27, docs/adr/0131): comments and chat messages (plain
// text, rendered by React without dangerouslySetInnerHTML) and the text of posts (HTML, inside the one
// sanitiser, lib/validation/post-html.ts). One scanner for all three, linear in the length of the text:
// every character is looked at a bounded number of times (no regular expression with backtracking
// over a run — the old TRAILING /[.,;:!?)\]}»"']+$/ re-scanned a punctuation run from each of its
// characters, quadratic on "https://a" + "." × 100,000 + "x"). linkifyStepCount() counts the looks, so
// a test can hold the scanner to a multiple of the input length without timing it.

/** A URL longer than this stays text: no link to a 100 KB address. */
export const LINK_URL_MAX = 2048;

/** The rel of a link made from plain text in comments and messages (they open in a new tab). */
export const TEXT_LINK_REL = "nofollow ugc noopener noreferrer";

export type LinkPart = string | { href: string };

/** Characters that end a URL run: space of any kind, and what would close an attribute or a tag. */
const isStop = (c: number) =>
  c <= 0x20 || c === 0x3c /* < */ || c === 0x3e /* > */ || c === 0x22 /* " */ || c === 0x27 /* ' */ || c === 0x60 /* ` */ ||
  c === 0x7f || c === 0xa0 || c === 0x1680 || (c >= 0x2000 && c <= 0x200b) || c === 0x2028 || c === 0x2029 || c === 0x202f || c === 0x205f || c === 0x3000 || c === 0xfeff;

/** Punctuation that ends a sentence rather than a URL: "see https://x.ru." links https://x.ru. */
const TRAILING = new Set([".", ",", ";", ":", "!", "?", ")", "]", "}", "»", "”", "…"]);

const WORD = /[\p{L}\p{N}_]/u;

let steps = 0;

/** How many characters the scanner has looked at in this process (tests hold it to the input's length). */
export function linkifyStepCount(): number {
  return steps;
}

/**
 * The text split into plain runs and http(s) links, in order. A link starts with http:// or https://
 * (any case) not glued to a preceding letter or digit, runs to the next space or quote, loses trailing
 * sentence punctuation (a closing parenthesis stays when the URL opened one), needs a host, and is at
 * most LINK_URL_MAX characters; anything else (javascript:, data:, www. without a scheme) stays text.
 */
export function linkParts(text: string): LinkPart[] {
  const parts: LinkPart[] = [];
  const lower = text.toLowerCase();
  steps += text.length; // the lowercase copy
  let at = 0; // the first character not yet in parts
  let from = 0; // where the next search starts
  for (;;) {
    const idx = lower.indexOf("http", from);
    if (idx < 0) break;
    steps += idx - from + 1;
    const schemeEnd = lower.startsWith("https://", idx) ? idx + 8 : lower.startsWith("http://", idx) ? idx + 7 : -1;
    steps += 8;
    if (schemeEnd < 0 || (idx > 0 && WORD.test(text[idx - 1]))) {
      from = idx + 1;
      continue;
    }
    // The run: up to the next stop character.
    let end = schemeEnd;
    let open = 0;
    let close = 0;
    while (end < text.length) {
      const c = text.charCodeAt(end);
      steps++;
      if (isStop(c)) break;
      if (c === 0x28) open++;
      else if (c === 0x29) close++;
      end++;
    }
    from = end;
    if (end - idx > LINK_URL_MAX) continue; // over-long: stays text
    // Trailing punctuation, from the end backwards; ")" stays while the URL has more "(" than ")".
    let last = end;
    while (last > schemeEnd) {
      const ch = text[last - 1];
      steps++;
      if (!TRAILING.has(ch)) break;
      if (ch === ")" && open >= close) break;
      if (ch === ")") close--;
      last--;
    }
    if (last <= schemeEnd || text[schemeEnd] === "/") continue; // no host
    if (idx > at) parts.push(text.slice(at, idx));
    parts.push({ href: text.slice(idx, last) });
    at = last;
  }
  if (at < text.length) parts.push(text.slice(at));
  return parts;
}

/** Elements whose text is never linkified: links themselves, and code. */
const KEEP = new Set(["A", "CODE", "PRE"]);

/**
 * Replaces the URLs in the text nodes under `root` (a sanitised DOM fragment) by <a href rel> elements;
 * text inside links and code stays as it is. Each text node is scanned once (linkParts). Answers how
 * many links it made.
 */
export function linkifyDom(root: Node, rel: string): number {
  const doc = root.ownerDocument ?? (root as Document);
  const texts: Text[] = [];
  const stack: Node[] = [root];
  while (stack.length > 0) {
    const node = stack.pop()!;
    for (let child = node.firstChild; child; child = child.nextSibling) {
      if (child.nodeType === 3) texts.push(child as Text);
      else if (child.nodeType === 1 && !KEEP.has(child.nodeName.toUpperCase())) stack.push(child);
    }
  }
  let made = 0;
  for (const text of texts) {
    const value = text.data;
    if (!value.toLowerCase().includes("http")) continue;
    const parts = linkParts(value);
    if (parts.length === 1 && typeof parts[0] === "string") continue;
    const frag = doc.createDocumentFragment();
    for (const part of parts) {
      if (typeof part === "string") frag.appendChild(doc.createTextNode(part));
      else {
        const a = doc.createElement("a");
        a.setAttribute("href", part.href);
        a.setAttribute("rel", rel);
        a.appendChild(doc.createTextNode(part.href));
        frag.appendChild(a);
        made++;
      }
    }
    text.parentNode!.replaceChild(frag, text);
  }
  return made;
}
