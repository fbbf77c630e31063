import "server-only";
import { sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { notify } from "./produce";

/**
 * The birthday job (every 10 minutes, lib/server/jobs/start-jobs.ts): everyone born on this UTC day
 * (29 February counts on the 28th in other years) gets USER_BIRTHDAY, and their friends FRIEND_BIRTHDAY
 * (both under enableFriendBirthday) — once per account and day: the account's `birthday_notices` row
 * commits with its notifications, so a rerun (the next tick, another instance, a retry) skips it, while
 * a birth date set to today after the day's first run is announced on the next run (issue 24 item 22).
 * Rows of earlier days go. Returns the notification rows written.
 */
export async function sendBirthdayNotifications(db: Db, now: Date = new Date()): Promise<number> {
  const day = now.toISOString().slice(0, 10);
  const [, month, date] = day.split("-").map(Number);
  const leap = (y: number) => (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
  const alsoFeb29 = month === 2 && date === 28 && !leap(now.getUTCFullYear());
  return db.transaction(async (tx) => {
    await tx.execute(sql`delete from birthday_notices where day < ${day}`);
    // A concurrent run waits on the rows this one claims and then claims none of them.
    const people = await tx.execute<{ account_id: string }>(sql`
      insert into birthday_notices (account_id, day)
      select id, ${day} from accounts
      where not is_deleted and birth_date is not null
        and extract(month from birth_date) = ${month}
        and (extract(day from birth_date) = ${date} ${alsoFeb29 ? sql`or extract(day from birth_date) = 29` : sql``})
      order by id
      on conflict do nothing
      returning account_id`);
    let written = 0;
    for (const p of [...people].sort((a, b) => Number(a.account_id) - Number(b.account_id))) {
      const id = Number(p.account_id);
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
