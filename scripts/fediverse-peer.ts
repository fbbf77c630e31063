// A stand-in remote Krug for journeys (issue 43): a fresh migrated database, Krug's federation (Fedify, its
// queue and the outbox relay) behind an HTTP server on 127.0.0.1:<port>, and one person with federation on.
// The journey follows that person from the Krug under test and asks the stand-in to publish:
//
//   node --conditions=react-server --import tsx scripts/fediverse-peer.ts --port 3310
//
// prints one line `FEDIVERSE_PEER {"origin":…,"person":{"id":…,"profileUrl":…,"name":…}}` once it is ready, and
// answers, only on 127.0.0.1 (the control endpoint):
//   POST /__control/person {"firstName", "lastName"}  another person with federation on → {id, profileUrl, name}
//   POST /__control/post {"personId"?, "title"?, "text"}  a post of theirs (the first person's by default) → {id}
//   GET /__control/followers?personId=  how many people of other servers follow them → {count}
//   POST /__control/follow {"personId"?, "profileUrl"}  they follow a person of another server (by profile URL) → {}
// SIGTERM or
// SIGINT (or, with --stop-with-stdin, the end of its input) stops it and drops its database. Needs DATABASE_URL (any database of the server: the stand-in
// makes its own, krug_fedipeer_<port>, dropped first if a killed run left it).
import "./lib/runtime"; // first: the Node.js check, telemetry off (docs/adr/0160)
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { ServerResponse } from "node:http";
import postgres from "postgres";

function argOf(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

const port = Number(argOf("port") ?? process.env.FEDIVERSE_PEER_PORT ?? "3310");
const firstName = argOf("first-name") ?? "Вера";
const lastName = argOf("last-name") ?? "Соседова";
const serverUrl = process.env.DATABASE_URL;
if (!serverUrl) {
  console.error("fediverse-peer: DATABASE_URL is required (the stand-in makes a database of its own on that server)");
  process.exit(2);
}
const dbName = `krug_fedipeer_${port}`;

function withDatabase(url: string, name: string): string {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
}

async function main() {
  const admin = postgres(withDatabase(serverUrl!, "postgres"), { max: 1, onnotice: () => {} });
  await admin.unsafe(`drop database if exists ${dbName} with (force)`);
  await admin.unsafe(`create database ${dbName}`);
  const databaseUrl = withDatabase(serverUrl!, dbName);
  const dataDir = mkdtempSync(path.join(tmpdir(), "krug-fedipeer-"));
  const origin = `http://127.0.0.1:${port}`;
  // This process is the stand-in: its services (limits, queues, links) read its own settings.
  Object.assign(process.env, { DATABASE_URL: databaseUrl, PUBLIC_URL: origin, DATA_DIR: dataDir, FEDERATION_ALLOW_PRIVATE_ADDRESSES: "1", LOG_LEVEL: process.env.LOG_LEVEL ?? "warn" });

  const { runMigrations } = await import("@/db/migrate");
  await runMigrations(databaseUrl);
  const { closeDb, getDb, getSql } = await import("@/db/client");
  const { closeRateLimitStore } = await import("@/lib/server/http/rate-limit");
  const { listenLocal, prepareJobQueues, startKrugPeer } = await import("../tests/support/krug-peer");
  const { createPost } = await import("@/lib/server/services/posts/write-posts");
  const { subscribeToAccount } = await import("@/lib/server/services/friends/actions");
  const { lookupRemoteAccount } = await import("@/lib/server/federation/federation");
  const { sql } = await import("drizzle-orm");
  await prepareJobQueues(databaseUrl);
  // The process's own pool (DATABASE_URL is the stand-in's): the services' helpers use it too.
  const db = getDb();
  const pg = getSql();
  // Its people's ids start somewhere new each run: a Krug under test that outlives a stand-in (a reused e2e
  // server) must not take a new person's profile URL for one it already knows from an earlier run.
  await db.execute(sql`select setval('accounts_id_seq', (100000 + floor(random() * 800000))::bigint)`);
  const { server } = await listenLocal(port);

  type Person = Awaited<ReturnType<Awaited<ReturnType<typeof startKrugPeer>>["person"]>> & { name: string };
  const people = new Map<number, Person>();
  let first: Person | null = null;
  const personOf = (id: unknown) => (id === undefined || id === null ? first : (people.get(Number(id)) ?? null));
  const shown = (p: Person) => ({ id: p.id, profileUrl: p.profileUrl, name: p.name });

  const peer = await startKrugPeer({
    server,
    origin,
    db,
    sql: pg,
    // The control endpoint: this machine's journeys only (the server listens on 127.0.0.1 alone).
    async extra(req, res, body) {
      // Every request on one line: the journey keeps this output for a failure's post-mortem.
      const started = new Date();
      res.on("finish", () => console.log(`${started.toISOString()} ${req.method} ${req.url} accept=${req.headers.accept ?? ""} → ${res.statusCode} in ${Date.now() - started.getTime()} ms`));
      if (!req.url?.startsWith("/__control/")) return false;
      if (!["127.0.0.1", "::ffff:127.0.0.1"].includes(req.socket.remoteAddress ?? "")) return answer(res, 403, {});
      const url = new URL(req.url, origin);
      const input = (body?.length ? JSON.parse(body.toString("utf8")) : {}) as { personId?: number; firstName?: string; lastName?: string; title?: string; text?: string; profileUrl?: string };
      if (req.method === "POST" && url.pathname === "/__control/person") {
        const name = { first: input.firstName || firstName, last: input.lastName || lastName };
        const made = { ...(await peer.person(name.first, name.last)), name: `${name.first} ${name.last}` };
        people.set(made.id, made);
        return answer(res, 200, shown(made));
      }
      if (req.method === "POST" && url.pathname === "/__control/post") {
        const author = personOf(input.personId);
        if (!author) return answer(res, 404, {});
        const post = await createPost({ ctx: author.ctx, input: { title: input.title || "Запись", postText: `<p>${escapeHtml(input.text ?? "")}</p>` } });
        return answer(res, 200, { id: post.id });
      }
      if (req.method === "GET" && url.pathname === "/__control/followers") {
        const author = personOf(url.searchParams.get("personId"));
        if (!author) return answer(res, 404, {});
        const [row] = await db.execute<{ n: number }>(sql`select count(*)::int as n from fediverse_followers where account_id = ${author.id}`);
        return answer(res, 200, { count: row?.n ?? 0 });
      }
      if (req.method === "POST" && url.pathname === "/__control/follow") {
        const follower = personOf(input.personId);
        const target = input.profileUrl ? await lookupRemoteAccount(peer.instance, input.profileUrl) : null;
        if (!follower || !target) return answer(res, 404, {});
        await subscribeToAccount({ ctx: follower.ctx, input: { id: target.accountId } });
        return answer(res, 200, {});
      }
      return answer(res, 404, {});
    },
    async onStop() {
      // Every pool of the process first (the services' own, the limits'), then the database goes.
      await Promise.all([closeDb(), closeRateLimitStore()]);
      await admin.unsafe(`drop database if exists ${dbName} with (force)`);
      await admin.end();
      rmSync(dataDir, { recursive: true, force: true });
    },
  });
  first = { ...(await peer.person(firstName, lastName)), name: `${firstName} ${lastName}` };
  people.set(first.id, first);

  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    peer.stop().then(
      () => process.exit(0),
      (err: unknown) => {
        console.error("fediverse-peer: stop failed", err);
        process.exit(1);
      },
    );
  };
  process.on("SIGTERM", stop);
  process.on("SIGINT", stop);
  // `--stop-with-stdin`: a parent (a journey) that goes away without a signal closes the pipe, which stops it too.
  if (process.argv.includes("--stop-with-stdin")) {
    process.stdin.on("end", stop);
    process.stdin.resume();
  }
  console.log(`FEDIVERSE_PEER ${JSON.stringify({ origin, person: shown(first) })}`);
}

function answer(res: ServerResponse, status: number, data: object): true {
  res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(data));
  return true;
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[c]!);
}

main().catch((err: unknown) => {
  console.error("fediverse-peer:", err);
  process.exit(1);
});
