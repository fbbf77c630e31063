// What a page sends to the browser (issue 8 item 3, docs/adr/0092) and how fast it shows (issue 25 section 3).
// `--only=pages` weighs the HTML of /login, the feed, /profile and a dialog (markup, the inline React Server
// Components payload and the messages in it), their stylesheets and fonts, and the first-load JavaScript
// (every script the HTML loads, each gzipped); then every page route of the app, found in app/**/page.tsx
// (so a new route appears by itself), with its first-load JS, dynamic segments filled with the bench's
// ids (ROUTE_PARAMS), signed out, as the bench person or as the bench administrator; a route that cannot
// be weighed says why. `--only=lighthouse` runs Lighthouse (mobile preset: simulated throttling) on the
// system Chromium on the four pages, signed in through cookies, BENCH_LIGHTHOUSE_RUNS times each (default
// 3), and prints the medians (performance, accessibility, TBT, LCP, FCP, CLS, SI), the raw performance
// scores and the host's benchmark index, with the median run's diagnostics. With a baseline
// (`--baseline=<rev>` or BENCH_BASELINE_DIR, bench/baseline.ts) both apps run side by side on the same
// database and every Lighthouse run alternates between them, so before and after share the conditions.
// Byte counts do not depend on the machine's load; Lighthouse's performance score does (it is timed), its
// accessibility score does not.
import { readdirSync } from "node:fs";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { signIn } from "./http";
import type { PageData } from "./page-data";
import { TIME_ZONE_COOKIE } from "@/lib/i18n/time-zone";
import { WELCOME_COOKIE } from "@/lib/server/http/welcome-cookie";

/** Who looks at a page: signed out, the bench person (the median account) or the bench administrator. */
export type Who = "me" | "admin" | null;
/**
 * A page measured. `app`, when given, is the one app it is measured on (the trivial page, bench/trivial-page.ts);
 * otherwise it is measured on every app under test.
 */
export type PageTarget = { name: string; path: string; as: Who; app?: AppUnderTest; mode?: LighthouseMode };

/**
 * How Lighthouse measures a page (issue 44): its throttling simulated from an unthrottled load (Lighthouse's
 * default) or applied to the browser (`devtools`: 562.5 ms a request, 1,474.56 kbps down, CPU ×4); a first
 * visit in a browser that never saw Krug, or a repeat visit, after the page was opened twice in the same
 * browser (the service worker installs, then keeps the page, docs/adr/0178).
 */
export type LighthouseMode = { throttling: "simulate" | "devtools"; visit: "first" | "repeat" };

/** Every page in every mode, named with it; a page of one app (the trivial page) only on first visits. */
export function inModes(pages: PageTarget[], modes: LighthouseMode[]): PageTarget[] {
  return modes.flatMap((mode) =>
    pages.filter((p) => !p.app || mode.visit === "first").map((p) => ({ ...p, name: `${p.name} · ${mode.visit} · ${mode.throttling}`, mode })),
  );
}
/** The e-mails the bench signs in with (password BENCH_PASSWORD). */
export type Emails = { me: string; admin: string };
/** An app measured: "current" (this tree's build) or the baseline, and where it answers. */
export type AppUnderTest = { label: string; baseUrl: string };

/** The pages issue 25 section 3 sets targets for. */
export function targetPages(data: PageData): PageTarget[] {
  return [
    { name: "/login (signed out)", path: "/login", as: null },
    { name: "feed (/)", path: "/", as: "me" },
    { name: "/profile", path: "/profile", as: "me" },
    { name: "dialog (/im/{id})", path: `/im/${data.dialogId}`, as: "me" },
  ];
}

const cookieOf = (baseUrl: string, who: Who, emails: Emails) => (who ? signIn(baseUrl, emails[who]) : Promise.resolve(null));

type Size = { raw: number; gzip: number };
const size = (text: string | Buffer): Size => ({ raw: Buffer.byteLength(text), gzip: gzipSync(text).length });

export type Asset = { url: string; raw: number; gzip: number; holds: string[] };

export type PageWeight = {
  name: string;
  path: string;
  html: Size;
  /** The HTML without its inline scripts: the rendered content and its tags. */
  markup: Size;
  /** Inline scripts: the RSC payload (`self.__next_f.push`) and the bootstrap. */
  inlineScripts: Size;
  /** The message catalogues serialized in the payload (every `"messages":{…}` object). */
  messages: Size;
  css: Asset[];
  fonts: Asset[];
  scripts: Asset[];
};

/** Libraries recognised in a chunk by strings that survive minification. */
const MARKERS: [string, RegExp][] = [
  ["tiptap/prosemirror", /prosemirror|ProseMirror|tiptap/],
  ["recharts", /recharts/],
  ["radix", /radix|data-radix/],
  ["dompurify", /DOMPurify|dompurify/],
  ["react-dom", /react-dom\.production|__reactFiber|reactRoot/],
  ["react-hook-form", /useFormContext|react-hook-form/],
  ["zod", /ZodError|zod/],
  ["next-intl/intl-messageformat", /IntlMessageFormat|FORMAT_ERROR|INVALID_MESSAGE/],
  ["swr", /SWRConfig|swr/],
  ["next-themes", /next-themes|prefers-color-scheme/],
];

function holds(text: string): string[] {
  return MARKERS.filter(([, re]) => re.test(text)).map(([name]) => name);
}

function attrs(tag: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const m of tag.matchAll(/([a-zA-Z-:]+)="([^"]*)"/g)) out[m[1].toLowerCase()] = m[2].replaceAll("&amp;", "&");
  return out;
}

/** The `"messages":{…}` objects in the (escaped) payload, by balancing braces. */
function messageObjects(html: string): string {
  let out = "";
  for (const m of html.matchAll(/\\?"messages\\?":\{/g)) {
    let depth = 0;
    let i = m.index + m[0].length - 1;
    const start = i;
    for (; i < html.length; i++) {
      if (html[i] === "{") depth++;
      else if (html[i] === "}" && --depth === 0) break;
    }
    out += html.slice(start, i + 1);
  }
  return out;
}

async function fetchAsset(baseUrl: string, href: string): Promise<Asset> {
  const url = new URL(href, baseUrl).toString();
  const res = await fetch(url);
  if (!res.ok) throw new Error(`${url}: ${res.status}`);
  const body = Buffer.from(await res.arrayBuffer());
  const text = body.toString("latin1");
  return { url: new URL(url).pathname, ...size(body), holds: holds(text) };
}

export async function weighPage(baseUrl: string, page: PageTarget, cookie: string | null): Promise<PageWeight> {
  const res = await fetch(`${baseUrl}${page.path}`, { headers: { accept: "text/html", ...(cookie ? { cookie } : {}) }, redirect: "manual" });
  if (res.status !== 200) {
    const to = res.headers.get("location");
    throw new Error(`GET ${page.path} answered ${res.status}${to ? ` → ${to.replace(baseUrl, "")}` : ""}, not 200`);
  }
  const html = await res.text();
  const inline = [...html.matchAll(/<script(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/g)].map((m) => m[0]).join("");
  const markup = html.replace(/<script(?![^>]*\bsrc=)[^>]*>[\s\S]*?<\/script>/g, "");
  const tags = [...html.matchAll(/<(script|link)\b[^>]*>/g)].map((m) => ({ kind: m[1], a: attrs(m[0]) }));
  // Polyfills carry `nomodule`: browsers that run modules (all the ones we serve) neither fetch nor run them.
  const scriptSrc = new Set(tags.filter((t) => t.kind === "script" && t.a.src && !("nomodule" in t.a)).map((t) => t.a.src));
  for (const t of tags) if (t.kind === "link" && t.a.as === "script" && t.a.href) scriptSrc.add(t.a.href);
  const cssHref = new Set(tags.filter((t) => t.kind === "link" && t.a.rel === "stylesheet" && t.a.href).map((t) => t.a.href));
  const fontHref = new Set(tags.filter((t) => t.kind === "link" && t.a.as === "font" && t.a.href).map((t) => t.a.href));
  const all = (hrefs: Set<string>) => Promise.all([...hrefs].map((h) => fetchAsset(baseUrl, h)));
  const [scripts, css, fonts] = await Promise.all([all(scriptSrc), all(cssHref), all(fontHref)]);
  scripts.sort((a, b) => b.gzip - a.gzip);
  return {
    name: page.name,
    path: page.path,
    html: size(html),
    markup: size(markup),
    inlineScripts: size(inline),
    messages: size(messageObjects(html)),
    css,
    fonts,
    scripts,
  };
}

const kb = (b: number) => (b / 1024).toFixed(1);
const sum = (xs: Asset[], k: "raw" | "gzip") => xs.reduce((s, x) => s + x[k], 0);

export function printWeights(weights: PageWeight[], log: (m: string) => void): void {
  log("\nPage weight (KB, raw / gzip; beyond content = HTML gzip − markup gzip):");
  log("| page | HTML | markup | inline scripts | messages | beyond content | CSS | fonts | first-load JS (files) |");
  log("|---|---:|---:|---:|---:|---:|---:|---:|---:|");
  for (const w of weights) {
    log(
      `| ${w.name} | ${kb(w.html.raw)} / ${kb(w.html.gzip)} | ${kb(w.markup.raw)} / ${kb(w.markup.gzip)} | ${kb(w.inlineScripts.raw)} / ${kb(w.inlineScripts.gzip)} | ` +
        `${kb(w.messages.raw)} / ${kb(w.messages.gzip)} | ${kb(w.html.gzip - w.markup.gzip)} | ${kb(sum(w.css, "raw"))} / ${kb(sum(w.css, "gzip"))} | ` +
        `${kb(sum(w.fonts, "raw"))} | ${kb(sum(w.scripts, "raw"))} / ${kb(sum(w.scripts, "gzip"))} (${w.scripts.length}) |`,
    );
  }
  for (const w of weights) {
    log(`\n${w.name}: scripts by gzip size (polyfills for browsers without modules left out)`);
    for (const s of w.scripts) log(`  ${kb(s.gzip).padStart(6)} KB gzip ${kb(s.raw).padStart(7)} KB raw  ${s.url}${s.holds.length ? `  [${s.holds.join(", ")}]` : ""}`);
  }
}

/** Each page weighed, signed in (through the API just before) as the page asks. */
export async function weighPages(baseUrl: string, pages: PageTarget[], emails: Emails): Promise<PageWeight[]> {
  const out: PageWeight[] = [];
  for (const page of pages) out.push(await weighPage(baseUrl, page, await cookieOf(baseUrl, page.as, emails)));
  return out;
}

// ---- Every route's first-load JS ----

/** A page route of the app: its URL pattern (route groups left out) and the groups it sits in. */
export type AppRoute = { pattern: string; groups: string[] };

/** Every `page.tsx` under `appDir`, as URL patterns (`/im/[activeDialogId]`), sorted; private (`_x`) folders skipped. */
export function appRoutes(appDir: string): AppRoute[] {
  const out: AppRoute[] = [];
  const walk = (dir: string, segments: string[], groups: string[]) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.isFile() && /^page\.(tsx|ts|jsx|js|mdx)$/.test(entry.name)) out.push({ pattern: `/${segments.join("/")}`, groups });
      if (!entry.isDirectory() || entry.name.startsWith("_") || (segments.length === 0 && entry.name === "api")) continue;
      const name = entry.name;
      const full = path.join(dir, name);
      // A route group and a parallel-route slot are not in the URL; an intercepting route is no URL of its own.
      if (name.startsWith("(.")) continue;
      if (/^\(.*\)$/.test(name)) walk(full, segments, [...groups, name]);
      else if (name.startsWith("@")) walk(full, segments, groups);
      else walk(full, [...segments, name], groups);
    }
  };
  walk(appDir, [], []);
  return out.sort((a, b) => a.pattern.localeCompare(b.pattern));
}

/**
 * Values for the dynamic segments, by route pattern: ids from the bench data. A dynamic route missing
 * here is listed as not measured, with its pattern, so adding one is a line.
 */
/** The bench's ids the routes are filled with. */
export type RouteData = PageData & { meId: number; friendId: number };

export const ROUTE_PARAMS: Record<string, (d: RouteData) => string> = {
  "/im/[activeDialogId]": (d) => `/im/${d.dialogId}`,
  "/profile/[id]": (d) => `/profile/${d.friendId}`,
  "/post/[id]": (d) => `/post/${d.postId}`,
  "/admin/publications/[id]": (d) => `/admin/publications/${d.postId}`,
  "/admin/users/[id]": (d) => `/admin/users/${d.friendId}`,
  // A dead link (no such secret): the page and its client code are the same, it says the link is dead.
  "/change-password/[secret]": () => "/change-password/bench-no-such-secret",
  "/[...unknown]": () => "/bench-no-such-page",
};

/** Cookies a route needs beside the session to show itself rather than redirect. */
export const ROUTE_COOKIES: Record<string, (d: RouteData) => string> = {
  // The greeting is only for the browser that has just registered this account.
  "/registration-success": (d) => `${WELCOME_COOKIE}=${d.meId}`,
};

export type RouteWeight = { route: string; path: string | null; as: Who; weight: PageWeight | null; why?: string };

/** Who is tried first: the admin area as the administrator, the sign-in forms signed out, the rest as the bench person. */
function viewersOf(r: AppRoute): Who[] {
  if (r.pattern === "/admin" || r.pattern.startsWith("/admin/")) return ["admin"];
  if (r.groups.includes("(form)")) return [null, "me"];
  return ["me"];
}

/**
 * Every route of `routes` weighed on the app at `baseUrl`. A redirect to sign-in for a signed-out
 * visitor is tried again signed in (a form page of the signed-in person); any other refusal or error
 * is the route's `why`.
 */
export async function weighRoutes(baseUrl: string, routes: AppRoute[], data: RouteData, emails: Emails): Promise<RouteWeight[]> {
  const out: RouteWeight[] = [];
  for (const r of routes) {
    const fill = ROUTE_PARAMS[r.pattern];
    if (r.pattern.includes("[") && !fill) {
      out.push({ route: r.pattern, path: null, as: null, weight: null, why: "no value for its dynamic segment (ROUTE_PARAMS in bench/pages.ts)" });
      continue;
    }
    const urlPath = fill ? fill(data) : r.pattern;
    const extra = ROUTE_COOKIES[r.pattern]?.(data);
    const whys: string[] = [];
    let done: RouteWeight | null = null;
    for (const as of viewersOf(r)) {
      try {
        const cookie = [await cookieOf(baseUrl, as, emails), extra].filter(Boolean).join("; ") || null;
        done = { route: r.pattern, path: urlPath, as, weight: await weighPage(baseUrl, { name: r.pattern, path: urlPath, as }, cookie) };
        break;
      } catch (err) {
        whys.push(`${whoName(as)}: ${err instanceof Error ? err.message : String(err)}`);
      }
    }
    out.push(done ?? { route: r.pattern, path: urlPath, as: viewersOf(r)[0], weight: null, why: whys.join("; ") });
  }
  return out;
}

const whoName = (w: Who) => (w === null ? "signed out" : w === "me" ? "person" : "admin");
/** Issue 25 section 3: the feed's first-load JS ≤ 130 KB gzip. */
export const FEED_JS_TARGET_KB = 130;

/** The route table: one app, or the baseline and the current app side by side (by route). */
export function printRouteWeights(sets: { label: string; routes: RouteWeight[] }[], log: (m: string) => void): void {
  const js = (r: RouteWeight | undefined) => (r?.weight ? sum(r.weight.scripts, "gzip") : null);
  const cell = (r: RouteWeight | undefined) => (r?.weight ? `${kb(js(r)!)} (${r.weight.scripts.length})` : `— ${r?.why ?? "not in this app"}`);
  log(`\nFirst-load JS of every page route (app/**/page.tsx; KB gzip, files in brackets; target for the feed ≤ ${FEED_JS_TARGET_KB} KB):`);
  if (sets.length === 1) {
    log("| route | URL measured | as | first-load JS gzip (files) | HTML gzip |");
    log("|---|---|---|---:|---:|");
    for (const r of sets[0].routes) log(`| ${r.route} | ${r.path ?? "—"} | ${whoName(r.as)} | ${cell(r)} | ${r.weight ? kb(r.weight.html.gzip) : "—"} |`);
    return;
  }
  const [before, after] = sets;
  log(`| route | URL measured | as | ${before.label} | ${after.label} | change |`);
  log("|---|---|---|---:|---:|---:|");
  for (const a of after.routes) {
    const b = before.routes.find((x) => x.route === a.route);
    const [jb, ja] = [js(b), js(a)];
    const change = jb !== null && ja !== null ? `${ja - jb >= 0 ? "+" : ""}${kb(ja - jb)}` : "—";
    log(`| ${a.route} | ${a.path ?? "—"} | ${whoName(a.as)} | ${cell(b)} | ${cell(a)} | ${change} |`);
  }
}

const CHROMIUM_FLAGS = [
  "--headless=new",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-dev-shm-usage",
  "--disable-background-networking",
  "--disable-extensions",
  "--no-first-run",
  "--mute-audio",
  // This Chromium otherwise runs an omnibox WebUI renderer per window: CPU taken from the page measured.
  "--disable-features=WebUIOmniboxPopup,WebUIOmniboxAimPopup",
];

/** `name=value; name=value` (what signIn returns) as cookies of `baseUrl` for the browser's jar, as the server sets them. */
export function jarCookies(baseUrl: string, header: string) {
  return header.split("; ").map((pair) => {
    const eq = pair.indexOf("=");
    return { name: pair.slice(0, eq), value: pair.slice(eq + 1), url: baseUrl, path: "/", httpOnly: true, sameSite: "Lax" as const };
  });
}

/** The element Lighthouse names as the largest contentful paint (its selector and the start of its HTML). */
function lcpElement(details: unknown): string | null {
  const seen: unknown[] = [details];
  while (seen.length) {
    const v = seen.pop();
    if (!v || typeof v !== "object") continue;
    const node = (v as { node?: { selector?: string; snippet?: string } }).node;
    if (node?.snippet) return `${node.selector ?? "?"} ${node.snippet.slice(0, 160)}`;
    seen.push(...Object.values(v as object));
  }
  return null;
}

/** The elements a failed audit lists (selector and the start of the HTML), the first three. */
function failingNodes(details: unknown): string[] {
  const items = (details as { items?: Array<{ node?: { selector?: string; snippet?: string; explanation?: string } }> } | undefined)?.items ?? [];
  // axe's explanation starts with "Fix any of the following:"; what follows says what is wrong.
  const why = (e: string | undefined) => (e ? ` — ${e.split("\n").slice(1).join(" ").trim().slice(0, 200)}` : "");
  return items.slice(0, 3).flatMap((i) => (i.node ? [`${i.node.selector ?? "?"} ${(i.node.snippet ?? "").slice(0, 120)}${why(i.node.explanation)}`] : []));
}

type TableDetails = { type?: string; items?: Array<Record<string, unknown>> };

/** The simulated LCP split into Lighthouse's phases (time to first byte, load delay and time, render delay). */
function lcpPhases(details: unknown): string | null {
  const tables = (details as { items?: TableDetails[] } | undefined)?.items ?? [];
  const phases = tables.find((t) => t.type === "table" && t.items?.some((i) => "phase" in i));
  if (!phases?.items) return null;
  return phases.items.map((i) => `${String(i.phase)} ${Math.round(Number(i.timing))} ms`).join(", ");
}

/** The three scripts that took the main thread longest (simulated), with their evaluation and parse times. */
function heaviestScripts(details: unknown): string[] {
  const items = (details as TableDetails | undefined)?.items ?? [];
  return items.slice(0, 3).map((i) => {
    const url = String(i.url).replace(/^https?:\/\/[^/]+/, "");
    return `main thread ${Math.round(Number(i.total))} ms (script ${Math.round(Number(i.scripting))}, parse ${Math.round(Number(i.scriptParseCompile))}): ${url}`;
  });
}

/** The simulated main-thread time by kind of work (script evaluation, style and layout, parsing…). */
function mainThreadWork(details: unknown): string | null {
  const items = (details as TableDetails | undefined)?.items ?? [];
  if (items.length === 0) return null;
  return items.map((i) => `${String(i.groupLabel ?? i.group)} ${Math.round(Number(i.duration))} ms`).join(", ");
}

/** One Lighthouse run of one page on one app: the scores, the metrics (ms; CLS unitless) and what to print of it. */
export type LighthouseRun = {
  performance: number | null;
  accessibility: number | null;
  /** first-contentful-paint, largest-contentful-paint, total-blocking-time, cumulative-layout-shift, speed-index. */
  metrics: Record<MetricId, number | null>;
  benchmarkIndex: number;
  /** Flagged audits, the LCP element and phases, the heaviest scripts, main-thread work: printed for the median run. */
  diagnostics: string[];
};

const METRICS = ["first-contentful-paint", "largest-contentful-paint", "total-blocking-time", "cumulative-layout-shift", "speed-index"] as const;
type MetricId = (typeof METRICS)[number];

/** Per page and app: the medians of its runs, the raw performance scores and the median run's diagnostics. */
export type LighthouseSummary = {
  page: string;
  app: string;
  runs: number;
  failures: string[];
  performances: (number | null)[];
  performance: number | null;
  accessibility: number | null;
  metrics: Record<MetricId, number | null>;
  benchmarkIndex: number | null;
  diagnostics: string[];
};

export function median(xs: (number | null)[]): number | null {
  const v = xs.filter((x): x is number => x !== null && Number.isFinite(x)).sort((p, q) => p - q);
  if (v.length === 0) return null;
  const mid = v.length >> 1;
  return v.length % 2 ? v[mid] : (v[mid - 1] + v[mid]) / 2;
}

/**
 * A returning reader's browser: the page opened once (the service worker registers after load and installs),
 * then again under the worker, which keeps it; the wait ends when the device holds it, or after 15 s for a
 * page it does not keep (/login, signed out). The tab is then left blank, as a reader who comes back opens it.
 */
export async function visitTwice(tab: import("puppeteer-core").Page, url: string): Promise<void> {
  await tab.goto(url, { waitUntil: "load", timeout: 120_000 });
  await tab.evaluate(async () => {
    await navigator.serviceWorker?.ready;
  });
  await tab.goto(url, { waitUntil: "load", timeout: 120_000 });
  await tab
    .waitForFunction(
      async (href: string) => {
        for (const name of await caches.keys()) {
          if (name.startsWith("krug-device-") && (await (await caches.open(name)).match(href))) return true;
        }
        return false;
      },
      { timeout: 15_000, polling: 250 },
      url,
    )
    .catch(() => {});
  // The reader closed the page and opens Krug again (the app's icon, a new tab): the measured visit starts
  // from a blank tab, not from the page just shown (the traces show the same work before the commit either way).
  await tab.goto("about:blank");
}

/**
 * A fresh Chromium (its own profile) with one tab, and `who`'s session in its cookie jar (CDP
 * `Network.setCookies` through puppeteer-core): `cookie` is null for a signed-out page. The caller kills it.
 */
export async function browserOf(baseUrl: string, who: Who, emails: Emails) {
  const chromeLauncher = await import("chrome-launcher");
  const puppeteer = await import("puppeteer-core");
  const chromePath = process.env.CHROME_PATH || "/usr/bin/chromium";
  const cookie = await cookieOf(baseUrl, who, emails);
  const chrome = await chromeLauncher.launch({ chromePath, chromeFlags: CHROMIUM_FLAGS });
  const browser = await puppeteer.connect({ browserURL: `http://127.0.0.1:${chrome.port}`, defaultViewport: null });
  const tab = await browser.newPage();
  if (cookie) {
    const cdp = await tab.createCDPSession();
    // A returning reader: the browser has told the server its time zone (docs/adr/0102).
    const zone = { name: TIME_ZONE_COOKIE, value: Intl.DateTimeFormat().resolvedOptions().timeZone, url: baseUrl, path: "/" };
    await cdp.send("Network.setCookies", { cookies: [...jarCookies(baseUrl, cookie), zone] });
    await cdp.detach();
  }
  return { chrome, browser, tab, cookie };
}

/**
 * One Lighthouse run (mobile defaults; the page's mode picks the throttling and the visit) in a fresh Chromium. A signed-in page gets
 * the session in the browser's cookie jar (CDP `Network.setCookies` through puppeteer-core, a dev
 * dependency, the driver Lighthouse itself uses) and Lighthouse keeps the origin's storage
 * (`disableStorageReset`): a `cookie` sent as an extra header did not reach the server on the
 * navigation, and those pages ended at /login.
 */
async function lighthouseOnce(baseUrl: string, page: PageTarget, emails: Emails): Promise<LighthouseRun> {
  const { default: lighthouse } = await import("lighthouse");
  const { chrome, browser, tab, cookie } = await browserOf(baseUrl, page.as, emails);
  const mode = page.mode ?? { throttling: "simulate", visit: "first" };
  try {
    if (mode.visit === "repeat") await visitTwice(tab, `${baseUrl}${page.path}`);
    // A loaded machine paints late: wait longer than Lighthouse's defaults before calling a page blank.
    const runner = await lighthouse(
      `${baseUrl}${page.path}`,
      {
        port: chrome.port,
        output: "json",
        logLevel: "error",
        // BENCH_LIGHTHOUSE_METRICS_ONLY=1: the metrics' audits alone, without the gatherers the performance
        // category's other audits bring, which instrument the page (JsUsage starts V8's precise coverage
        // before the navigation). On the repeat visit it changed little (docs/adr/0185).
        ...(process.env.BENCH_LIGHTHOUSE_METRICS_ONLY === "1"
          ? { onlyAudits: [...METRICS, "largest-contentful-paint-element", "bootup-time", "mainthread-work-breakdown"] }
          : { onlyCategories: ["performance", "accessibility"] }),
        disableStorageReset: cookie !== null || mode.visit === "repeat",
        throttlingMethod: mode.throttling,
        maxWaitForFcp: 90_000,
        maxWaitForLoad: 180_000,
      },
      undefined,
      tab,
    );
    if (!runner) throw new Error("Lighthouse returned nothing");
    const lhr = runner.lhr;
    // BENCH_LIGHTHOUSE_TRACE_DIR: each run's trace, to open in the Performance panel or read with a script.
    const traceDir = process.env.BENCH_LIGHTHOUSE_TRACE_DIR;
    if (traceDir) {
      const { mkdir, writeFile } = await import("node:fs/promises");
      await mkdir(traceDir, { recursive: true });
      const name = `${page.name}-${mode.throttling}-${mode.visit}-${Date.now()}.json`.replace(/[^\w.-]+/g, "_");
      await writeFile(`${traceDir}/${name}`, JSON.stringify(runner.artifacts.Trace));
    }
    if (lhr.runtimeError) throw new Error(`${lhr.runtimeError.code} ${lhr.runtimeError.message}`);
    if (lhr.finalDisplayedUrl !== `${baseUrl}${page.path}`) throw new Error(`ended at ${lhr.finalDisplayedUrl}`);
    const diagnostics: string[] = [];
    for (const cat of ["performance", "accessibility"] as const) {
      for (const ref of lhr.categories[cat]?.auditRefs ?? []) {
        const audit = lhr.audits[ref.id];
        if (ref.weight > 0 && audit.score !== null && audit.score < 0.9) {
          diagnostics.push(`${cat}: ${ref.id} (${audit.score}) ${audit.displayValue ?? ""}`.trim());
          // Which elements an accessibility audit failed on (the first three), so the fix can be found.
          if (cat === "accessibility") for (const n of failingNodes(audit.details)) diagnostics.push(`  on ${n}`);
        }
      }
    }
    const lcp = lcpElement(lhr.audits["largest-contentful-paint-element"]?.details);
    if (lcp) diagnostics.push(`largest contentful paint: ${lcp}`);
    const phases = lcpPhases(lhr.audits["largest-contentful-paint-element"]?.details);
    if (phases) diagnostics.push(`its phases: ${phases}`);
    diagnostics.push(...heaviestScripts(lhr.audits["bootup-time"]?.details));
    const work = mainThreadWork(lhr.audits["mainthread-work-breakdown"]?.details);
    if (work) diagnostics.push(`main thread by kind: ${work}`);
    const metrics = Object.fromEntries(METRICS.map((id) => [id, lhr.audits[id]?.numericValue ?? null])) as Record<MetricId, number | null>;
    return {
      performance: lhr.categories.performance?.score ?? null,
      accessibility: lhr.categories.accessibility?.score ?? null,
      metrics,
      benchmarkIndex: lhr.environment.benchmarkIndex,
      diagnostics,
    };
  } finally {
    await browser.disconnect();
    chrome.kill();
  }
}

export const seconds = (ms: number | null) => (ms === null ? "?" : `${(ms / 1000).toFixed(2)} s`);
const millis = (ms: number | null) => (ms === null ? "?" : `${Math.round(ms)} ms`);
const score = (x: number | null) => (x === null ? "?" : x.toFixed(2));
const cls = (x: number | null) => (x === null ? "?" : x.toFixed(3));

/** Issue 25 section 3's targets a summary misses (empty when it meets them all). */
export function missedTargets(s: LighthouseSummary): string[] {
  const out: string[] = [];
  if (s.performance === null || s.performance < 0.9) out.push(`performance ${score(s.performance)} < 0.90`);
  if (s.accessibility === null || s.accessibility < 1) out.push(`accessibility ${score(s.accessibility)} < 1`);
  const tbt = s.metrics["total-blocking-time"];
  if (tbt === null || tbt > 200) out.push(`TBT ${millis(tbt)} > 200 ms`);
  const lcp = s.metrics["largest-contentful-paint"];
  if (lcp === null || lcp > 2500) out.push(`LCP ${seconds(lcp)} > 2.5 s`);
  // Issue 44: a repeat visit with the throttling applied paints from the device.
  else if (s.page.endsWith("· repeat · devtools") && lcp > 500) out.push(`LCP ${seconds(lcp)} > 0.5 s`);
  return out;
}

/**
 * Lighthouse on each page, `runs` times, on each app: run r of a page measures every app one after the
 * other, the order flipped on every run (baseline first, then current first, …), so neither app always
 * gets the warmer or the quieter moment. Each run is logged as it ends; then per page and app the
 * medians, the raw performance scores, the host's benchmark index and the median run's diagnostics.
 * A run that fails is tried once more; failing again, it is logged, counted as failed in the table and
 * left out of the medians, and does not stop the others.
 */
export async function runLighthouse(apps: AppUnderTest[], pages: PageTarget[], emails: Emails, runs: number, log: (m: string) => void): Promise<LighthouseSummary[]> {
  const summaries: LighthouseSummary[] = [];
  for (const page of pages) {
    const measured = page.app ? [page.app] : apps;
    const byApp = new Map<string, { done: LighthouseRun[]; failures: string[] }>(measured.map((a) => [a.label, { done: [], failures: [] }]));
    for (let r = 0; r < runs; r++) {
      for (const app of r % 2 === 0 ? measured : [...measured].reverse()) {
        const slot = byApp.get(app.label)!;
        const tag = `${page.name} run ${r + 1}/${runs}${measured.length > 1 ? ` [${app.label}]` : ""}`;
        try {
          // Lighthouse asks for another run after a failed trace (NO_NAVSTART, NO_FCP under load): one retry.
          const run = await lighthouseOnce(app.baseUrl, page, emails).catch((err: unknown) => {
            log(`  ${tag.padEnd(40)} failed, once more: ${err instanceof Error ? err.message.slice(0, 120) : String(err)}`);
            return lighthouseOnce(app.baseUrl, page, emails);
          });
          slot.done.push(run);
          const m = run.metrics;
          log(
            `  ${tag.padEnd(40)} performance ${score(run.performance)}  accessibility ${score(run.accessibility)}  TBT ${millis(m["total-blocking-time"])}  ` +
              `LCP ${seconds(m["largest-contentful-paint"])}  FCP ${seconds(m["first-contentful-paint"])}  benchmark index ${Math.round(run.benchmarkIndex)}`,
          );
        } catch (err) {
          const why = err instanceof Error ? err.message : String(err);
          slot.failures.push(why);
          log(`  ${tag.padEnd(40)} not measured: ${why}`);
        }
      }
    }
    for (const app of measured) {
      const { done, failures } = byApp.get(app.label)!;
      // The run whose performance score is the median (the lower middle of an even count) gives the diagnostics.
      const ranked = [...done].sort((p, q) => (p.performance ?? -1) - (q.performance ?? -1));
      const mid = ranked[(ranked.length - 1) >> 1];
      summaries.push({
        page: page.name,
        app: app.label,
        runs: done.length,
        failures,
        performances: done.map((d) => d.performance),
        performance: median(done.map((d) => d.performance)),
        accessibility: median(done.map((d) => d.accessibility)),
        metrics: Object.fromEntries(METRICS.map((id) => [id, median(done.map((d) => d.metrics[id]))])) as Record<MetricId, number | null>,
        benchmarkIndex: median(done.map((d) => d.benchmarkIndex)),
        diagnostics: mid?.diagnostics ?? [],
      });
    }
    for (const s of summaries.filter((x) => x.page === page.name)) {
      const m = s.metrics;
      log(
        `  ${`${s.page}${measured.length > 1 ? ` [${s.app}]` : ""}`.padEnd(28)} median of ${s.runs}: performance ${score(s.performance)} ` +
          `(runs ${s.performances.map(score).join(", ")})  accessibility ${score(s.accessibility)}  TBT ${millis(m["total-blocking-time"])}  ` +
          `LCP ${seconds(m["largest-contentful-paint"])}  FCP ${seconds(m["first-contentful-paint"])}  CLS ${cls(m["cumulative-layout-shift"])}  ` +
          `SI ${seconds(m["speed-index"])}  benchmark index ${s.benchmarkIndex === null ? "?" : Math.round(s.benchmarkIndex)}`,
      );
      for (const d of s.diagnostics) log(`      ${d}`);
    }
  }
  return summaries;
}

/** The medians as a table: one app with its missed targets, or the baseline and the current app side by side. */
export function printLighthouse(apps: AppUnderTest[], summaries: LighthouseSummary[], log: (m: string) => void): void {
  const all = summaries.map((s) => s.benchmarkIndex).filter((x): x is number => x !== null);
  const index = median(all);
  const runs = Math.max(0, ...summaries.map((s) => s.runs + s.failures.length));
  log(
    `\nLighthouse medians (mobile preset, ${runs} runs per page and app; this host's benchmark index ${index === null ? "?" : Math.round(index)}, ` +
      `median of all runs; targets: performance ≥ 0.90, accessibility 1.0, TBT ≤ 200 ms, LCP ≤ 2.5 s):`,
  );
  const pages = [...new Set(summaries.map((s) => s.page))];
  const of = (page: string, app: string) => summaries.find((s) => s.page === page && s.app === app);
  if (apps.length === 1) {
    log("| page | performance (runs) | accessibility | TBT | LCP | FCP | CLS | SI | benchmark index | targets missed |");
    log("|---|---:|---:|---:|---:|---:|---:|---:|---:|---|");
    for (const page of pages) {
      // The page's one summary: the app's, or the trivial page's own.
      const s = of(page, apps[0].label) ?? summaries.find((x) => x.page === page)!;
      const m = s.metrics;
      log(
        `| ${page} | ${score(s.performance)} (${s.performances.map(score).join(", ")}${s.failures.length ? `; ${s.failures.length} failed` : ""}) | ${score(s.accessibility)} | ${millis(m["total-blocking-time"])} | ` +
          `${seconds(m["largest-contentful-paint"])} | ${seconds(m["first-contentful-paint"])} | ${cls(m["cumulative-layout-shift"])} | ${seconds(m["speed-index"])} | ` +
          `${s.benchmarkIndex === null ? "?" : Math.round(s.benchmarkIndex)} | ${missedTargets(s).join("; ") || "none"} |`,
      );
    }
    return;
  }
  const [b, a] = apps.map((x) => x.label);
  log(`before = ${b}, after = ${a}`);
  log("| page | before perf (runs) | after perf (runs) | before TBT | after TBT | before LCP | after LCP | accessibility before / after | benchmark index before / after | after misses |");
  log("|---|---:|---:|---:|---:|---:|---:|---:|---:|---|");
  const perf = (s: LighthouseSummary) => `${score(s.performance)} (${s.performances.map(score).join(", ")}${s.failures.length ? `; ${s.failures.length} failed` : ""})`;
  const bi = (s: LighthouseSummary) => (s.benchmarkIndex === null ? "?" : Math.round(s.benchmarkIndex));
  for (const page of pages) {
    const sb = of(page, b);
    const sa = of(page, a);
    if (!sb || !sa) {
      // A page of one app (the trivial page): its figures in the "after" columns, for reading beside the others.
      const s = summaries.find((x) => x.page === page)!;
      log(
        `| ${page} | — | ${perf(s)} | — | ${millis(s.metrics["total-blocking-time"])} | — | ${seconds(s.metrics["largest-contentful-paint"])} | — / ${score(s.accessibility)} | ` +
          `— / ${bi(s)} | ${missedTargets(s).join("; ") || "none"} |`,
      );
      continue;
    }
    log(
      `| ${page} | ${perf(sb)} | ${perf(sa)} | ${millis(sb.metrics["total-blocking-time"])} | ${millis(sa.metrics["total-blocking-time"])} | ` +
        `${seconds(sb.metrics["largest-contentful-paint"])} | ${seconds(sa.metrics["largest-contentful-paint"])} | ${score(sb.accessibility)} / ${score(sa.accessibility)} | ` +
        `${bi(sb)} / ${bi(sa)} | ${missedTargets(sa).join("; ") || "none"} |`,
    );
  }
}
