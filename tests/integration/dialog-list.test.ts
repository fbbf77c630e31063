// The dialog list of a member with groups and personal dialogs together (issue 41, docs/adr/0169): its
// pages are slices of one order in both sorts, and the preview leaves out what the member hid, in a
// group too, and again after a return to the group (the list probes message_hides only for a member
// whose hidden_count says there is something hidden).
import { describe, expect, it } from "vitest";
import { PUT as markReadRoute } from "@/app/api/v1/dialogs/[id]/route";
import { DELETE as removeRoute } from "@/app/api/v1/dialogs/[id]/members/[accountId]/route";
import { POST as addRoute } from "@/app/api/v1/dialogs/[id]/members/route";
import { DELETE as deleteMessageRoute } from "@/app/api/v1/dialogs/[id]/messages/[messageId]/route";
import { POST as sendRoute } from "@/app/api/v1/dialogs/[id]/messages/route";
import { GET as listRoute, POST as createRoute } from "@/app/api/v1/dialogs/route";
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
