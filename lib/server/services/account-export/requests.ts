import "server-only";
import type { Readable } from "node:stream";
import { sql } from "drizzle-orm";
import type { DbOrTx } from "@/db/client";
import { knownTimeZone } from "@/lib/i18n/time-zone";
import { ForbiddenError, NotFoundError, RateLimitedError } from "@/lib/server/http/errors";
import { getBoss, inTransaction, QUEUES } from "@/lib/server/jobs/boss";
import { getBlobStore } from "@/lib/server/storage/blob-store";
import {
  EXPORT_ERRORS,
  EXPORT_INTERVAL_HOURS,
  exportArchiveParams,
  exportArchivePath,
  type AccountExportDto,
} from "@/lib/validation/account-export";
import { requireViewer, withTransaction, type ServiceCtx } from "../context";

/** A queued export: the row the worker builds, and the person's time zone for its pages (issue 40 item 18). */
export type ExportJob = { exportId: string; timeZone?: string };

type Row = {
  id: string;
  status: "PENDING" | "READY" | "FAILED";
  requested_at: string;
  ready_at: string | null;
  expires_at: string | null;
  size: string | null;
  expired: boolean;
  next_request_at: string | null;
};

const iso = (column: string) => sql.raw(`to_char((${column}) at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`);

/**
 * The account's latest export, with what the once-a-day rule says about the next one: the latest
 * request that did not fail counts for 24 hours (account_exports_account_idx: one row read).
 */
async function latestExport(db: DbOrTx, accountId: number): Promise<Row | null> {
  const [row] = await db.execute<Row>(sql`
    select e.id, e.status, ${iso("e.requested_at")} as requested_at, ${iso("e.ready_at")} as ready_at,
           ${iso("e.expires_at")} as expires_at, e.size::text as size,
           e.status = 'READY' and e.expires_at <= now() as expired,
           (select ${iso(`c.requested_at + interval '${EXPORT_INTERVAL_HOURS} hours'`)}
              from account_exports c
              where c.account_id = ${accountId} and c.status <> 'FAILED'
                and c.requested_at > now() - make_interval(hours => ${EXPORT_INTERVAL_HOURS})
              order by c.requested_at desc nulls last limit 1) as next_request_at
    from account_exports e
    where e.account_id = ${accountId}
    order by e.requested_at desc nulls last
    limit 1`);
  return row ?? null;
}

function toDto(row: Row | null): AccountExportDto {
  if (!row) return { state: "NONE", requestedAt: null, readyAt: null, expiresAt: null, url: null, size: null, nextRequestAt: null };
  const ready = row.status === "READY" && !row.expired;
  return {
    state: row.expired ? "EXPIRED" : row.status,
    requestedAt: row.requested_at,
    readyAt: row.ready_at,
    expiresAt: row.expires_at,
    url: ready ? exportArchivePath(row.id) : null,
    size: ready && row.size !== null ? Number(row.size) : null,
    nextRequestAt: row.next_request_at,
  };
}

/** GET account/export — the state of the viewer's latest archive and, when ready, its link. */
export async function getAccountExport({ ctx }: { ctx: ServiceCtx }): Promise<AccountExportDto> {
  const viewer = requireViewer(ctx);
  return toDto(await latestExport(ctx.tx ?? ctx.db, viewer.id));
}

/**
 * POST account/export — asks for a new archive: a PENDING row and its job, in one transaction (the job
 * exists exactly when the row does). One per account a day: a second request within 24 hours of one
 * that did not fail is refused with 429 and Retry-After (docs/adr/0127). The account's row is locked
 * first, so two requests at once are counted one after the other.
 */
export async function requestAccountExport({ ctx, input }: { ctx: ServiceCtx; input?: { timeZone?: string | null } }): Promise<AccountExportDto> {
  const viewer = requireViewer(ctx);
  // The zone the browser told (the tz cookie, docs/adr/0102): the archive's pages show times in it.
  const timeZone = knownTimeZone(input?.timeZone) ?? undefined;
  if (viewer.isDeleted) throw new ForbiddenError("accountErrors.accountDeleted");
  return withTransaction(ctx, async (tx) => {
    await tx.execute(sql`select 1 from accounts where id = ${viewer.id} for no key update`);
    const latest = await latestExport(tx, viewer.id);
    if (latest?.next_request_at) {
      const wait = (Date.parse(latest.next_request_at) - Date.now()) / 1000;
      throw new RateLimitedError(wait, EXPORT_ERRORS.oncePerDay);
    }
    const [created] = await tx.execute<{ id: string }>(sql`insert into account_exports (account_id) values (${viewer.id}) returning id`);
    const boss = await getBoss();
    await boss.send(QUEUES.export, { exportId: created.id, timeZone } satisfies ExportJob, { db: inTransaction(tx) });
    return toDto(await latestExport(tx, viewer.id));
  });
}

/**
 * GET account/export/archive/{id} — the archive itself, for its owner only: another account, an unknown
 * id and an archive not (or no longer) ready are all "not found", so nobody learns whether an id exists.
 */
export async function openAccountExportArchive({ ctx, input }: { ctx: ServiceCtx; input: unknown }): Promise<{
  body: Readable | ReadableStream<Uint8Array>;
  size: number | undefined;
  fileName: string;
}> {
  const viewer = requireViewer(ctx);
  const parsed = exportArchiveParams.safeParse(input);
  if (!parsed.success) throw new NotFoundError(EXPORT_ERRORS.notFound);
  const [row] = await (ctx.tx ?? ctx.db).execute<{ storage_key: string | null; expired: boolean; day: string }>(sql`
    select storage_key, expires_at <= now() as expired, to_char(requested_at at time zone 'UTC', 'YYYY-MM-DD') as day
    from account_exports
    where id = ${parsed.data.id} and account_id = ${viewer.id} and status = 'READY'`);
  if (!row || !row.storage_key) throw new NotFoundError(EXPORT_ERRORS.notFound);
  if (row.expired) throw new NotFoundError(EXPORT_ERRORS.expired);
  const object = await getBlobStore().get(row.storage_key);
  if (!object) throw new NotFoundError(EXPORT_ERRORS.notFound);
  return { body: object.body, size: object.size, fileName: `krug-data-${row.day}.zip` };
}
