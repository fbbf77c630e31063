// The dialog list of a member with groups and personal dialogs together (issue 41, docs/adr/0169): its
// pages are slices of one order in both sorts, and the preview leaves out what the member hid, in a
// group too, and again after a return to the group (the list probes message_hides only for a member
// whose hidden_count says there is something hidden). The list's total is each account's kept count of
// its dialogs (docs/adr/0190), checked here against the rows it counts.
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { PUT as markReadRoute } from "@/app/api/v1/dialogs/[id]/route";
import { DELETE as removeRoute } from "@/app/api/v1/dialogs/[id]/members/[accountId]/route";
import { POST as addRoute } from "@/app/api/v1/dialogs/[id]/members/route";
import { DELETE as deleteMessageRoute } from "@/app/api/v1/dialogs/[id]/messages/[messageId]/route";
import { POST as sendRoute } from "@/app/api/v1/dialogs/[id]/messages/route";
import { GET as listRoute, POST as createRoute } from "@/app/api/v1/dialogs/route";
import { getDb } from "@/db/client";
import { signedInAccount } from "./helpers/factories";
import { call } from "./helpers/http";

type Account = Awaited<ReturnType<typeof signedInAccount>>;
type Dialog = { id: number; type: string; unreadCount: number; lastMessage: { id: number; messageText: string; time: string; event?: { type: string } | null } | null };
const EN = { "accept-language": "en" };

const create = (who: Account, body: unknown) => call(createRoute, { method: "POST", token: who.accessToken, body, headers: EN });
const send = (who: Account, id: number, messageText: string) =>
  call(sendRoute, { method: "POST", token: who.accessToken, params: { id: String(id) }, body: { messageText }, headers: EN });
const markRead = (who: Account, id: number) => call(markReadRoute, { method: "PUT", token: who.accessToken, params: { id: String(id) }, headers: EN });
const add = (who: Account, id: number, accountIds: number[]) =>
  call(addRoute, { method: "POST", token: who.accessToken, params: { id: String(id) }, body: { accountIds }, headers: EN });
const remove = (who: Account, id: number, accountId: number) =>
  call(removeRoute, { method: "DELETE", token: who.accessToken, params: { id: String(id), accountId: String(accountId) }, headers: EN });
const hide = (who: Account, id: number, messageId: number) =>
  call(deleteMessageRoute, {
    method: "DELETE",
    token: who.accessToken,
    params: { id: String(id), messageId: String(messageId) },
    path: `/api/v1/dialogs/${id}/messages/${messageId}?forEveryone=false`,
    headers: EN,
  });
const list = (who: Account, query: string) => call(listRoute, { token: who.accessToken, path: `/api/v1/dialogs?${query}`, headers: EN });

async function said(who: Account, id: number, text: string): Promise<number> {
  const res = await send(who, id, text);
  expect(res.status).toBe(201);
  return res.body.id;
}

async function previewOf(who: Account, id: number): Promise<Dialog["lastMessage"]> {
  const res = await list(who, "page=0&size=100");
  expect(res.status).toBe(200);
  return (res.body.content as Dialog[]).find((x) => x.id === id)!.lastMessage;
}

describe("a list of groups and personal dialogs", () => {
  it("pages of every size are slices of the whole list, in both sorts, unread first and newest first", async () => {
    const me = await signedInAccount({ firstName: "Vera", lastName: "Viewer" });
    const others = await Promise.all(Array.from({ length: 9 }, (_, i) => signedInAccount({ firstName: `Other${i}`, lastName: "Person" })));
    const ids: number[] = [];
    // Groups and personal dialogs made in turn, so that the two kinds interleave in time; some read.
    for (let i = 0; i < 9; i++) {
      const other = others[i % others.length];
      if (i % 2 === 0) {
        const res = await create(other, { title: `Group ${i}`, memberIds: [me.id, others[(i + 1) % others.length].id] });
        expect(res.status).toBe(201);
        ids.push(res.body.id);
        await said(other, res.body.id, `group ${i}`);
      } else {
        const res = await create(other, { recipientId: me.id });
        expect(res.status).toBe(201);
        ids.push(res.body.id);
        await said(other, res.body.id, `personal ${i}`);
      }
      if (i % 3 === 0) expect((await markRead(me, ids[i])).status).toBe(200);
    }
    // An older conversation written to again moves up; one the member answered is theirs last.
    await said(others[0], ids[0], "group 0 again");
    await said(me, ids[3], "my answer");

    for (const sort of ["unreadCount,desc", "time,desc"]) {
      const whole = await list(me, `page=0&size=100&sort=${sort}`);
      expect(whole.status).toBe(200);
      const all = whole.body.content as Dialog[];
      expect(whole.body.totalElements).toBe(9);
      expect(all.map((x) => x.id).sort()).toEqual([...ids].sort());
      expect(new Set(all.map((x) => x.type))).toEqual(new Set(["GROUP", "PERSONAL"]));
      // The order itself: unread first (that sort only), then by the newest message.
      const rank = (x: Dialog) => [sort === "unreadCount,desc" && x.unreadCount > 0 ? 1 : 0, Date.parse(x.lastMessage!.time)];
      for (let i = 1; i < all.length; i++) {
        const [a, b] = [rank(all[i - 1]), rank(all[i])];
        expect(a[0] > b[0] || (a[0] === b[0] && a[1] >= b[1]), `${sort}: ${all[i - 1].id} before ${all[i].id}`).toBe(true);
      }
      if (sort === "unreadCount,desc") expect(all.some((x) => x.unreadCount === 0) && all.some((x) => x.unreadCount > 0)).toBe(true);
      for (const size of [1, 2, 4, 5]) {
        const paged: Dialog[] = [];
        for (let page = 0; page * size < 9; page++) {
          const res = await list(me, `page=${page}&size=${size}&sort=${sort}`);
          expect(res.body).toMatchObject({ totalElements: 9, totalPages: Math.ceil(9 / size), number: page, size });
          paged.push(...(res.body.content as Dialog[]));
        }
        expect(paged, `${sort}, size ${size}`).toEqual(all);
        const past = await list(me, `page=${Math.ceil(9 / size)}&size=${size}&sort=${sort}`);
        expect(past.body).toMatchObject({ content: [], totalElements: 9 });
      }
    }
  });

  it("the preview leaves out the member's own hides, in a group and after a return to it", async () => {
    const [owner, b, c] = await Promise.all([
      signedInAccount({ firstName: "Anna", lastName: "Owner" }),
      signedInAccount({ firstName: "Boris", lastName: "Member" }),
      signedInAccount({ firstName: "Chen", lastName: "Member" }),
    ]);
    const created = await create(owner, { title: "House", memberIds: [b.id, c.id] });
    expect(created.status).toBe(201);
    const id: number = created.body.id;
    const one = await said(owner, id, "one");
    const two = await said(owner, id, "two");
    expect((await hide(b, id, two)).status).toBe(200);
    expect(await previewOf(b, id)).toMatchObject({ id: one, messageText: "one" });
    expect(await previewOf(c, id)).toMatchObject({ id: two });
    expect((await hide(b, id, one)).status).toBe(200);
    expect(await previewOf(b, id)).toMatchObject({ event: { type: "CREATED" } });
    // Removed and added again: a new window after the hidden messages, and hides counted from there.
    expect((await remove(owner, id, b.id)).status).toBe(200);
    expect((await add(owner, id, [b.id])).status).toBe(200);
    expect(await previewOf(b, id)).toMatchObject({ event: { type: "ADDED" } });
    const three = await said(owner, id, "three");
    expect(await previewOf(b, id)).toMatchObject({ id: three });
    expect((await hide(b, id, three)).status).toBe(200);
    expect(await previewOf(b, id)).toMatchObject({ event: { type: "ADDED" } });
    expect(await previewOf(owner, id)).toMatchObject({ id: three });
    // A personal dialog likewise: the partner's hide is theirs only.
    const pair = await create(b, { recipientId: c.id });
    expect(pair.status).toBe(201);
    const hello = await said(b, pair.body.id, "hello");
    const bye = await said(c, pair.body.id, "bye");
    expect((await hide(b, pair.body.id, bye)).status).toBe(200);
    expect(await previewOf(b, pair.body.id)).toMatchObject({ id: hello });
    expect(await previewOf(c, pair.body.id)).toMatchObject({ id: bye });
  });
});

/** Each account's kept count beside the number of its member rows: equal for every account given. */
async function countsOf(ids: number[]): Promise<{ kept: number; rows: number }[]> {
  const rows = await getDb().execute<{ kept: string; rows: string }>(sql`
    select coalesce((select c.dialogs from dialog_counts c where c.account_id = a.id), 0) as kept,
      (select count(*) from dialog_members m where m.account_id = a.id) as rows
    from unnest(${`{${ids.join(",")}}`}::bigint[]) with ordinality a(id, n) order by a.n`);
  return rows.map((r) => ({ kept: Number(r.kept), rows: Number(r.rows) }));
}

describe("the list's total", () => {
  it("is each account's count of its dialogs, kept through new dialogs, groups, adds, removals, returns and erasures", async () => {
    const [me, ann, bob, cat, dan] = await Promise.all(["Me", "Ann", "Bob", "Cat", "Dan"].map((n) => signedInAccount({ firstName: n, lastName: "Counted" })));
    const all = [me, ann, bob, cat, dan].map((a) => a.id);
    const total = async (who: Account) => {
      const res = await list(who, "page=0&size=1");
      expect(res.status).toBe(200);
      return res.body.totalElements as number;
    };
    expect(await total(me)).toBe(0);

    // Personal dialogs: both sides count one; the same pair again makes no new dialog.
    expect((await create(me, { recipientId: ann.id })).status).toBe(201);
    expect((await create(ann, { recipientId: me.id })).status).toBe(200);
    expect((await create(me, { recipientId: bob.id })).status).toBe(201);
    // A group: its owner and every member count it once.
    const group = await create(cat, { title: "Counted", memberIds: [me.id, ann.id] });
    expect(group.status).toBe(201);
    expect(await countsOf(all)).toEqual([
      { kept: 3, rows: 3 },
      { kept: 2, rows: 2 },
      { kept: 1, rows: 1 },
      { kept: 1, rows: 1 },
      { kept: 0, rows: 0 },
    ]);
    expect(await total(me)).toBe(3);

    // Added, removed (the row stays: the history up to then is still theirs), added again: one dialog each time.
    expect((await add(cat, group.body.id, [dan.id])).status).toBe(200);
    expect(await total(dan)).toBe(1);
    expect((await remove(cat, group.body.id, dan.id)).status).toBe(200);
    expect(await total(dan)).toBe(1);
    expect((await add(cat, group.body.id, [dan.id])).status).toBe(200);
    expect(await total(dan)).toBe(1);
    expect((await countsOf(all)).every((c) => c.kept === c.rows)).toBe(true);

    // Two groups made at once by different owners over the same people, listed in opposite orders: both
    // land (the counts are taken in account order, so the two cannot deadlock on them) and count once each.
    const [g1, g2] = await Promise.all([
      create(bob, { title: "At once 1", memberIds: [dan.id, cat.id, ann.id, me.id] }),
      create(dan, { title: "At once 2", memberIds: [me.id, ann.id, cat.id, bob.id] }),
    ]);
    expect([g1.status, g2.status]).toEqual([201, 201]);
    expect(await countsOf(all)).toEqual([
      { kept: 5, rows: 5 },
      { kept: 4, rows: 4 },
      { kept: 3, rows: 3 },
      { kept: 3, rows: 3 },
      { kept: 3, rows: 3 },
    ]);
    expect(await total(me)).toBe(5);
    expect((await list(me, "page=9&size=1")).body).toMatchObject({ content: [], totalElements: 5 });

    // An account's rows removed for good (the cascade of a hard delete) leave the others' counts right.
    await getDb().execute(sql`delete from accounts where id = ${bob.id}`);
    // (The personal dialog with them goes; the groups stay, without them.)
    expect(await countsOf(all.filter((id) => id !== bob.id))).toEqual([
      { kept: 4, rows: 4 },
      { kept: 4, rows: 4 },
      { kept: 3, rows: 3 },
      { kept: 3, rows: 3 },
    ]);
    expect(await total(me)).toBe(4);
    // A member row never changes hands: its count would not follow.
    await expect(getDb().execute(sql`update dialog_members set account_id = ${ann.id} where account_id = ${dan.id}`)).rejects.toThrow();
  });
});
