// Helpers shared by the post*.test.ts suites.
import { sql } from "drizzle-orm";
import { getDb } from "@/db/client";
import { createPost } from "@/lib/server/services/posts/write-posts";
import type { ServiceCtx } from "@/lib/server/services/context";

export const validPost = (overrides: Record<string, unknown> = {}) => ({
  title: "Мой пост",
  postText: "<p>Текст поста для проверки</p>",
  ...overrides,
});

export async function newPost(ctx: ServiceCtx, overrides: Record<string, unknown> = {}) {
  return createPost({ ctx, input: validPost(overrides) });
}

/** Row counts of every table a post write touches, to show a refusal stored nothing. */
export async function postTables() {
  const [row] = await getDb().execute<Record<string, number>>(sql`
    select (select count(*)::int from posts) as posts,
           (select count(*)::int from tags) as tags,
           (select count(*)::int from post_tags) as post_tags,
           (select count(*)::int from post_reactions) as reactions,
           (select coalesce(sum(like_amount), 0)::int from posts) as likes,
           (select md5(coalesce(string_agg(concat_ws('|', id, title, post_text, image_path, publish_date, is_deleted), ',' order by id), '')) from posts) as digest`);
  return { ...row };
}

/** Moves a post's publish time (tests of order and scheduling). */
export async function setPublishDate(id: number, when: Date) {
  await getDb().execute(sql`update posts set publish_date = ${when.toISOString()}::timestamptz where id = ${id}`);
}
