// A Krug instance's federation in one process (issue 43): its own HTTP server on 127.0.0.1 answering
// federation requests, its own Fedify with its queue and outbox relay running, and people of its own with
// federation on. The integration suite runs two side by side (tests/integration/helpers/federation-peers.ts);
// the journeys' stand-in remote Krug is one (scripts/fediverse-peer.ts).
import { randomBytes } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { sql } from "drizzle-orm";
import { PgBoss } from "pg-boss";
import type postgres from "postgres";
import type { Db } from "@/db/client";
import type { Viewer } from "@/lib/server/auth/viewer";
import { createKrugFederation, startFederationWorkers, type KrugFederation } from "@/lib/server/federation/federation";
import { federationResponse } from "@/lib/server/federation/handler";
import { getBlobStore } from "@/lib/server/storage/blob-store";
import { ensureActorKeys } from "@/lib/server/federation/keys";
import { QUEUES } from "@/lib/server/jobs/boss";
import { createAccount } from "@/lib/server/services/accounts/create-account";
import type { ServiceCtx } from "@/lib/server/services/context";

export type PeerPerson = { id: number; viewer: Viewer; ctx: ServiceCtx; profileUrl: string };

export type Peer = {
  instance: KrugFederation;
  db: Db;
  origin: string;
  /** A local person of this instance with federation on (and keys), and a service context acting as them. */
  person(firstName: string, lastName?: string): Promise<PeerPerson>;
  stop(): Promise<void>;
};

/** A request the peer answers itself before federation (e.g. a control endpoint): true when it did. */
export type ExtraHandler = (req: IncomingMessage, res: ServerResponse, body: Buffer | undefined) => Promise<boolean>;

async function body(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** An HTTP server listening on 127.0.0.1 (`port` 0: any free one) and its origin. */
export async function listenLocal(port = 0): Promise<{ server: Server; origin: string }> {
  const server: Server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", resolve);
  });
  return { server, origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

/** The services queue a timeline job in the writer's transaction: a fresh database needs pg-boss's schema and that queue. */
export async function prepareJobQueues(databaseUrl: string): Promise<void> {
  const boss = new PgBoss({ connectionString: databaseUrl, schema: "pgboss", max: 1 });
  await boss.start();
  await boss.createQueue(QUEUES.timeline);
  await boss.stop({ graceful: false });
}

/**
 * Starts the instance on `server` (listening at `origin`) over `db`: every request goes to Fedify's
 * handler (after `extra`, when given); stop() closes the server, stops the workers and then calls `onStop`.
 */
export async function startKrugPeer(opts: { server: Server; origin: string; db: Db; sql: postgres.Sql; extra?: ExtraHandler; onStop?: () => Promise<void> }): Promise<Peer> {
  const { server, origin, db } = opts;
  const instance = createKrugFederation({ db, sql: opts.sql, origin, allowPrivateAddress: true });
  server.on("request", (req, res) => {
    void (async () => {
      try {
        const method = req.method ?? "GET";
        const payload = method === "POST" ? await body(req) : undefined;
        if (opts.extra && (await opts.extra(req, res, payload))) return;
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
    async person(firstName, lastName = "Fedi") {
      const ctx0: ServiceCtx = { viewer: null, db, requestId: "test", ip: "127.0.0.1" };
      const row = await createAccount({
        ctx: ctx0,
        input: { email: `p-${randomBytes(5).toString("hex")}@example.com`, password: "Secret-pass1!", firstName, lastName },
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
      if (opts.onStop) await opts.onStop();
    },
  };
}
