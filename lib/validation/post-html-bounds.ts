// The linear pre-check of post HTML (issue 24 item 1, docs/adr/0107): how many elements and how deep a
// nesting the HTML parser would build, estimated from above in one pass over the text, so that markup
// too large for the sanitiser (DOMPurify on jsdom costs about 20-40 µs per element and grows with the
// depth) is refused before the sanitiser sees it. No imports: the composer and the post card use it too.

/** The only elements post HTML may hold (the sanitiser's allowlist, lib/validation/post-html.ts). */
export const POST_HTML_TAGS = ["p", "br", "strong", "em", "u", "s", "a", "ul", "ol", "li", "blockquote", "code", "pre", "h2", "h3"] as const;

/**
 * At most this many elements (the parser's, estimated from above) in one post's HTML, a link counting as
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

export type PostHtmlShape = { elements: number; depth: number; removed: number; ok: boolean };

const ALLOWED: ReadonlySet<string> = new Set(POST_HTML_TAGS);

const set = (names: string) => new Set(names.split(" "));

/** Elements without content: they never stay open. */
const VOID = set("area base basefont bgsound br col embed frame hr image img input keygen link meta param source track wbr");
/** The formatting elements: the parser re-opens them ("reconstructs") after a block closed them. */
const FORMATTING = set("a b big code em font i nobr s small strike strong tt u");
/** The "special" elements of the HTML parser: an end tag of an ordinary element never closes past one. */
const SPECIAL = set(
  "address applet area article aside base basefont bgsound blockquote body br button caption center col colgroup dd details dialog dir div dl dt embed fieldset figcaption figure footer form frame frameset h1 h2 h3 h4 h5 h6 head header hgroup hr html iframe img input keygen li link listing main marquee menu meta nav noembed noframes object ol p param plaintext pre script search section select source style summary table tbody td template textarea tfoot th thead title tr track ul wbr xmp",
);
/** Elements an end tag never reaches past: the parser's default scope (all of them switch the model off but html) … */
const SCOPE = set("applet caption html table td th marquee object template");
/** … and its list item and button scopes (for </li> and for the <p> that a block closes). */
const LIST_SCOPE = set("applet caption html table td th marquee object template ol ul");
const BUTTON_SCOPE = set("applet caption html table td th marquee object template button");
/** Start tags that first close an open <p>. */
const CLOSES_P = set(
  "address article aside blockquote center details dialog dir div dl fieldset figcaption figure footer form header hgroup hr listing main menu nav ol p plaintext pre search section summary ul xmp h1 h2 h3 h4 h5 h6 li dd dt",
);
/** Elements whose content is text up to their own end tag. */
const RAW_TEXT = set("style xmp iframe noembed noframes textarea title");
/**
 * Elements whose tree-building rules the model does not follow (tables, forms, templates…): after one, an
 * end tag closes only the element on top of the stack, which never closes more than the parser does.
 */
const UNMODELLED = set("template table caption colgroup col tbody thead tfoot tr td th form noscript marquee object applet frameset");
/**
 * Elements after which not even the tokenizer is followed (foreign content, script data, select mode):
 * every "<name" counts as an open element and nothing is closed.
 */
const BLIND = set("svg math script select");
/** Table parts the parser may wrap in the ones it implies (tbody, tr, colgroup). */
const TABLE_PARTS = set("col td th tr");
const HEADINGS = set("h1 h2 h3 h4 h5 h6");

/** Adoption agency: at most 8 outer rounds of a new element and 3 clones each. */
const ADOPTION_ELEMENTS = 32;

type Entry = { name: string; dangling: boolean };

const isLetter = (c: number) => (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
const isSpace = (c: number) => c === 32 || c === 9 || c === 10 || c === 12 || c === 13;

/**
 * The shape of `html` as the HTML parser would build it, bounded from above: `elements` counts every
 * element it may create (tags, a `</p>` without a `<p>`, the formatting elements it re-opens after a
 * block closed them, the clones of misnested formatting), and `depth` the deepest its stack of open
 * elements may get. One pass; every tag costs at most O(POST_HTML_MAX_DEPTH) work on a stack that the
 * scan stops growing at the limit, so the whole is linear in the length. `ok` is false as soon as either
 * bound is passed (the scan stops there).
 *
 * The model follows the tree-building rules that can make the parser's tree larger than the tags
 * (WHATWG HTML 13.2.6): end tags close only within their scope and never past a "special" element,
 * `<p>`/`<li>`/`<dd>`/`<dt>`/`<button>` and the like close their open namesake first, formatting
 * elements closed by a block stay "dangling" and count again at every later text or tag, comments and
 * raw-text elements hide their content, and quoted attribute values hide their `<` and `>`. Where it
 * does not follow the tree-building rules (after a table part, <form>, <template> and the like) an end tag
 * closes only the element on top; where it does not even follow the tokenizer (after <svg>, <math>,
 * <script> or <select>) it closes nothing and counts every "<name" as open. Both only over-estimate.
 */
export function measurePostHtml(html: string, limits: PostHtmlLimits = POST_HTML_LIMITS): PostHtmlShape {
  const n = html.length;
  const stack: Entry[] = [];
  let elements = 0;
  let depth = 0;
  let removed = 0; // elements outside the allowlist (re-opened and adopted ones counted among them)
  let dangling = 0; // formatting entries the parser closed but will re-open
  let formattingOpen = 0; // formatting entries in the stack (dangling or not)
  let unmodelled = false;
  let blind = false;
  let i = 0;

  const over = () => elements > limits.elements || depth > limits.depth || removed > limits.removed;
  const shape = (ok: boolean): PostHtmlShape => ({ elements, depth, removed, ok });

  /** Text or a start tag: the parser re-opens the formatting elements it closed early. */
  const reconstruct = () => {
    const count = unmodelled ? formattingOpen : dangling;
    elements += count;
    removed += count;
  };
  const push = (name: string) => {
    stack.push({ name, dangling: false });
    if (FORMATTING.has(name)) formattingOpen++;
    depth = Math.max(depth, stack.length + (unmodelled ? formattingOpen : 0));
  };
  /** Closes stack[at] and everything above it; formatting elements above stay, dangling. */
  const closeFrom = (at: number) => {
    const removed = stack.splice(at);
    const target = removed[0];
    if (FORMATTING.has(target.name)) {
      formattingOpen--;
      if (target.dangling) dangling--;
    }
    for (const e of removed.slice(1)) {
      if (!FORMATTING.has(e.name)) continue;
      if (!e.dangling) dangling++;
      stack.push({ name: e.name, dangling: true });
    }
  };
  /** The index of the open (not dangling) `name` nearest the top, not past a scope boundary (or a special element when `special`). */
  const findOpen = (match: (name: string) => boolean, stopAtSpecial: boolean, scope = SCOPE): number => {
    for (let k = stack.length - 1; k >= 0; k--) {
      const e = stack[k];
      if (e.dangling) continue;
      if (match(e.name)) return k;
      if (scope.has(e.name) || (stopAtSpecial && SPECIAL.has(e.name))) return -1;
    }
    return -1;
  };

  const startTag = (name: string) => {
    elements += name === "a" ? LINK_WEIGHT : 1;
    if (!ALLOWED.has(name)) removed++;
    if (BLIND.has(name)) blind = true;
    if (blind || UNMODELLED.has(name)) unmodelled = true;
    if (unmodelled) {
      reconstruct();
      if (name === "a" || name === "nobr") adoption();
      if (TABLE_PARTS.has(name)) {
        elements += 2;
        removed += 2;
        push("tbody");
        push("tr");
      }
      if (!VOID.has(name)) push(name);
      else depth = Math.max(depth, stack.length + 1 + formattingOpen);
      return;
    }
    if (CLOSES_P.has(name)) {
      const p = findOpen((x) => x === "p", false, BUTTON_SCOPE);
      if (p >= 0) closeFrom(p);
    }
    if (name === "li" || name === "dd" || name === "dt") {
      const same = name === "li" ? (x: string) => x === "li" : (x: string) => x === "dd" || x === "dt";
      for (let k = stack.length - 1; k >= 0; k--) {
        const e = stack[k];
        if (e.dangling) continue;
        if (same(e.name)) {
          closeFrom(k);
          break;
        }
        if (SPECIAL.has(e.name) && e.name !== "address" && e.name !== "div" && e.name !== "p") break;
      }
    } else if (name === "button") {
      const b = findOpen((x) => x === "button", false);
      if (b >= 0) closeFrom(b);
    } else if (name === "a" || name === "nobr") {
      endFormatting(name);
    }
    reconstruct();
    if (!VOID.has(name)) push(name);
    else depth = Math.max(depth, stack.length + 1);
  };

  /** The adoption agency rearranges misnested formatting: new elements, one more level, nothing closed. */
  function adoption() {
    elements += ADOPTION_ELEMENTS;
    removed += ADOPTION_ELEMENTS;
    push("adoption");
  }

  function endFormatting(name: string) {
    let k = stack.length - 1;
    for (; k >= 0; k--) {
      const e = stack[k];
      if (e.name === name) break;
      if (!e.dangling && SCOPE.has(e.name)) return adoption(); // not in scope: ignored, counted all the same
    }
    if (k < 0) return;
    if (stack[k].dangling) {
      stack.splice(k, 1);
      dangling--;
      formattingOpen--;
      return;
    }
    const furthestBlock = stack.slice(k + 1).some((e) => !e.dangling && SPECIAL.has(e.name));
    if (furthestBlock) {
      adoption();
      return;
    }
    closeFrom(k);
  }

  const endTag = (name: string) => {
    if (name === "br") {
      startTag("br"); // read as <br>
      return;
    }
    if (unmodelled && !blind) {
      const top = stack[stack.length - 1];
      if (top?.name === name) {
        stack.pop();
        if (FORMATTING.has(name)) formattingOpen--;
        if (top.dangling) dangling--;
        return;
      }
    }
    if (unmodelled) {
      // Nothing else is closed; what an end tag may still create is counted.
      if (name === "p") {
        elements++;
        depth = Math.max(depth, stack.length + 1 + formattingOpen);
      } else if (FORMATTING.has(name)) adoption();
      return;
    }
    if (FORMATTING.has(name)) {
      endFormatting(name);
      return;
    }
    const special = SPECIAL.has(name);
    const match = HEADINGS.has(name) ? (x: string) => HEADINGS.has(x) : (x: string) => x === name;
    const at = findOpen(match, !special, name === "li" ? LIST_SCOPE : name === "p" ? BUTTON_SCOPE : SCOPE);
    if (at >= 0) closeFrom(at);
    else if (name === "p") {
      elements++; // the parser inserts an empty <p>
      depth = Math.max(depth, stack.length + 1);
    }
  };

  /**
   * The index just after the `>` that ends a tag whose name ends at `from` (-1 when the text ends first),
   * following the tokenizer's attribute states: only a quoted value (after a name and "=") hides a `>`.
   */
  const tagEnd = (from: number): number => {
    let k = from;
    let state: "before" | "name" | "after" | "value" | "unquoted" = "before";
    while (k < n) {
      const c = html.charCodeAt(k);
      if (state === "value") {
        if (isSpace(c)) k++;
        else if (c === 34 || c === 39) {
          const close = html.indexOf(c === 34 ? '"' : "'", k + 1);
          if (close < 0) return -1;
          k = close + 1;
          state = "before";
        } else if (c === 62) return k + 1;
        else state = "unquoted";
        continue;
      }
      if (c === 62) return k + 1;
      if (state === "before") {
        state = isSpace(c) || c === 47 ? "before" : "name"; // even "=" starts a name here
      } else if (state === "name" || state === "after") {
        if (c === 61) state = "value";
        else if (c === 47) state = "before";
        else if (isSpace(c)) state = "after";
        else state = "name";
      } else if (isSpace(c)) state = "before"; // unquoted value
      k++;
    }
    return -1;
  };

  const readName = (from: number): [string, number] => {
    let k = from;
    while (k < n) {
      const c = html.charCodeAt(k);
      if (isSpace(c) || c === 47 || c === 62) break;
      k++;
    }
    return [html.slice(from, k).toLowerCase(), k];
  };

  /** The index just past the end tag of raw-text element `name` (or the end of the text). */
  const rawTextEnd = (name: string, from: number): number => {
    let k = from;
    for (;;) {
      const at = html.indexOf("</", k);
      if (at < 0) return n;
      const after = at + 2 + name.length;
      if (html.slice(at + 2, after).toLowerCase() === name && (after >= n || isSpace(html.charCodeAt(after)) || html[after] === "/" || html[after] === ">")) {
        return at;
      }
      k = at + 2;
    }
  };

  while (i < n) {
    const lt = html.indexOf("<", i);
    if (lt < 0) {
      reconstruct();
      break;
    }
    if (lt > i) reconstruct();
    i = lt;
    const c = html.charCodeAt(i + 1);
    if (blind) {
      // Every "<name" opens an element and every "</name" may create one: comments, quotes and raw
      // text are not trusted to hide anything here.
      const end = c === 47 && isLetter(html.charCodeAt(i + 2));
      if (isLetter(c) || end) {
        const [name, afterName] = readName(i + (end ? 2 : 1));
        i = afterName;
        if (end) endTag(name);
        else startTag(name);
        if (over()) return shape(false);
      } else {
        reconstruct();
        i++;
      }
      continue;
    }
    if (isLetter(c)) {
      const [name, afterName] = readName(i + 1);
      const end = tagEnd(afterName);
      if (end < 0) break; // a tag cut off by the end of the text is dropped
      i = end;
      startTag(name);
      if (over()) return shape(false);
      if (!blind && name === "plaintext") break; // everything after it is text
      if (!blind && RAW_TEXT.has(name)) {
        const close = rawTextEnd(name, i);
        if (close > i) reconstruct();
        i = close;
      }
    } else if (c === 47 /* / */) {
      if (isLetter(html.charCodeAt(i + 2))) {
        const [name, afterName] = readName(i + 2);
        const end = tagEnd(afterName);
        if (end < 0) break;
        i = end;
        endTag(name);
        if (over()) return shape(false);
      } else if (i + 2 >= n) {
        reconstruct();
        break;
      } else {
        const close = html.indexOf(">", i + 2); // </> is dropped; </ and anything else is a bogus comment
        if (close < 0) break;
        i = close + 1;
      }
    } else if (c === 33 /* ! */ || c === 63 /* ? */) {
      if (html.startsWith("<!--", i)) {
        if (html.startsWith(">", i + 4)) i += 5;
        else if (html.startsWith("->", i + 4)) i += 6;
        else {
          const a = html.indexOf("-->", i + 4);
          const b = html.indexOf("--!>", i + 4);
          if (a < 0 && b < 0) break;
          i = a < 0 ? b + 4 : b < 0 || a < b ? a + 3 : b + 4;
        }
      } else {
        const close = html.indexOf(">", i + 2); // a doctype, <!…> or <?…> ends at the first >
        if (close < 0) break;
        i = close + 1;
      }
    } else {
      // A "<" that opens nothing is text.
      reconstruct();
      i++;
    }
  }
  return shape(!over());
}

/** True when the HTML is within both bounds (what the sanitiser may be given). */
export function postHtmlWithinBounds(html: string): boolean {
  return measurePostHtml(html).ok;
}
