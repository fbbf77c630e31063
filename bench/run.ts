// `npm run bench [-- options]`: the benchmark harness (docs/adr/0090). Reports numbers; never fails on timing.
//
//   --scale=small|full   data size: small for CI's smoke run, full (default) = 100,000 accounts and 1M posts
//   --only=http|path|friends|posts|chat|groups|communities|notifications|pages|lighthouse|posthtml|export|search   one benchmark, or several with commas
//                        (--only=pages,lighthouse; default: all, HTTP first)
//                        pages: bytes of /login, the feed, /profile and a dialog (HTML, payload, messages, CSS,
//                        fonts, first-load JS), then every page route's first-load JS; lighthouse: Lighthouse
//                        on the four pages on the system Chromium (CHROME_PATH, default /usr/bin/chromium),
//                        BENCH_LIGHTHOUSE_RUNS runs each (default 3), medians (BENCH_LIGHTHOUSE_TRACE_DIR keeps each
//                        run's trace there; BENCH_LIGHTHOUSE_METRICS_ONLY=1 runs the metrics' audits alone,
//                        without the gatherers that instrument the page). Both in bench/pages.ts.
//                        Lighthouse measures the trivial page first (Next.js alone: bench/trivial-page.ts,
//                        built when missing), the framework's floor on this host in this run.
//   --pages=<words>      lighthouse only on the target pages whose names hold one of the words (login,feed,profile,dialog)
//   --throttling=<m>     lighthouse's throttling: simulate, devtools (applied to the browser), or both (default simulate,devtools)
//   --visits=<v>         lighthouse on first visits, repeat visits (the page kept by the service worker), or both
//                        (default first,repeat); every page is measured in every combination (issue 44); a repeat
//                        visit with devtools throttling is then measured again without Lighthouse's trace, the
//                        page's own paint entries (bench/untraced.ts, docs/adr/0186)
//   --no-trivial         lighthouse without the trivial page (its build waits for the machine's build lock)
//   --baseline=<rev>     pages and lighthouse measure that commit's build too, side by side, in the same run
//                        (or BENCH_BASELINE_DIR=<checkout with a build>; bench/baseline.ts)
//                        posthtml: the post HTML pre-check and sanitiser on the worst accepted and the
//                        hostile posts, and the feed with such posts over HTTP (bench/post-html.ts).
//                        search: people search (1, 2, 3 letters, a whole name) with the Postgres backend's CPU
//                        per call, BENCH_SEARCH_ROUNDS rounds of 20 (bench/people-search.ts, docs/adr/0136).
//                        export: the "download my data" archive of accounts with 1,000, 10,000 and 30,000 posts, time
//                        and peak memory, each built in a child process (bench/export.ts, docs/adr/0127).
//   --only=robustness    (only when named) the OpenAPI-driven robustness test of issue 29, long: BENCH_ROBUSTNESS_RUNS
//                        requests per operation (200) on a database of the bench's Postgres (bench/robustness.ts, ADR 0138).
//   --only=soak          (only when named) the soak of issue 30: BENCH_SOAK_PEOPLE people (200) for BENCH_SOAK_SECONDS
//                        (600) on its own embedded Postgres, with faults (BENCH_SOAK_FAULTS=worker,sidecar,postgres,
//                        rolling — all by default, 0: none; ADR 0149 for rolling); 0 lost, 0 duplicated, errors
//                        outside the outages, RSS and heap slopes (sampled each minute; BENCH_SOAK_SAMPLE_S=15 for
//                        denser), sockets refused or not READY, p99 per action (bench/soak.ts, ADR 0145).
//   --only=federation    (only when named) fediverse delivery of issue 43: one post to BENCH_FEDERATION_FOLLOWERS remote
//                        followers (10,000) on BENCH_FEDERATION_SERVERS stand-in servers (500), time from the commit until all
//                        have it, HTTP requests, Postgres CPU per delivery, beside plain POSTs; then with BENCH_FEDERATION_DEAD
//                        servers (10) that never answer, waiting BENCH_FEDERATION_DEAD_WAIT s (330) at most; on a fresh
//                        database krug_bench_federation of the bench's Postgres (bench/federation-delivery.ts, ADR 0175).
//   --build              run `next build` first (otherwise the existing build is reused, or made when missing)
//   --explain            print the query plans of the service benchmarks
//
// Database: BENCH_DATABASE_URL, else DATABASE_URL, else an embedded Postgres kept in BENCH_DATA_DIR
// (default .data-bench); created and migrated when needed, generated data kept between runs.
// HTTP: the app is started as `npm start` starts it on BENCH_PORT (default 3500; realtime on the next
// port), driven with autocannon at 1 and 8 connections, and the results written to bench/results/.
// Settings (bench only, not app settings; each has a default per scale): BENCH_ACCOUNTS,
// BENCH_HUB_FRIENDS, BENCH_EDGES_PER_ACCOUNT, BENCH_SKEW (graph), BENCH_POSTS, BENCH_TAGS,
// BENCH_REACTIONS_PER_POST (posts), BENCH_SECONDS and BENCH_WARMUP (seconds) per HTTP measurement,
// BENCH_RUNS (per service query); chat: BENCH_CHAT_RATES, BENCH_CHAT_SECONDS, BENCH_CHAT_PAIRS, BENCH_CHAT_SOCKETS;
// groups (bench/groups.ts, docs/adr/0169): BENCH_GROUP_MEMBERS (500), BENCH_GROUP_RATE (20/s), BENCH_GROUP_SECONDS (10), BENCH_GROUP_RESTART_SECONDS (30),
// BENCH_GROUP_ROUNDS, BENCH_GROUP_CALLS, BENCH_GROUP_WRITES, BENCH_GROUP_LIST_CALLS;
// notifications: BENCH_NOTIFICATIONS (rows for the bell's page 0 and count).
import { execFileSync } from "node:child_process";
import os from "node:os";
import { closeDb } from "@/db/client";
import path from "node:path";
import { BENCH_WRITE_LIMITS, benchDataDir, buildApp, buildInfo, openBenchDatabase, startApp, type RunningApp } from "./app";
import { prepareBaseline } from "./baseline";
import { runUntraced } from "./untraced";
import { benchChat, printChat } from "./chat";
import { benchGroups, printGroups } from "./groups";
import { benchCommunities, printCommunities } from "./communities";
import { cpuSampler } from "./cpu";
import { prepareBenchDatabase } from "./database";
import { benchFederation, printFederation } from "./federation-delivery";
import { benchFriends, printTimings } from "./friends";
import { ensureGraph, graphParamsFromEnv } from "./generate-graph";
import { preparePeople, runHttpScenarios } from "./http";
import { benchNotifications } from "./notifications";
import { prepareDialog, preparePageAccounts } from "./page-data";
import { appRoutes, inModes, printLighthouse, printRouteWeights, printWeights, runLighthouse, targetPages, weighPages, weighRoutes, type AppUnderTest, type PageTarget } from "./pages";
import { benchExport, printExport } from "./export";
import { benchPostHtmlHttp, benchSanitiser, printSanitiser } from "./post-html";
import { benchPeopleSearch, printPeopleSearch } from "./people-search";
import { benchPosts, ensurePosts, postParamsFromEnv } from "./posts";
import { benchRequestPath, printRequestPath } from "./request-path";
import { saveRun } from "./report";
import { benchSoak, printSoak } from "./soak";
import { benchRobustness, printRobustness } from "./robustness";
import { startTrivialPage } from "./trivial-page";

const SCALES = {
  small: {
    BENCH_ACCOUNTS: "2000",
    BENCH_HUB_FRIENDS: "300",
    BENCH_EDGES_PER_ACCOUNT: "10",
    BENCH_POSTS: "20000",
    BENCH_TAGS: "300",
    BENCH_SECONDS: "1",
    BENCH_WARMUP: "0.25",
    BENCH_RUNS: "10",
  },
  full: {
    BENCH_ACCOUNTS: "100000",
    BENCH_HUB_FRIENDS: "5000",
    BENCH_EDGES_PER_ACCOUNT: "75",
    BENCH_POSTS: "1000000",
    BENCH_TAGS: "5000",
    BENCH_SECONDS: "10",
    BENCH_WARMUP: "2",
    // A p99 needs at least 100 samples to be more than the worst one: 200 keeps it the second worst.
    BENCH_RUNS: "200",
  },
} as const;

type Scale = keyof typeof SCALES;
const arg = (name: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);

function commit(): string {
  try {
    const sha = execFileSync("git", ["rev-parse", "--short", "HEAD"], { encoding: "utf8" }).trim();
    const dirty = execFileSync("git", ["status", "--porcelain", "--untracked-files=no"], { encoding: "utf8" }).trim();
    return dirty ? `${sha}+changes` : sha;
  } catch {
    return "?";
  }
}

async function benchHttp(url: string, scale: Scale, databaseLabel: string): Promise<void> {
  const startedAt = new Date().toISOString();
  const loadBefore = Number(os.loadavg()[0].toFixed(1));
  const graph = await ensureGraph(url, graphParamsFromEnv());
  const posts = postParamsFromEnv(graph);
  await ensurePosts(url, graph, posts, console.log);
  const people = await preparePeople(url, graph);
  if (process.argv.includes("--build")) await buildApp();
  else if (!buildInfo()) console.log("no build found: npm start builds it first");
  const port = Number(process.env.BENCH_PORT ?? 3500);
  console.log(`starting the app on :${port} …`);
  const app = await startApp({ databaseUrl: url, port, realtimePort: port + 1 });
  const timing = { seconds: Number(process.env.BENCH_SECONDS), warmup: Number(process.env.BENCH_WARMUP) };
  try {
    console.log(`HTTP scenarios (${timing.seconds} s each at 1 and 8 connections; signed in as account ${people.me.id}, hub ${people.hub.id}):`);
    const http = await runHttpScenarios(app.baseUrl, people, timing, console.log, cpuSampler(app.pid));
    const { markdown, files } = saveRun({
      meta: {
        startedAt,
        scale,
        commit: commit(),
        build: buildInfo(),
        database: databaseLabel,
        data: { ...graph.stats, posts: posts.posts, tags: posts.tags },
        seconds: timing.seconds,
        machine: { cpus: os.cpus().length, node: process.version, loadBefore, loadAfter: Number(os.loadavg()[0].toFixed(1)) },
      },
      http,
    });
    console.log(`\n${markdown}`);
    console.log(`written: ${files.join(", ")}`);
  } finally {
    await app.stop();
  }
}

/**
 * Page weight and Lighthouse (bench/pages.ts): the app on the generated data, signed in as the median
 * account (the admin pages as the bench administrator); with a baseline, its build too, on the same
 * database, measured in the same run (bench/baseline.ts).
 */
async function benchPages(url: string, which: { weights: boolean; lighthouse: boolean }): Promise<void> {
  const graph = await ensureGraph(url, graphParamsFromEnv());
  await ensurePosts(url, graph, postParamsFromEnv(graph), console.log);
  const people = await preparePeople(url, graph);
  const accounts = await preparePageAccounts(url, people);
  const emails = { me: people.me.email, admin: accounts.admin.email };
  if (process.argv.includes("--build")) await buildApp();
  const baseline = await prepareBaseline(arg("baseline"), console.log);
  const port = Number(process.env.BENCH_PORT ?? 3500);
  console.log(`starting the app on :${port} for the pages …`);
  const app = await startApp({ databaseUrl: url, port, realtimePort: port + 1 });
  let before: RunningApp | null = null;
  let trivial: RunningApp | null = null;
  // --pages=login,dialog: Lighthouse only on the target pages whose names hold one of the words (the trivial page always runs).
  const only = arg("pages")?.split(",");
  try {
    const dialogId = await prepareDialog(url, app.baseUrl, people, accounts.friendEmail);
    const data = { ...accounts, dialogId, meId: people.me.id, friendId: people.friendId };
    // The tree's commit names the build only when this run made it; otherwise the build directory does.
    const current: AppUnderTest = { label: process.argv.includes("--build") ? `after ${commit()}` : `after ${process.env.NEXT_DIST_DIR || ".next"}`, baseUrl: app.baseUrl };
    const apps: AppUnderTest[] = [current];
    if (baseline) {
      const basePort = Number(process.env.BENCH_BASELINE_PORT ?? port + 10);
      console.log(`starting the baseline (${baseline.label}, ${baseline.dir}) on :${basePort} …`);
      before = await startApp({ databaseUrl: url, port: basePort, realtimePort: basePort + 1, checkout: baseline, name: "app-baseline" });
      apps.unshift({ label: baseline.label, baseUrl: before.baseUrl });
    }
    console.log(
      `build ${app.buildId} of ${buildInfo()?.builtAt ?? "?"}${before ? ` (baseline build ${before.buildId})` : ""}; signed in as account ${people.me.id}, ` +
        `dialog ${dialogId} with account ${people.friendId}, administrator ${accounts.admin.id}`,
    );
    const pages = targetPages(data);
    if (which.weights) {
      for (const a of apps) {
        if (apps.length > 1) console.log(`\n== ${a.label} ==`);
        printWeights(await weighPages(a.baseUrl, pages, emails), console.log);
      }
      const routes = appRoutes(path.resolve("app"));
      const sets = [];
      for (const a of apps) sets.push({ label: a.label, routes: await weighRoutes(a.baseUrl, routes, data, emails) });
      printRouteWeights(sets, console.log);
    }
    if (which.lighthouse) {
      const runs = Number(process.env.BENCH_LIGHTHOUSE_RUNS ?? 3);
      // The framework's floor beside Krug's pages: Next.js and React with a two-field form and nothing else
      // (bench/trivial-page.ts), measured first, in the same run on the same host.
      const throttlings = (arg("throttling") ?? "simulate,devtools").split(",").filter((t): t is "simulate" | "devtools" => t === "simulate" || t === "devtools");
      const visits = (arg("visits") ?? "first,repeat").split(",").filter((v): v is "first" | "repeat" => v === "first" || v === "repeat");
      // The trivial page has no worker: it is measured on first visits only.
      // --no-trivial: without it (its build waits for the machine's build lock, which others may hold for long).
      if (visits.includes("first") && !process.argv.includes("--no-trivial")) trivial = await startTrivialPage(port + 20, path.join(benchDataDir(), "trivial-page.log"), console.log);
      const measured: PageTarget[] = inModes(
        [
          ...(trivial ? [{ name: "trivial page", path: "/", as: null, app: { label: "Next.js alone", baseUrl: trivial.baseUrl } }] : []),
          ...pages.filter((p) => !only || only.some((word) => p.name.includes(word))),
        ],
        visits.flatMap((visit) => throttlings.map((throttling) => ({ visit, throttling }))),
      );
      console.log(
        `\nLighthouse (mobile; ${visits.join(" and ")} visits; throttling ${throttlings.join(" and ")}; ${runs} runs per page${apps.length > 1 ? ", alternating the apps" : ""}; ` +
          "performance is timed, so noisy under load):",
      );
      const load = () => os.loadavg().map((x) => x.toFixed(1)).join(" ");
      const loadBefore = load();
      const summaries = await runLighthouse(apps, measured, emails, runs, console.log);
      printLighthouse(apps, summaries, console.log);
      // Issue 44's repeat-visit target, measured again without Lighthouse's trace (bench/untraced.ts).
      if (visits.includes("repeat") && throttlings.includes("devtools")) {
        await runUntraced(apps, pages.filter((p) => !only || only.some((word) => p.name.includes(word))), runs, emails, console.log);
      }
      console.log(`load average (1, 5, 15 min) before Lighthouse ${loadBefore}, after ${load()}; ${os.cpus().length} CPUs`);
      if (os.loadavg()[1] > os.cpus().length) {
        console.log("the machine was busy (5-minute load above its CPUs): performance, TBT and LCP say little beyond before against after of this run");
      }
    }
  } finally {
    await trivial?.stop();
    await before?.stop();
    await app.stop();
  }
}

async function main() {
  const scale = (arg("scale") ?? "full") as Scale;
  if (!(scale in SCALES)) throw new Error(`--scale must be one of ${Object.keys(SCALES).join(", ")}`);
  for (const [k, v] of Object.entries(SCALES[scale])) process.env[k] ??= v;
  const only = arg("only");
  const explain = process.argv.includes("--explain");
  // --only=pages,lighthouse: several, in the harness's order.
  const runs = (name: string) => !only || only.split(",").includes(name);
  // The soak keeps its own embedded cluster (it restarts it) and runs only when named.
  if (only === "soak") {
    printSoak(await benchSoak(), console.log);
    return;
  }

  const database = await openBenchDatabase();
  console.log(`benchmark database: ${database.label}; scale ${scale}`);
  try {
    // Only when named: needs no generated data, only a Postgres to make its test databases on.
    if (only === "robustness") {
      printRobustness(await benchRobustness(database.url), console.log);
      return;
    }
    // Only when named: a database of its own, made fresh from the migrations; its dead-server run waits minutes.
    if (only === "federation") {
      printFederation(await benchFederation(database.url), console.log);
      return;
    }
    await prepareBenchDatabase(database.url);
    if (runs("http")) await benchHttp(database.url, scale, database.label);
    if (runs("pages") || runs("lighthouse")) await benchPages(database.url, { weights: runs("pages"), lighthouse: runs("lighthouse") });
    // The data export's archive at 1,000, 10,000 and 30,000 posts, each in a child process (docs/adr/0127).
    if (runs("export")) printExport(await benchExport(database.url), console.log);
    if (runs("posthtml")) {
      printSanitiser(benchSanitiser(Number(process.env.BENCH_RUNS)), console.log);
      await benchPostHtmlHttp(database.url, console.log);
    }
    // The service benchmarks run in this process: the services read DATABASE_URL through db/client.
    process.env.DATABASE_URL = database.url;
    process.env.LOG_LEVEL ??= "warn";
    // The chat bench signs tokens that its own sidecar process must accept.
    process.env.AUTH_SECRET ??= `bench-${Date.now()}-secret-of-at-least-32-characters`;
    // The service benches write far faster than a person: see BENCH_WRITE_LIMITS (ADR 0109).
    Object.assign(process.env, BENCH_WRITE_LIMITS, {
      RATE_LIMIT_FRIEND_REQUEST: "1000000/1m",
      // The groups bench makes some sixty conversations, one of 500, in seconds.
      RATE_LIMIT_GROUP_CREATE: "1000000/1m",
      RATE_LIMIT_GROUP_ADD: "1000000/1m",
      RATE_LIMIT_COMMUNITY_CREATE: "1000000/1m",
      RATE_LIMIT_COMMUNITY_JOIN: "1000000/1m",
    });
    try {
      if (runs("path")) {
        // Its people-search calls count against the search limit like any other; the bench is not a scraper.
        process.env.RATE_LIMIT_SEARCH = "1000000/5m";
        const graph = await ensureGraph(database.url, graphParamsFromEnv());
        printRequestPath(await benchRequestPath(database.url, graph.typicalId, { rounds: 15, perRound: 100 }));
      }
      // People search's service verb on one connection, with that backend's CPU per call (docs/adr/0136).
      if (runs("search")) {
        const graph = await ensureGraph(database.url, graphParamsFromEnv());
        printPeopleSearch(await benchPeopleSearch(database.url, graph.typicalId, { rounds: Number(process.env.BENCH_SEARCH_ROUNDS ?? 9), perRound: 20, explain }));
      }
      if (runs("friends")) printTimings("friends", await benchFriends(database.url, { explain }));
      if (runs("posts")) printTimings("posts", await benchPosts(database.url, { explain }));
      if (runs("chat")) printChat(await benchChat());
      // Group conversations (issue 41, docs/adr/0169): delivery to 500 sockets and across a sidecar restart,
      // the database's cost per message at 5, 50 and 500 members, the dialog list with 50 groups.
      if (runs("groups")) printGroups(await benchGroups(database.url, { explain }));
      if (runs("notifications")) printTimings("notifications", await benchNotifications(database.url, { explain }));
      // Communities (issue 42, docs/adr/0170): a member's feed with 20 communities (one of 100,000), a wall,
      // search at 100,000 communities, and how soon a post is in its members' feeds.
      if (runs("communities")) printCommunities(await benchCommunities(database.url, { explain }));
    } finally {
      await closeDb();
    }
  } finally {
    await database.stop();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
