import "server-only";
import { sql } from "drizzle-orm";
import { accounts } from "@/db/schema";
import { ForbiddenError } from "@/lib/server/http/errors";
import { ONLINE_WINDOW_SECONDS } from "../accounts/presence";
import { requireViewer, type ServiceCtx } from "../context";

export type AdminStatistics = { accountsTotal: number; newLastWeek: number; onlineNow: number };

/** The counts of the admin statistics page; only administrators and moderators may read them. */
export async function getStatistics({ ctx }: { ctx: ServiceCtx }): Promise<AdminStatistics> {
  const viewer = requireViewer(ctx);
  if (viewer.role !== "ADMIN" && viewer.role !== "MODERATOR") throw new ForbiddenError();
  // One pass over accounts; fine at this product's scale and always exact (no cached counters to drift).
  const [row] = await ctx.db
    .select({
      accountsTotal: sql<number>`count(*)::int`,
      newLastWeek: sql<number>`(count(*) filter (where ${accounts.createdAt} > now() - interval '7 days'))::int`,
      onlineNow: sql<number>`(count(*) filter (where ${accounts.lastOnlineTime} > now() - make_interval(secs => ${ONLINE_WINDOW_SECONDS})))::int`,
    })
    .from(accounts);
  return row;
}
