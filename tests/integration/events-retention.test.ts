import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { appendEvent, readAccountEventsAfter, sequenceEvents } from "@/lib/server/events/outbox";
import { purgeOldEvents } from "@/lib/server/events/retention";
import { createTestAccount } from "./helpers/factories";

describe("outbox retention", () => {
  it("purges events older than the retention window in batches and keeps recent ones", async () => {
    const a = await createTestAccount();
    const db = getDb();
    for (let i = 0; i < 7; i++) await db.transaction((tx) => appendEvent(tx, { type: "TEST", recipients: [a.id], data: { i } }));
    await sequenceEvents(db);
    // Age the first five by eight days.
    await db.execute(sql`update events set created_at = now() - interval '8 days' where id in (select id from events order by id limit 5)`);
    expect(await purgeOldEvents(db, new Date(), 2)).toBe(5);
    const left = await readAccountEventsAfter(db, a.id, 0);
    expect(left.map((e) => (e.data as { i: number }).i)).toEqual([5, 6]);
    const [{ n }] = await db.execute<{ n: string }>(sql`select count(*) as n from event_recipients`);
    expect(Number(n)).toBe(2);
  });

  it("stores an event without data as JSON null", async () => {
    const a = await createTestAccount();
    const db = getDb();
    await db.transaction((tx) => appendEvent(tx, { type: "MESSAGE", recipients: [a.id], data: undefined }));
    await sequenceEvents(db);
    const [event] = await readAccountEventsAfter(db, a.id, 0);
    expect(event.data).toBeNull();
  });
});
