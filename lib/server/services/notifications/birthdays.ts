import "server-only";
import { sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { notify } from "./produce";

/**
 * The daily birthday job: everyone born on this UTC day (29 February counts on the 28th in other
 * years) gets USER_BIRTHDAY, and their friends FRIEND_BIRTHDAY (both under enableFriendBirthday). The
 * day's run row commits with its notifications, so a second run of the same day (another instance, a
 * retry) does nothing. The scan of accounts by birthday is one pass a day. Returns the rows written.
 */
export async function sendBirthdayNotifications(db: Db, now: Date = new Date()): Promise<number> {
  const day = now.toISOString().slice(0, 10);
  const [, month, date] = day.split("-").map(Number);
  const leap = (y: number) => (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
  const alsoFeb29 = month === 2 && date === 28 && !leap(now.getUTCFullYear());
  return db.transaction(async (tx) => {
    const claimed = await tx.execute(sql`
      insert into notification_job_runs (job, day) values ('birthdays', ${day}) on conflict do nothing returning day`);
    if (claimed.length === 0) return 0;
    const people = await tx.execute<{ id: string }>(sql`
      select id from accounts
      where not is_deleted and birth_date is not null
        and extract(month from birth_date) = ${month}
        and (extract(day from birth_date) = ${date} ${alsoFeb29 ? sql`or extract(day from birth_date) = 29` : sql``})
      order by id`);
    let written = 0;
    for (const p of people) {
      const id = Number(p.id);
      written += await notify(tx, { type: "USER_BIRTHDAY", actorId: null, authorId: null, recipients: [id] });
      written += await notify(tx, {
        type: "FRIEND_BIRTHDAY",
        actorId: id,
        recipients: { actorRelations: ["FRIEND"] },
      });
    }
    return written;
  });
}
