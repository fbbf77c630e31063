// A repeat visit's paint without Lighthouse's trace (issue 44, docs/adr/0186). Lighthouse records a trace of
// every navigation it measures, and in every traced repeat visit of a kept page the page's main thread first
// spends ~200 ms in a task of its own (the trace's profiler starting) before the navigation commits: more
// than a third of the 0.5 s target, and nothing a reader's phone does. This measures the same visit with the
// same throttling applied to the browser (Lighthouse's mobile preset: 562.5 ms a request, 1,474.56 kbps down,
// 675 kbps up, CPU ×4, a 412 × 823 screen at 1.75) and no trace: the page's own `largest-contentful-paint`
// and `first-contentful-paint` entries, read by a PerformanceObserver (times from the navigation's start,
// as Lighthouse's), in a fresh Chromium after the same two visits as Lighthouse's repeat visit.
import { browserOf, median, seconds, visitTwice, type AppUnderTest, type Emails, type PageTarget } from "./pages";

/** Lighthouse's mobile slow-4G, applied (its `devtools` throttling method). */
const SLOW_4G = { latency: 562.5, downloadKbps: 1474.56, uploadKbps: 675, cpu: 4 };
const MOBILE_SCREEN = { width: 412, height: 823, deviceScaleFactor: 1.75, mobile: true };

type Paints = { lcp: number | null; fcp: number | null };

declare global {
  interface Window {
    __krugPaints?: { lcp: number | null; fcp: number | null };
  }
}

async function untracedOnce(baseUrl: string, page: PageTarget, emails: Emails): Promise<Paints> {
  const { chrome, browser, tab } = await browserOf(baseUrl, page.as, emails);
  try {
    const url = `${baseUrl}${page.path}`;
    await visitTwice(tab, url);
    const cdp = await tab.createCDPSession();
    await cdp.send("Emulation.setDeviceMetricsOverride", MOBILE_SCREEN);
    await cdp.send("Emulation.setCPUThrottlingRate", { rate: SLOW_4G.cpu });
    await cdp.send("Network.enable");
    await cdp.send("Network.emulateNetworkConditions", {
      offline: false,
      latency: SLOW_4G.latency,
      downloadThroughput: Math.floor((SLOW_4G.downloadKbps * 1024) / 8),
      uploadThroughput: Math.floor((SLOW_4G.uploadKbps * 1024) / 8),
    });
    await tab.evaluateOnNewDocument(() => {
      const paints = { lcp: null as number | null, fcp: null as number | null };
      window.__krugPaints = paints;
      new PerformanceObserver((list) => {
        for (const e of list.getEntries()) paints.lcp = e.startTime;
      }).observe({ type: "largest-contentful-paint", buffered: true });
      new PerformanceObserver((list) => {
        for (const e of list.getEntries()) if (e.name === "first-contentful-paint") paints.fcp = e.startTime;
      }).observe({ type: "paint", buffered: true });
    });
    const response = await tab.goto(url, { waitUntil: "load", timeout: 120_000 });
    if (tab.url() !== url) throw new Error(`ended at ${tab.url()}`);
    if (!response?.fromServiceWorker()) throw new Error("the page did not come from the service worker");
    // Later candidates (an image decoded after load) count until the first input, as in Lighthouse's 5 s quiet window.
    await new Promise((r) => setTimeout(r, 5_000));
    const paints = await tab.evaluate(() => window.__krugPaints ?? { lcp: null, fcp: null });
    await cdp.detach();
    return paints;
  } finally {
    await browser.disconnect();
    chrome.kill();
  }
}

/**
 * Each page's repeat visit, `runs` times on each app (alternating, as runLighthouse does), logged per run, then
 * the medians against the 0.5 s target.
 */
export async function runUntraced(apps: AppUnderTest[], pages: PageTarget[], runs: number, emails: Emails, log: (m: string) => void): Promise<void> {
  log(`\nRepeat visits without a trace (throttling applied: 562.5 ms, 1,474.56 kbps, CPU ×4; ${runs} runs per page${apps.length > 1 ? ", alternating the apps" : ""}):`);
  const rows: string[] = [];
  for (const page of pages) {
    const done = new Map<string, Paints[]>(apps.map((a) => [a.label, []]));
    for (let r = 0; r < runs; r++) {
      for (const app of r % 2 === 0 ? apps : [...apps].reverse()) {
        const tag = `${page.name} run ${r + 1}/${runs}${apps.length > 1 ? ` [${app.label}]` : ""}`;
        try {
          const p = await untracedOnce(app.baseUrl, page, emails);
          done.get(app.label)!.push(p);
          log(`  ${tag.padEnd(40)} LCP ${seconds(p.lcp)}  FCP ${seconds(p.fcp)}`);
        } catch (err) {
          log(`  ${tag.padEnd(40)} not measured: ${err instanceof Error ? err.message.slice(0, 160) : String(err)}`);
        }
      }
    }
    for (const app of apps) {
      const ps = done.get(app.label)!;
      const lcp = median(ps.map((p) => p.lcp));
      const target = lcp === null ? "not measured" : lcp <= 500 ? "met" : `LCP ${seconds(lcp)} > 0.5 s`;
      rows.push(
        `| ${page.name}${apps.length > 1 ? ` [${app.label}]` : ""} | ${seconds(lcp)} (${ps.map((p) => seconds(p.lcp)).join(", ")}) | ${seconds(median(ps.map((p) => p.fcp)))} | ${target} |`,
      );
    }
  }
  log("| page | LCP, median (runs) | FCP, median | target ≤ 0.5 s |");
  log("|---|---:|---:|---|");
  for (const row of rows) log(row);
}
