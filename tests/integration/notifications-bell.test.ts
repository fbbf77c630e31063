// The bell answers (issue 27, docs/adr/0132): a friend request is accepted or declined from the bell
// through the existing friend calls, opening the bell marks what it shows read (PUT notifications/readed
// {ids}) with the count right, and a notification about something deleted says so (data.gone).
import { beforeEach, describe, expect, it } from "vitest";
import { PUT as approveRoute } from "@/app/api/v1/friends/[id]/approve/route";
import { DELETE as removeRoute } from "@/app/api/v1/friends/[id]/route";
import { GET as countRoute } from "@/app/api/v1/notifications/count/route";
import { GET as pageRoute } from "@/app/api/v1/notifications/page/route";
import { PUT as readedRoute } from "@/app/api/v1/notifications/readed/route";
import { getSql } from "@/db/client";
import { deleteMyAccount } from "@/lib/server/services/accounts/delete-account";
import { createComment } from "@/lib/server/services/comments/comments";
import { sendFriendRequest } from "@/lib/server/services/friends/actions";
import { deletePost } from "@/lib/server/services/posts/write-posts";
import type { NotificationDto } from "@/lib/validation/notifications";
import { signedInAccount } from "./helpers/factories";
import { call } from "./helpers/http";
import { newPost } from "./post-support";

type Account = Awaited<ReturnType<typeof signedInAccount>>;
let a: Account;
let b: Account;
let c: Account;

const mine = async (who: Account): Promise<NotificationDto[]> =>
  (await call(pageRoute, { path: "/api/v1/notifications/page?size=100", token: who.accessToken })).body.content;
const count = async (who: Account) => (await call(countRoute, { token: who.accessToken })).body.count as number;
const read = (who: Account, body?: unknown, rawBody?: string) =>
  call(readedRoute, { method: "PUT", token: who.accessToken, path: "/api/v1/notifications/readed", body, rawBody, headers: rawBody ? { "content-type": "application/json" } : undefined });

beforeEach(async () => {
  a = await signedInAccount({ firstName: "Анна", lastName: "Белл" });
  b = await signedInAccount({ firstName: "Борис", lastName: "Белл" });
  c = await signedInAccount({ firstName: "Clara", lastName: "Bell" });
});

describe("a friend request in the bell", () => {
  it("is pending until answered; accepting from it makes friends and the entry stops offering", async () => {
    await sendFriendRequest({ ctx: a.ctx, input: { id: b.id } });
    const [req] = (await mine(b)).filter((n) => n.notificationType === "FRIEND_REQUEST");
    expect(req.data.requestPending).toBe(true);
    expect(req.data.gone).toBeNull();
    const res = await call(approveRoute, { method: "PUT", token: b.accessToken, params: { id: String(a.id) } });
    expect(res.status).toBe(200);
    expect(res.body.statusCode).toBe("FRIEND");
    const [after] = (await mine(b)).filter((n) => n.notificationType === "FRIEND_REQUEST");
    expect(after.data.requestPending).toBe(false);
  });

  it("declining from it ends the request; someone else's notification never shows pending", async () => {
    await sendFriendRequest({ ctx: a.ctx, input: { id: b.id } });
    await sendFriendRequest({ ctx: c.ctx, input: { id: b.id } });
    const res = await call(removeRoute, { method: "DELETE", token: b.accessToken, params: { id: String(a.id) } });
    expect(res.status).toBe(200);
    expect(res.body.statusCode).toBeNull();
    const reqs = (await mine(b)).filter((n) => n.notificationType === "FRIEND_REQUEST");
    expect(reqs.find((n) => n.data.authorId === a.id)?.data.requestPending).toBe(false);
    expect(reqs.find((n) => n.data.authorId === c.id)?.data.requestPending).toBe(true);
    // A stale answer (already declined) is the friend calls' own refusal, not a 500.
    const again = await call(approveRoute, { method: "PUT", token: b.accessToken, params: { id: String(a.id) } });
    expect(again.status).toBeGreaterThanOrEqual(400);
    expect(again.status).toBeLessThan(500);
  });
});

describe("opening the bell marks what it shows read", () => {
  it("only the given ids of the viewer's own, the count follows; no body still marks everything", async () => {
    for (const who of [a, c]) await sendFriendRequest({ ctx: who.ctx, input: { id: b.id } });
    const post = await newPost(b.ctx);
    await createComment({ ctx: a.ctx, input: { postId: post.id, body: { commentText: "Привет из колокольчика" } } });
    const list = await mine(b);
    expect(list.length).toBe(3);
    expect(await count(b)).toBe(3);
    const shown = list.slice(0, 2).map((n) => n.id);
    // Somebody else's ids in the list change nothing of theirs.
    const aList = await mine(a);
    const res = await read(b, { ids: [...shown, ...aList.map((n) => n.id)] });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ count: 1 });
    expect(await count(b)).toBe(1);
    const after = await mine(b);
    expect(after.filter((n) => n.isRead).map((n) => n.id).sort()).toEqual([...shown].sort());
    expect((await mine(a)).every((n) => n.isRead === aList.find((x) => x.id === n.id)!.isRead)).toBe(true);
    expect((await read(b)).body).toEqual({ count: 0 });
  });

  it("hostile bodies get the standard validation envelope (422, 400 for broken JSON) and change nothing", async () => {
    await sendFriendRequest({ ctx: a.ctx, input: { id: b.id } });
    for (const body of [{ ids: [] }, { ids: ["1"] }, { ids: [-1] }, { ids: [1.5] }, { ids: Array.from({ length: 101 }, (_, i) => i + 1) }, { ids: 5 }, { all: true }, [1, 2]]) {
      const res = await read(b, body);
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(res.body.error.message, JSON.stringify(body)).toEqual(expect.any(String));
    }
    expect((await read(b, undefined, "{not json")).status).toBe(400);
    expect(await count(b)).toBe(1);
    const anonymous = await call(readedRoute, { method: "PUT", path: "/api/v1/notifications/readed", body: { ids: [1] } });
    expect(anonymous.status).toBe(401);
  });
});

describe("a notification about something gone", () => {
  it("says which: the comment, the post, the account", async () => {
    const post = await newPost(b.ctx);
    const comment = await createComment({ ctx: a.ctx, input: { postId: post.id, body: { commentText: "Скоро исчезну" } } });
    const other = await newPost(b.ctx, { title: "Вторая запись" });
    await createComment({ ctx: a.ctx, input: { postId: other.id, body: { commentText: "А я останусь" } } });
    await sendFriendRequest({ ctx: c.ctx, input: { id: b.id } });
    const before = await mine(b);
    expect(before.every((n) => n.data.gone === null)).toBe(true);

    await getSql()`update comments set is_deleted = true where id = ${comment.id}`;
    const byComment = (list: NotificationDto[], id: number) => list.find((n) => n.data.commentId === id);
    expect(byComment(await mine(b), comment.id)?.data.gone).toBe("COMMENT");

    await deleteMyAccount({ ctx: c.ctx });
    const req = (await mine(b)).find((n) => n.notificationType === "FRIEND_REQUEST");
    expect(req?.data.gone).toBe("ACCOUNT");
    expect(req?.data.requestPending).toBe(false);

    await deletePost({ ctx: b.ctx, input: { id: post.id } });
    const list = await mine(b);
    for (const n of list.filter((x) => x.data.postId === post.id)) expect(["POST", "COMMENT"]).toContain(n.data.gone);
    await deletePost({ ctx: b.ctx, input: { id: other.id } });
    expect((await mine(b)).find((n) => n.data.postId === other.id)?.data.gone).toBe("POST");
  });
});
