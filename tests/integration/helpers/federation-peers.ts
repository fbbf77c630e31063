// Two Krug instances in one test process (issue 43): each its own database (cloned from the migrated
// template), its own HTTP server on 127.0.0.1 and PUBLIC_URL-like origin, its own Fedify with its queue and
// outbox relay running — so a Follow, a post or an Undo crosses real HTTP with real signatures between them.
import { randomBytes } from "node:crypto";
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { sql } from "drizzle-orm";
import { PgBoss } from "pg-boss";
import postgres from "postgres";
import { inject } from "vitest";
import { createDb, createSql, getDb, getSql, type Db } from "@/db/client";
import type { Viewer } from "@/lib/server/auth/viewer";
import { createKrugFederation, startFederationWorkers, type KrugFederation } from "@/lib/server/federation/federation";
import { federationResponse } from "@/lib/server/federation/handler";
import { ensureActorKeys } from "@/lib/server/federation/keys";
import { QUEUES } from "@/lib/server/jobs/boss";
import { createAccount } from "@/lib/server/services/accounts/create-account";
import { getBlobStore } from "@/lib/server/storage/blob-store";
import type { ServiceCtx } from "@/lib/server/services/context";

export type Peer = {
  instance: KrugFederation;
  db: Db;
  origin: string;
  /** A local person of this instance with federation on (and keys), and a service context acting as them. */
  person(firstName: string): Promise<{ id: number; viewer: Viewer; ctx: ServiceCtx; profileUrl: string }>;
  stop(): Promise<void>;
};

async function body(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/**
 * An instance. `own` uses the test file's database (getDb(): what the suite's helpers write to);
 * otherwise a fresh database is cloned for it and dropped by stop().
 */
export async function startPeer(own: boolean): Promise<Peer> {
  const server: Server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  let dropDb: (() => Promise<void>) | null = null;
  let db: Db;
  let pg: postgres.Sql;
  if (own) {
    db = getDb();
    pg = getSql();
  } else {
    const name = `krug_p_${randomBytes(6).toString("hex")}`;
    const admin = new URL(inject("pgServerUrl"));
    admin.pathname = "/postgres";
    const adminSql = postgres(admin.toString(), { max: 1, onnotice: () => {} });
    await adminSql.unsafe(`create database ${name} template ${inject("templateDb")}`);
    const url = new URL(inject("pgServerUrl"));
    url.pathname = `/${name}`;
    // The services queue a timeline job in the writer's transaction: this database needs pg-boss's schema too.
    const boss = new PgBoss({ connectionString: url.toString(), schema: "pgboss", max: 1 });
    await boss.start();
    await boss.createQueue(QUEUES.timeline);
    await boss.stop({ graceful: false });
    pg = createSql(url.toString(), { max: 6 });
    db = createDb(pg);
    dropDb = async () => {
      await pg.end({ timeout: 5 });
      await adminSql.unsafe(`drop database if exists ${name} with (force)`);
      await adminSql.end();
    };
  }
  const instance = createKrugFederation({ db, sql: pg, origin, allowPrivateAddress: true });
  server.on("request", (req, res) => {
    void (async () => {
      try {
        const method = req.method ?? "GET";
        const payload = method === "POST" ? await body(req) : undefined;
        const headers = new Headers();
        for (const [k, v] of Object.entries(req.headers)) if (typeof v === "string") headers.set(k, v);
        const request = new Request(new URL(req.url ?? "/", origin), { method, headers, body: payload as BodyInit | undefined });
        // Stored files, as the storage route serves them (remote media are fetched from here).
        const file = /^\/api\/v1\/storage\/files\/([0-9a-f]{32}\.webp)$/.exec(new URL(request.url).pathname);
        const stored = file ? await getBlobStore().get(file[1]!) : null;
        const answer = stored
          ? new Response(stored.body, { headers: { "content-type": stored.contentType } })
          : ((await federationResponse(request, undefined, instance)) ?? new Response("Not Found", { status: 404 }));
        res.writeHead(answer.status, Object.fromEntries(answer.headers.entries()));
        res.end(Buffer.from(await answer.arrayBuffer()));
      } catch (err) {
        res.writeHead(500);
        res.end(String(err));
      }
    })();
  });
  const stop = new AbortController();
  await startFederationWorkers(instance, stop.signal);
  return {
    instance,
    db,
    origin,
    async person(firstName) {
      const ctx0: ServiceCtx = { viewer: null, db, requestId: "test", ip: "127.0.0.1" };
      const row = await createAccount({
        ctx: ctx0,
        input: { email: `p-${randomBytes(5).toString("hex")}@example.com`, password: "Secret-pass1!", firstName, lastName: "Fedi" },
      });
      await db.execute(sql`update accounts set fediverse = true where id = ${row.id}`);
      await ensureActorKeys(db, row.id);
      const viewer: Viewer = { id: row.id, sessionId: "test", role: "USER", isDeleted: false, language: "ru" };
      return { id: row.id, viewer, ctx: { viewer, db, requestId: "test", ip: "127.0.0.1" }, profileUrl: `${origin}/profile/${row.id}` };
    },
    async stop() {
      stop.abort();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await new Promise((r) => setTimeout(r, 100));
      if (dropDb) await dropDb();
    },
  };
}

/** Polls `probe` until it returns something other than undefined/false/null, or fails after `ms`. */
export async function eventually<T>(probe: () => Promise<T | null | undefined | false>, what: string, ms = 20_000): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (value !== null && value !== undefined && value !== false) return value;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
