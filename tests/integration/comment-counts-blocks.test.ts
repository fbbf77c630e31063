import { sql } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import { GET as subRoute } from "@/app/api/v1/post/[id]/comment/[commentId]/subcomment/route";
import { GET as listRoute } from "@/app/api/v1/post/[id]/comment/route";
import { GET as postRoute } from "@/app/api/v1/post/[id]/route";
import { getDb } from "@/db/client";
import { resolveViewer } from "@/lib/server/auth/viewer";
import { env } from "@/lib/server/env";
import { setContentBlocked } from "@/lib/server/services/admin/content";
import { createComment } from "@/lib/server/services/comments/comments";
import { blockAccount, unblockAccount } from "@/lib/server/services/friends/actions";
import { ctxOf, signedInAccount } from "./helpers/factories";
import { call } from "./helpers/http";
import { newPost } from "./post-support";

// Issue 24 item 13 (docs/adr/0116): the count a post shows is the number of comments listed under it.

type Account = Awaited<ReturnType<typeof signedInAccount>>;
let anna: Account; // the post's author
let boris: Account; // comments, then is blocked by Anna
let clara: Account; // a third reader

beforeEach(async () => {
  [anna, boris, clara] = await Promise.all([
    signedInAccount({ firstName: "Anna", lastName: "Ivanova" }),
    signedInAccount({ firstName: "Boris", lastName: "Orlov" }),
    signedInAccount({ firstName: "Clara", lastName: "Smirnova" }),
  ]);
});

const count = async (who: Account, postId: number): Promise<number> =>
  (await call(postRoute, { token: who.accessToken, params: { id: String(postId) } })).body.commentsCount;

/** Every comment `who` can reach under the post: the top ones and the replies of each. */
async function listed(who: Account, postId: number): Promise<{ id: number; isBlocked: boolean }[]> {
  const top = (await call(listRoute, { path: `/api/v1/post/${postId}/comment?size=50`, token: who.accessToken, params: { id: String(postId) } })).body.content;
  const out = [...top];
  for (const c of top) {
    const replies = await call(subRoute, {
      path: `/api/v1/post/${postId}/comment/${c.id}/subcomment?size=50`,
      token: who.accessToken,
      params: { id: String(postId), commentId: String(c.id) },
    });
    out.push(...replies.body.content);
  }
  return out;
}

async function staff(): Promise<Account> {
  const m = await signedInAccount();
  await getDb().execute(sql`update accounts set role = 'MODERATOR' where id = ${m.id}`);
  const viewer = (await resolveViewer(getDb(), m.accessToken, env().AUTH_SECRET))!;
  return { ...m, viewer, ctx: ctxOf(viewer) };
}

describe("comments of a person the post's author blocked", () => {
  it("leave the post for every reader and its counts in the block's transaction, and come back on unblock", async () => {
    const post = await newPost(anna.ctx);
    await createComment({ ctx: boris.ctx, input: { postId: post.id, body: { commentText: "Первый от Бориса" } } });
    const claras = await createComment({ ctx: clara.ctx, input: { postId: post.id, body: { commentText: "Комментарий Клары" } } });
    await createComment({ ctx: boris.ctx, input: { postId: post.id, body: { parentId: claras.id, commentText: "Ответ Бориса" } } });
    expect(await count(anna, post.id)).toBe(3);
    expect(await listed(anna, post.id)).toHaveLength(3);

    await blockAccount({ ctx: anna.ctx, input: { id: boris.id } });
    for (const reader of [anna, clara]) {
      const shown = await listed(reader, post.id);
      expect(shown.map((c) => c.id)).toEqual([claras.id]);
      expect(await count(reader, post.id)).toBe(shown.length);
    }
    const top = (await call(listRoute, { token: clara.accessToken, params: { id: String(post.id) } })).body.content;
    expect(top).toMatchObject([{ id: claras.id, commentsCount: 0 }]);
    // Nobody can answer a comment that is off the post.
    const hidden = (await getDb().execute<{ id: string }>(sql`select id from comments where post_id = ${post.id} and author_id = ${boris.id} and parent_id is null`))[0];
    await expect(createComment({ ctx: clara.ctx, input: { postId: post.id, body: { parentId: Number(hidden.id), commentText: "Ответ в пустоту" } } })).rejects.toMatchObject({ code: "validation_failed", message: "commentErrors.parentInvalid" });

    await unblockAccount({ ctx: anna.ctx, input: { id: boris.id } });
    expect(await count(clara, post.id)).toBe(3);
    expect(await listed(clara, post.id)).toHaveLength(3);
    expect((await call(listRoute, { token: clara.accessToken, params: { id: String(post.id) } })).body.content.find((c: { id: number }) => c.id === claras.id).commentsCount).toBe(1);
  });

  it("a moderator's block of such a comment does not take it out of the counts a second time", async () => {
    const moderator = await staff();
    const post = await newPost(anna.ctx);
    const first = await createComment({ ctx: boris.ctx, input: { postId: post.id, body: { commentText: "Первый от Бориса" } } });
    await createComment({ ctx: boris.ctx, input: { postId: post.id, body: { commentText: "Второй от Бориса" } } });
    await createComment({ ctx: clara.ctx, input: { postId: post.id, body: { commentText: "Комментарий Клары" } } });

    await blockAccount({ ctx: boris.ctx, input: { id: anna.id } }); // a block either way keeps them apart
    expect(await count(clara, post.id)).toBe(1);
    await setContentBlocked({ ctx: moderator.ctx, input: { id: first.id }, kind: "comment", blocked: true });
    expect(await count(clara, post.id)).toBe(1);
    await unblockAccount({ ctx: boris.ctx, input: { id: anna.id } });
    expect(await count(clara, post.id)).toBe(2);
    expect(await listed(clara, post.id)).toHaveLength(2);
    await setContentBlocked({ ctx: moderator.ctx, input: { id: first.id }, kind: "comment", blocked: false });
    expect(await count(clara, post.id)).toBe(3);
  });

  it("a moderated comment is listed to its author alone, marked, outside the count everyone sees", async () => {
    const moderator = await staff();
    const post = await newPost(anna.ctx);
    const own = await createComment({ ctx: boris.ctx, input: { postId: post.id, body: { commentText: "Спорный комментарий" } } });
    await setContentBlocked({ ctx: moderator.ctx, input: { id: own.id }, kind: "comment", blocked: true });
    expect(await listed(boris, post.id)).toMatchObject([{ id: own.id, isBlocked: true }]);
    expect(await listed(clara, post.id)).toEqual([]);
    expect(await count(boris, post.id)).toBe(0);
    expect(await count(clara, post.id)).toBe(0);
  });
});
