import "server-only";
import type { NodeInfo } from "@fedify/fedify";
import { sql } from "drizzle-orm";
import type { DbOrTx } from "@/db/client";

const TTL_MS = 10 * 60_000;
let cached: { at: number; info: NodeInfo } | undefined;

/**
 * NodeInfo 2.1 (`/.well-known/nodeinfo` → `/nodeinfo/2.1`): what software this is and how many people and
 * posts it holds. Anyone may ask, so the counts are read at most once per 10 minutes per process.
 */
export async function nodeInfo(db: DbOrTx): Promise<NodeInfo> {
  if (cached && Date.now() - cached.at < TTL_MS) return cached.info;
  const [row] = await db.execute<{ total: number; month: number; halfyear: number; posts: number; comments: number }>(sql`
    select (select count(*)::int from accounts a where not a.is_deleted and not a.is_blocked and not a.remote) as total,
           (select count(*)::int from accounts where not is_deleted and not is_blocked and last_online_time > now() - interval '30 days') as month,
           (select count(*)::int from accounts where not is_deleted and not is_blocked and last_online_time > now() - interval '180 days') as halfyear,
           (select count(*)::int from posts p where not p.is_deleted and not exists (select 1 from remote_posts r where r.post_id = p.id)) as posts,
           (select count(*)::int from comments where not is_deleted) as comments`);
  const info: NodeInfo = {
    software: { name: "krug", version: "1.0.0" },
    protocols: ["activitypub"],
    // Anyone may register (spec section 3).
    openRegistrations: true,
    usage: {
      users: { total: row?.total ?? 0, activeMonth: row?.month ?? 0, activeHalfyear: row?.halfyear ?? 0 },
      localPosts: row?.posts ?? 0,
      localComments: row?.comments ?? 0,
    },
  };
  cached = { at: Date.now(), info };
  return info;
}
