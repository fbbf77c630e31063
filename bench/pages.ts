// What a page sends to the browser (issue 8 item 3, docs/adr/0092): `--only=pages` weighs the HTML of
// /login, the feed and /profile (markup, the inline React Server Components payload and the messages in
// it), their stylesheets and fonts, and the first-load JavaScript (every script the HTML loads, each
// gzipped). `--only=lighthouse` runs Lighthouse on the system Chromium on the same pages, signed in
// through cookies, and prints the performance and accessibility scores and what they flag. Byte counts
// do not depend on the machine's load; Lighthouse's performance score does (it is timed), its
// accessibility score does not.
import { gzipSync } from "node:zlib";
import { signIn } from "./http";
import { TIME_ZONE_COOKIE } from "@/lib/i18n/time-zone";

export type PageTarget = { name: string; path: string; signedIn: boolean };

export const PAGES: PageTarget[] = [
  { name: "/login (signed out)", path: "/login", signedIn: false },
  { name: "feed (/)", path: "/", signedIn: true },
  { name: "/profile", path: "/profile", signedIn: true },
];

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
  if (res.status !== 200) throw new Error(`${page.name}: GET ${page.path} answered ${res.status}, not 200`);
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

/** Every page weighed; signed-in pages with cookies of `email` (signed in through the API just before). */
export async function weighPages(baseUrl: string, email: string): Promise<PageWeight[]> {
  const out: PageWeight[] = [];
  for (const page of PAGES) out.push(await weighPage(baseUrl, page, page.signedIn ? await signIn(baseUrl, email) : null));
  return out;
}

export type LighthouseResult = { name: string; performance: number | null; accessibility: number | null; flagged: string[]; metrics: Record<string, string> };

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

/**
 * Lighthouse (mobile defaults: simulated throttling) on each page, one Chromium per page. A signed-in
 * page gets the session in the browser's cookie jar (CDP `Network.setCookies` through puppeteer-core, a dev dependency, the
 * driver Lighthouse itself uses) and Lighthouse keeps the origin's storage (`disableStorageReset`): a
 * `cookie` sent as an extra header did not reach the server on the navigation, and those pages ended at /login.
 */
export async function runLighthouse(baseUrl: string, email: string, log: (m: string) => void): Promise<LighthouseResult[]> {
  const { default: lighthouse } = await import("lighthouse");
  const chromeLauncher = await import("chrome-launcher");
  const puppeteer = await import("puppeteer-core");
  const chromePath = process.env.CHROME_PATH || "/usr/bin/chromium";
  const results: LighthouseResult[] = [];
  for (const page of PAGES) {
    const cookie = page.signedIn ? await signIn(baseUrl, email) : null;
    const chrome = await chromeLauncher.launch({ chromePath, chromeFlags: CHROMIUM_FLAGS });
    const browser = await puppeteer.connect({ browserURL: `http://127.0.0.1:${chrome.port}`, defaultViewport: null });
    try {
      const tab = await browser.newPage();
      if (cookie) {
        const cdp = await tab.createCDPSession();
        // A returning reader: the browser has told the server its time zone (docs/adr/0102).
        const zone = { name: TIME_ZONE_COOKIE, value: Intl.DateTimeFormat().resolvedOptions().timeZone, url: baseUrl, path: "/" };
        await cdp.send("Network.setCookies", { cookies: [...jarCookies(baseUrl, cookie), zone] });
        await cdp.detach();
      }
      // A loaded machine paints late: wait longer than Lighthouse's defaults before calling a page blank.
      const runner = await lighthouse(
        `${baseUrl}${page.path}`,
        {
          port: chrome.port,
          output: "json",
          logLevel: "error",
          onlyCategories: ["performance", "accessibility"],
          disableStorageReset: cookie !== null,
          maxWaitForFcp: 90_000,
          maxWaitForLoad: 180_000,
        },
        undefined,
        tab,
      );
      if (!runner) throw new Error(`${page.name}: Lighthouse returned nothing`);
      const lhr = runner.lhr;
      if (lhr.runtimeError) throw new Error(`${page.name}: ${lhr.runtimeError.code} ${lhr.runtimeError.message}`);
      if (lhr.finalDisplayedUrl !== `${baseUrl}${page.path}`) throw new Error(`${page.name}: ended at ${lhr.finalDisplayedUrl}`);
      const flagged: string[] = [];
      for (const cat of ["performance", "accessibility"] as const) {
        for (const ref of lhr.categories[cat].auditRefs) {
          const audit = lhr.audits[ref.id];
          if (ref.weight > 0 && audit.score !== null && audit.score < 0.9) flagged.push(`${cat}: ${ref.id} (${audit.score}) ${audit.displayValue ?? ""}`.trim());
        }
      }
      const metrics: Record<string, string> = {};
      for (const id of ["first-contentful-paint", "largest-contentful-paint", "total-blocking-time", "cumulative-layout-shift", "speed-index"]) {
        metrics[id] = lhr.audits[id]?.displayValue ?? "?";
      }
      const r = { name: page.name, performance: lhr.categories.performance.score, accessibility: lhr.categories.accessibility.score, flagged, metrics };
      log(`  ${page.name.padEnd(20)} performance ${r.performance}  accessibility ${r.accessibility}  ${Object.entries(metrics).map(([k, v]) => `${k} ${v}`).join(", ")}`);
      for (const f of flagged) log(`    ${f}`);
      const lcp = lcpElement(lhr.audits["largest-contentful-paint-element"]?.details);
      if (lcp) log(`    largest contentful paint: ${lcp}`);
      const phases = lcpPhases(lhr.audits["largest-contentful-paint-element"]?.details);
      if (phases) log(`    its phases: ${phases}`);
      for (const line of heaviestScripts(lhr.audits["bootup-time"]?.details)) log(`    ${line}`);
      const work = mainThreadWork(lhr.audits["mainthread-work-breakdown"]?.details);
      if (work) log(`    main thread by kind: ${work}`);
      log(`    this host's Lighthouse benchmark index ${Math.round(lhr.environment.benchmarkIndex)}: the simulated CPU is this host slowed 4×`);
      results.push(r);
    } catch (err) {
      // One page that cannot be measured does not hide the others' scores.
      log(`  ${page.name.padEnd(20)} not measured: ${err instanceof Error ? err.message : String(err)}`);
      results.push({ name: page.name, performance: null, accessibility: null, flagged: [], metrics: {} });
    } finally {
      await browser.disconnect();
      chrome.kill();
    }
  }
  return results;
}
