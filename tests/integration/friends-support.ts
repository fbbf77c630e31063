// Helpers shared by the friends-*.test.ts suites: reading both sides, events, and setting up states.
import { sql } from "drizzle-orm";
import { expect } from "vitest";
import { getDb } from "@/db/client";
import { perRecipient } from "@/lib/server/events/outbox";
import { cityFromText, countryFromText } from "@/lib/server/geo/places";
import {
  approveFriendRequest,
  blockAccount,
  removeFriendRelation,
  sendFriendRequest,
  subscribeToAccount,
  unblockAccount,
} from "@/lib/server/services/friends/actions";
import { isLegalPair, type FriendAction, type Side } from "@/lib/server/services/friends/transitions";
import type { FriendStatus } from "@/lib/validation/friends";

export type Pair = [Side, Side];

/** The service verb of each action of the transition table. */
export const VERBS: Record<FriendAction, typeof sendFriendRequest> = {
  REQUEST: sendFriendRequest,
  APPROVE: approveFriendRequest,
  SUBSCRIBE: subscribeToAccount,
  REMOVE: removeFriendRelation,
  BLOCK: blockAccount,
  UNBLOCK: unblockAccount,
};

/** [a's side towards b, b's side towards a] as stored. */
export async function sidesOf(a: number, b: number): Promise<Pair> {
  const rows = await getDb().execute<{ account_id: string; status_code: FriendStatus }>(sql`
    select account_id, status_code from friendships
    where (account_id = ${a} and friend_id = ${b}) or (account_id = ${b} and friend_id = ${a})`);
  const of = (id: number) => rows.find((r) => Number(r.account_id) === id)?.status_code ?? null;
  return [of(a), of(b)];
}

/** Every stored row has its mirror, and the two codes form a legal pair. */
export async function expectAllMirrored(): Promise<void> {
  const rows = await getDb().execute<{ account_id: string; friend_id: string; status_code: FriendStatus }>(sql`
    select account_id, friend_id, status_code from friendships`);
  const byKey = new Map(rows.map((r) => [`${r.account_id}>${r.friend_id}`, r.status_code]));
  for (const r of rows) {
    const mirror = byKey.get(`${r.friend_id}>${r.account_id}`) ?? null;
    expect(isLegalPair(r.status_code, mirror), `${r.account_id}>${r.friend_id}: ${r.status_code}/${mirror}`).toBe(true);
  }
}

export type StoredEvent = { id: number; type: string; recipients: number[]; data: any };

/**
 * Events appended after `afterId`, oldest first. NOTIFICATION events (issue 12) ride along with most
 * actions; they are left out unless asked for, so each suite sees the stream it is about.
 */
export async function eventsAfter(afterId = 0, withNotifications = false): Promise<StoredEvent[]> {
  // Appended events, sequenced or not (row id order is the producers' order).
  const rows = await getDb().execute<{ id: string; type: string; payload: unknown; recipients: string[]; subjects: string[] | null }>(sql`
    select e.id, e.type, e.payload, e.recipients, e.subjects
    from events e where e.id > ${afterId} ${withNotifications ? sql`` : sql`and e.type <> 'NOTIFICATION'`} order by e.id`);
  // A shared fan-out event reads as what each recipient receives (outbox.ts#perRecipient).
  return rows.flatMap((r) => {
    const ids = r.recipients.map(Number);
    const subjects = r.subjects?.map(Number);
    const order = ids.map((_, i) => i).sort((x, y) => ids[x] - ids[y]);
    return perRecipient({
      id: Number(r.id),
      type: r.type,
      data: r.payload,
      recipients: order.map((i) => ids[i]),
      subjects: subjects && order.map((i) => subjects[i]),
    });
  });
}

export async function lastEventId(): Promise<number> {
  const [row] = await getDb().execute<{ id: string | null }>(sql`select max(id) as id from events`);
  return Number(row.id ?? 0);
}

/** Stores a pair directly (test setup for states that take several steps to reach). */
export async function setPair(a: number, b: number, [mine, theirs]: Pair): Promise<void> {
  const db = getDb();
  await db.execute(sql`delete from friendships where (account_id = ${a} and friend_id = ${b}) or (account_id = ${b} and friend_id = ${a})`);
  if (mine) await db.execute(sql`insert into friendships (account_id, friend_id, status_code) values (${a}, ${b}, ${mine})`);
  if (theirs) await db.execute(sql`insert into friendships (account_id, friend_id, status_code) values (${b}, ${a}, ${theirs})`);
}

export async function makeFriends(a: number, b: number, updatedAt?: Date): Promise<void> {
  await setPair(a, b, ["FRIEND", "FRIEND"]);
  if (updatedAt) {
    await getDb().execute(sql`
      update friendships set updated_at = ${updatedAt.toISOString()}
      where (account_id = ${a} and friend_id = ${b}) or (account_id = ${b} and friend_id = ${a})`);
  }
}

/** Sets profile fields the friends lists and recommendations read. */
export async function setAccount(
  id: number,
  fields: Partial<{ city: string | null; country: string | null; lastOnlineTime: Date | null; isDeleted: boolean; birthDate: string; photo: string; emojiStatus: string }>,
): Promise<void> {
  const db = getDb();
  // Places stored as PUT account/me stores them: codes and GeoNames ids where the text names one.
  if ("country" in fields) {
    const country = countryFromText(fields.country ?? null);
    await db.execute(sql`update accounts set country_code = ${country.countryCode}, country = ${country.country} where id = ${id}`);
  }
  if ("city" in fields) {
    const [row] = await db.execute<{ country_code: string | null }>(sql`select country_code from accounts where id = ${id}`);
    const city = cityFromText(fields.city ?? null, row.country_code);
    await db.execute(sql`update accounts set city_id = ${city.cityId}, city = ${city.city} where id = ${id}`);
  }
  if ("lastOnlineTime" in fields)
    await db.execute(sql`update accounts set last_online_time = ${fields.lastOnlineTime?.toISOString() ?? null} where id = ${id}`);
  if ("isDeleted" in fields)
    await db.execute(sql`update accounts set is_deleted = ${fields.isDeleted ?? false}, deletion_timestamp = ${fields.isDeleted ? sql`now()` : null} where id = ${id}`);
  if ("birthDate" in fields) await db.execute(sql`update accounts set birth_date = ${fields.birthDate ?? null} where id = ${id}`);
  if ("photo" in fields) await db.execute(sql`update accounts set photo = ${fields.photo ?? null} where id = ${id}`);
  if ("emojiStatus" in fields) await db.execute(sql`update accounts set emoji_status = ${fields.emojiStatus ?? null} where id = ${id}`);
}

export async function friendshipRowCount(): Promise<number> {
  const [row] = await getDb().execute<{ n: string }>(sql`select count(*) as n from friendships`);
  return Number(row.n);
}
