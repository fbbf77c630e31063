import "server-only";
import { sql } from "drizzle-orm";
import { consumeAccountLimits } from "@/lib/server/http/rate-limit";
import { charCount, remotePostInput, visibleText } from "@/lib/validation/post";
import { sanitizePostHtml } from "@/lib/validation/post-html";
import { requireViewer, withTransaction, type ServiceCtx } from "../context";
import { queueTimelineSync } from "./home-timeline";
import { attachTags, parseInput } from "./shared";
import { announce, deletePost } from "./write-posts";

/**
 * Posts of people on other servers (issue 43, docs/adr/0174): the verbs the federation module calls with
 * the remote author as the viewer. A Note becomes a post of their wall as a local post does — the same
 * sanitiser, the same per-account limit, its readers' timelines and notifications in the same transaction —
 * without a title (a Note has none), and known by its Note's id so that its Update and Delete find it.
 */

/**
 * A Note as a new post of the viewer's; the post's id, or the one already made for that Note; null when
 * nothing visible is left. `recent`: one of the newest posts read from their outbox when we first met them
 * (at most ten, our own doing): not counted against their limit, which is for what they send us.
 */
export async function storeRemotePost({ ctx, input, recent = false }: { ctx: ServiceCtx; input: unknown; recent?: boolean }): Promise<number | null> {
  const viewer = requireViewer(ctx);
  const data = parseInput(remotePostInput, input);
  const known = await postOfNote(ctx, viewer.id, data.uri, true);
  if (known !== null) return known;
  if (!recent) await consumeAccountLimits(["post"], viewer.id);
  const postText = sanitizePostHtml(data.postText);
  if (charCount(visibleText(postText)) === 0 && !data.imagePath) return null;
  return withTransaction(ctx, async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`krug:remote-post:${data.uri}`}, 0))`);
    const [again] = await tx.execute<{ post_id: string }>(sql`select post_id from remote_posts where uri = ${data.uri}`);
    if (again) return Number(again.post_id);
    const [row] = await tx.execute<{ id: string }>(sql`
      insert into posts (author_id, title, post_text, image_path) values (${viewer.id}, '', ${postText}, ${data.imagePath ?? null}) returning id`);
    const id = Number(row!.id);
    await tx.execute(sql`insert into remote_posts (post_id, uri) values (${id}, ${data.uri})`);
    await attachTags(tx, id, data.tags ?? []);
    await announce(tx, { id, authorId: viewer.id });
    await queueTimelineSync(tx, id);
    return id;
  });
}

/** A Note's Update: the viewer's post of that Note takes its new text. False when there is no such post. */
export async function editRemotePost({ ctx, input }: { ctx: ServiceCtx; input: unknown }): Promise<boolean> {
  const viewer = requireViewer(ctx);
  const data = parseInput(remotePostInput, input);
  const id = await postOfNote(ctx, viewer.id, data.uri, false);
  if (id === null) return false;
  await consumeAccountLimits(["contentChange"], viewer.id);
  const postText = sanitizePostHtml(data.postText);
  if (charCount(visibleText(postText)) === 0) return false;
  await withTransaction(ctx, (tx) =>
    tx.execute(sql`update posts set post_text = ${postText}, time_changed = now() where id = ${id} and author_id = ${viewer.id} and not is_deleted`),
  );
  return true;
}

/** A Note's Delete: the viewer's post of that Note is deleted as its author deletes it here. */
export async function deleteRemotePost({ ctx, uri }: { ctx: ServiceCtx; uri: string }): Promise<boolean> {
  const viewer = requireViewer(ctx);
  const id = await postOfNote(ctx, viewer.id, uri, false);
  if (id === null) return false;
  await deletePost({ ctx, input: { id } });
  return true;
}

/** The viewer's post made of the Note `uri` (deleted ones too when `anyState`), or null. */
async function postOfNote(ctx: ServiceCtx, authorId: number, uri: string, anyState: boolean): Promise<number | null> {
  if (uri.length > 2048) return null;
  const [row] = await (ctx.tx ?? ctx.db).execute<{ post_id: string }>(sql`
    select r.post_id from remote_posts r join posts p on p.id = r.post_id
    where r.uri = ${uri} and p.author_id = ${authorId} and (${anyState} or not p.is_deleted)`);
  return row ? Number(row.post_id) : null;
}
