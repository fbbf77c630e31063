import "server-only";
import { sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { announce } from "@/lib/server/services/posts/write-posts";

/**
 * The "post reached its time" job (every minute): each scheduled post whose time has come and that was
 * not announced yet is announced — POST notifications to the author's friends and subscribers and the
 * feeds' POST_PUBLISHED event; a community's post: COMMUNITY_POST notifications to the members who asked for
 * them, while the community is neither deleted nor blocked — in one transaction per post. Claiming the post_announcements row first
 * makes overlapping runs announce a post once. Posts due for more than a day are left alone (a
 * server that was down for long does not flood people with old news). Returns how many it announced.
 */
export async function publishDuePosts(db: Db, now: Date = new Date()): Promise<number> {
  const due = await db.execute<{ id: string; author_id: string }>(sql`
    select p.id, p.author_id from posts p
    where not p.is_deleted
      and (p.community_id is null
        or exists (select 1 from communities c where c.id = p.community_id and not c.is_deleted and not c.is_blocked))
      and p.publish_date <= ${now.toISOString()}::timestamptz
      and p.publish_date > ${now.toISOString()}::timestamptz - interval '1 day'
      and p.publish_date > p.time
      and not exists (select 1 from post_announcements a where a.post_id = p.id)
      and not exists (select 1 from accounts d where d.id = p.author_id and d.is_deleted)
    order by p.publish_date desc, p.id desc
    limit 500`);
  let announced = 0;
  for (const post of due) {
    const id = Number(post.id);
    const done = await db.transaction(async (tx) => {
      const claimed = await tx.execute(sql`insert into post_announcements (post_id) values (${id}) on conflict do nothing returning post_id`);
      if (claimed.length === 0) return false;
      await announce(tx, { id, authorId: Number(post.author_id) });
      return true;
    });
    if (done) announced += 1;
  }
  return announced;
}
