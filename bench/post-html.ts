// Post HTML benchmark (issue 24 items 1 and 2, docs/adr/0107): `npm run bench -- --only=posthtml`.
//
// 1. In this process: the linear pre-check and the sanitiser on the worst posts the pre-check accepts (each
//    shape filled up to a bound: elements, depth, elements outside the allowlist, 50,000 characters), the
//    hostile posts of the issue (refused: the pre-check and the plain-text rendering of a stored one), and
//    visibleText on 50,000 "<". Wall time and the process's CPU time, median and worst of BENCH_RUNS.
// 2. Over HTTP, beside the trivial handler of the same run: a friend of the signed-in account gets five
//    of the worst accepted posts (stored as the service stores them: sanitised), then five hostile rows
//    written as they are (a database from before the bound); the feed page (/) and the feed API are
//    driven at 1 and 8 connections, after one cold request timed alone (the render cache is empty then).
//    The rows are deleted afterwards: the bench database is kept between runs (ADR 98).
import postgres from "postgres";
import { HOSTILE_POST_HTML } from "@/tests/support/hostile-post-html";
import { POST_HTML_MAX_DEPTH, measurePostHtml } from "@/lib/validation/post-html-bounds";
import { sanitizePostHtml } from "@/lib/validation/post-html";
import { POST_TEXT_MAX, visibleText } from "@/lib/validation/post-shared";
import { buildApp, buildInfo, startApp } from "./app";
import { cpuSampler } from "./cpu";
import { ensureGraph, graphParamsFromEnv } from "./generate-graph";
import { TRIVIAL, preparePeople, runScenario, signIn, type Scenario, type ScenarioResult, type Timing } from "./http";
import { ensurePosts, postParamsFromEnv } from "./posts";

/** `unit` repeated while the whole stays within the pre-check's bounds and the 50,000 characters of a post. */
function fill(unit: string, start = ""): string {
  let html = start;
  while (html.length + unit.length <= POST_TEXT_MAX && measurePostHtml(html + unit).ok) html += unit;
  return html;
}

const nest = (tag: string, depth: number) => `<${tag}>`.repeat(depth) + "x" + `</${tag}>`.repeat(depth);

/** The worst posts the pre-check accepts, one per shape that costs the sanitiser most. */
export function worstAcceptedPosts(): Record<string, string> {
  return {
    "flat paragraphs": fill("<p>ab</p>"),
    "p > strong > em": fill("<p><strong><em>a</em></strong></p>"),
    "blockquotes at the depth bound": fill(nest("blockquote", POST_HTML_MAX_DEPTH - 1)),
    "strong at the depth bound": fill(nest("strong", POST_HTML_MAX_DEPTH - 1)),
    "nested lists": fill("<ul><li><p>a</p><ul><li><p>b</p></li></ul></li></ul>"),
    links: fill('<a href="https://example.com/a">l</a> '),
    "removed elements, then links": fill('<a href="https://example.com/a">l</a> ', fill("<span>a</span>")),
    "a misnesting, then paragraphs": fill("<p>ab</p>", "<em><p>x</em>y</p>"),
  };
}

type Row = { name: string; chars: number; shape: string; check: number; sanitise: { median: number; max: number; cpu: number } | null; plain?: number };

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

function timeIt(runs: number, fn: () => unknown): { median: number; max: number; cpu: number } {
  const wall: number[] = [];
  const cpu: number[] = [];
  for (let i = 0; i < runs; i++) {
    const c = process.cpuUsage();
    const t = performance.now();
    fn();
    wall.push(performance.now() - t);
    const used = process.cpuUsage(c);
    cpu.push((used.user + used.system) / 1000);
  }
  return { median: median(wall), max: Math.max(...wall), cpu: median(cpu) };
}

/** Part 1: the pre-check and the sanitiser in this process. */
export function benchSanitiser(runs: number): Row[] {
  sanitizePostHtml("<p>warm-up</p>");
  const rows: Row[] = [];
  for (const [name, html] of Object.entries(worstAcceptedPosts())) {
    const m = measurePostHtml(html);
    // A space more each run: the sanitiser keeps no memo, but the same string must not be reused by chance.
    let k = 0;
    rows.push({
      name: `accepted: ${name}`,
      chars: html.length,
      shape: `${m.elements} el, depth ${m.depth}, ${m.removed} removed`,
      check: timeIt(runs, () => measurePostHtml(html)).median,
      sanitise: timeIt(runs, () => sanitizePostHtml(html + " ".repeat(k++ % 3))),
    });
  }
  for (const [name, html] of Object.entries(HOSTILE_POST_HTML)) {
    const m = measurePostHtml(html);
    rows.push({
      name: `refused: ${name}`,
      chars: html.length,
      shape: `stopped at ${m.elements} el, depth ${m.depth}`,
      check: timeIt(runs, () => measurePostHtml(html)).median,
      sanitise: null,
      plain: timeIt(runs, () => sanitizePostHtml(html)).median,
    });
  }
  const lt = "<".repeat(50_000);
  rows.push({ name: "visibleText: 50,000 '<'", chars: lt.length, shape: "-", check: timeIt(runs, () => visibleText(lt)).median, sanitise: null });
  return rows;
}

export function printSanitiser(rows: Row[], log: (m: string) => void): void {
  log("post HTML: pre-check and sanitiser (ms; wall median / worst, CPU median)");
  for (const r of rows) {
    const s = r.sanitise ? `sanitise ${r.sanitise.median.toFixed(1)} / ${r.sanitise.max.toFixed(1)}, CPU ${r.sanitise.cpu.toFixed(1)}` : r.plain !== undefined ? `rendered as text ${r.plain.toFixed(2)}` : "";
    log(`  ${r.name.padEnd(44)} ${String(r.chars).padStart(6)} ch  ${r.shape.padEnd(34)} check ${r.check.toFixed(2).padStart(6)}  ${s}`);
  }
}

/** Part 2: the feed with such posts over HTTP, beside the trivial handler. */
export async function benchPostHtmlHttp(url: string, log: (m: string) => void): Promise<void> {
  const graph = await ensureGraph(url, graphParamsFromEnv());
  await ensurePosts(url, graph, postParamsFromEnv(graph), log);
  const people = await preparePeople(url, graph);
  if (process.argv.includes("--build")) await buildApp();
  else if (!buildInfo()) log("no build found: npm start builds it first");
  const port = Number(process.env.BENCH_PORT ?? 3500);
  const app = await startApp({ databaseUrl: url, port, realtimePort: port + 1 });
  const db = postgres(url, { max: 1, onnotice: () => {} });
  const t: Timing = { seconds: Number(process.env.BENCH_SECONDS), warmup: Number(process.env.BENCH_WARMUP) };
  const sampler = cpuSampler(app.pid);
  const show = (r: ScenarioResult) =>
    log(`  ${r.name.padEnd(34)} ${r.runs.map((m) => `${m.connections}c ${m.rps.toFixed(0).padStart(5)} req/s p50/p95/p99 ${m.p50.toFixed(1)}/${m.p95.toFixed(1)}/${m.p99.toFixed(1)} ms`).join("   ")}`);
  const trivial: Scenario = { name: TRIVIAL, path: "/api/health", as: null };
  try {
    log(`post HTML over HTTP (build ${app.buildId}; ${t.seconds} s at 1 and 8 connections; account ${people.me.id}, posts by its friend ${people.friendId}):`);
    show(await runScenario(app.baseUrl, trivial, null, t, sampler));
    const cookie = await signIn(app.baseUrl, people.me.email);
    // The feed as generated first: the baseline, and the page's route warmed up before any cold render is timed.
    show(await runScenario(app.baseUrl, { name: "feed page (/), generated posts", path: "/", as: "me", page: true }, cookie, t, sampler));
    show(await runScenario(app.baseUrl, { name: "feed API, generated posts", path: "/api/v1/post/newsPosts?withFriends=true", as: "me" }, cookie, t, sampler));
    const sets: [string, string[]][] = [
      ["5 worst accepted posts", Object.values(worstAcceptedPosts()).slice(0, 5).map((h) => sanitizePostHtml(h))],
      ["5 hostile rows from before the bound", Object.values(HOSTILE_POST_HTML)],
    ];
    for (const [label, texts] of sets) {
      const ids: number[] = [];
      try {
        for (const text of texts) {
          const [row] = await db<{ id: string }[]>`
            insert into posts (author_id, title, post_text, publish_date) values (${people.friendId}, 'Bench post HTML', ${text}, now()) returning id`;
          ids.push(Number(row.id));
        }
        const started = performance.now();
        const cold = await fetch(`${app.baseUrl}/`, { headers: { cookie, accept: "text/html" } });
        const body = await cold.text();
        const coldMs = performance.now() - started;
        const shown = ids.filter((id) => body.includes(`data-post-id="${id}"`)).length;
        log(`  ${label}: first feed page (cold render cache) ${cold.status} in ${coldMs.toFixed(0)} ms, ${shown} of ${ids.length} posts on it, ${body.length} bytes`);
        show(await runScenario(app.baseUrl, { name: `feed page (/), ${label.split(" ").slice(0, 3).join(" ")}`, path: "/", as: "me", page: true }, cookie, t, sampler));
        show(await runScenario(app.baseUrl, { name: `feed API, ${label.split(" ").slice(0, 3).join(" ")}`, path: "/api/v1/post/newsPosts?withFriends=true", as: "me" }, cookie, t, sampler));
      } finally {
        if (ids.length) await db`delete from posts where id in ${db(ids)}`;
      }
    }
    show(await runScenario(app.baseUrl, trivial, null, t, sampler));
  } finally {
    await db.end({ timeout: 5 });
    await app.stop();
  }
}
