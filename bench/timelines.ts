// The home timelines of the bench's readers (issue 28 section 2, docs/adr/0137), as the job would have
// left them: for every account active in the last 30 days (and the median account and the hub), the newest
// HOME_TIMELINE_N posts of its friends feed (any publish time), the horizon at the first one left out.
// Set-based inside Postgres, the table's indexes built once after the load, in one transaction. Posts
// generated with triggers off (bench/posts.ts) reach no timeline by themselves: the posts generator
// empties the timelines, and this fills them again.
import postgres from "postgres";
import { timelineSize } from "@/lib/server/services/posts/home-timeline";

const FOLLOWING = `('FRIEND', 'SUBSCRIBED', 'REQUEST_TO')`;

export async function ensureTimelines(url: string, ids: { typicalId: number; hubId: number }, log: (m: string) => void) {
  const t0 = Date.now();
  const step = (m: string) => log(`  ${((Date.now() - t0) / 1000).toFixed(1)}s  ${m}`);
  const { typicalId: TYPICAL, hubId: HUB } = ids;
  const n = timelineSize();
  const db = postgres(url, { max: 1, onnotice: () => {} });
  try {
    const [{ active }] = await db<{ active: string }[]>`
      select count(*) as active from accounts where last_online_time > now() - interval '30 days' and not is_deleted and role = 'USER'`;
    const [{ built }] = await db<{ built: string }[]>`select count(*) as built from home_timeline_state where built`;
    // The readers of the last fill: the chat and group benches bring accounts online, and those need no
    // prefilled timeline (the app builds one on a first read). Counting them as missing refilled the 48M rows
    // before every run after theirs, and the autovacuum behind it ran into the next measurements.
    await db`create table if not exists bench_timelines (readers bigint not null)`;
    const [filled] = await db<{ readers: string }[]>`select readers from bench_timelines limit 1`;
    if (Number(built) >= Number(filled?.readers ?? active)) return log(`home timelines already filled (${built} readers)`);
    step(`filling the timelines of ${active} active readers (N = ${n}) …`);
    await db`set synchronous_commit = off`;
    await db.begin(async (tx) => {
      await tx`truncate home_timeline, home_timeline_state, home_timeline_pending, home_timeline_authors`;
      await tx`alter table home_timeline drop constraint home_timeline_account_id_publish_date_post_id_author_id_pk`;
      await tx`drop index home_timeline_post_idx`;
      await tx`create temporary table bench_readers on commit drop as
        select id from accounts where (last_online_time > now() - interval '30 days' and not is_deleted and role = 'USER') or id in (${TYPICAL}, ${HUB})`;
      const [{ max }] = await tx<{ max: string }[]>`select max(id) as max from bench_readers`;
      const batch = 5_000;
      for (let from = 0; from <= Number(max); from += batch) {
        // Each reader's newest n + 1 posts of their feed's authors (any publish time): n stay, the one more
        // becomes the horizon (below).
        await tx.unsafe(`
          insert into home_timeline (account_id, publish_date, post_id, author_id)
          select r.id, x.publish_date, x.id, x.author_id from bench_readers r
          cross join lateral (
            select l.id, l.publish_date, l.author_id from (
              select r.id as aid
              union all
              select f.friend_id from friendships f join accounts w on w.id = f.friend_id
              where f.account_id = r.id and f.status_code in ${FOLLOWING} and not w.is_deleted and not w.is_blocked
                and (f.status_code = 'FRIEND' or w.profile_visibility = 'ALL')
            ) au cross join lateral (
              select p.id, p.publish_date, p.author_id from posts p
              where p.author_id = au.aid and not p.is_deleted and (not p.is_blocked or p.author_id = r.id)
              order by p.publish_date desc nulls last, p.id desc nulls last limit ${n + 1}) l
            order by l.publish_date desc nulls last, l.id desc nulls last limit ${n + 1}
          ) x
          where r.id >= ${from} and r.id < ${from + batch}`);
        step(`readers below ${from + batch}`);
      }
      await tx`alter table home_timeline add constraint home_timeline_account_id_publish_date_post_id_author_id_pk primary key (account_id, publish_date, post_id, author_id)`;
      step("primary key built");
      await tx.unsafe(`
        insert into home_timeline_state (account_id, built, horizon_date, horizon_id)
        select r.id, true, h.publish_date, h.post_id from bench_readers r
        left join lateral (select publish_date, post_id from home_timeline t where t.account_id = r.id
                           order by publish_date desc, post_id desc offset ${n} limit 1) h on true`);
      await tx`delete from home_timeline t using home_timeline_state s
        where t.account_id = s.account_id and s.horizon_date is not null and (t.publish_date, t.post_id) <= (s.horizon_date, s.horizon_id)`;
      step("states and horizons");
      await tx`create index home_timeline_post_idx on home_timeline using btree (post_id, account_id)`;
      step("post index built");
      await tx`delete from bench_timelines`;
      await tx`insert into bench_timelines (readers) select count(*) from home_timeline_state where built`;
    });
    await db`set synchronous_commit = on`;
    await db`vacuum analyze home_timeline, home_timeline_state`;
    const [{ rows, size }] = await db<{ rows: string; size: string }[]>`
      select count(*) as rows, pg_size_pretty(pg_total_relation_size('home_timeline')) as size from home_timeline`;
    step(`done: ${rows} rows, ${size} with its indexes`);
  } finally {
    await db.end();
  }
}
