import "server-only";
import { sql } from "drizzle-orm";
import { requireViewer, withTransaction, type ServiceCtx } from "../context";
import { createComment, deleteComment, editComment } from "./comments";

/**
 * Replies from the fediverse (issue 43, docs/adr/0174): a remote person's Note in reply to a post (or to a
 * comment) becomes their comment through the very verbs a local comment takes — the same checks (the post
 * open to them, no block either way), limits, counts and notifications — and is known by its Note's id so
 * that its Update and Delete find it. The text is the Note's, already made plain by the federation module.
 */

type At = { postId: number; parentId: number | null };

/** A reply as the viewer's comment; its id, or the one already made for that Note. */
export async function storeRemoteComment({ ctx, input }: { ctx: ServiceCtx; input: At & { uri: string; text: string } }): Promise<number> {
  requireViewer(ctx);
  const known = await commentOfNote(ctx, input.uri);
  if (known) return known.id;
  return withTransaction(ctx, async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`krug:remote-comment:${input.uri}`}, 0))`);
    const [again] = await tx.execute<{ comment_id: string }>(sql`select comment_id from remote_comments where uri = ${input.uri}`);
    if (again) return Number(again.comment_id);
    const comment = await createComment({
      ctx: { ...ctx, tx },
      input: { postId: input.postId, body: { commentText: input.text, ...(input.parentId ? { parentId: input.parentId } : {}) } },
    });
    await tx.execute(sql`insert into remote_comments (comment_id, uri) values (${comment.id}, ${input.uri})`);
    return comment.id;
  });
}

/** A reply's Update: the viewer's comment of that Note takes its new text. False when there is none. */
export async function editRemoteComment({ ctx, input }: { ctx: ServiceCtx; input: { uri: string; text: string } }): Promise<boolean> {
  const known = await commentOfNote(ctx, input.uri);
  if (!known || known.authorId !== requireViewer(ctx).id) return false;
  await editComment({ ctx, input: { postId: known.postId, body: { id: known.id, commentText: input.text } } });
  return true;
}

/** A reply's Delete: the viewer's comment of that Note is deleted as its author deletes it here. */
export async function deleteRemoteComment({ ctx, uri }: { ctx: ServiceCtx; uri: string }): Promise<boolean> {
  const known = await commentOfNote(ctx, uri);
  if (!known || known.authorId !== requireViewer(ctx).id || known.isDeleted) return false;
  await deleteComment({ ctx, input: { postId: known.postId, id: known.id } });
  return true;
}

/** The comment made of the Note `uri`, or null. */
export async function commentOfNote(ctx: ServiceCtx, uri: string): Promise<{ id: number; postId: number; authorId: number; isDeleted: boolean } | null> {
  if (uri.length > 2048) return null;
  const [row] = await (ctx.tx ?? ctx.db).execute<{ id: string; post_id: string; author_id: string; is_deleted: boolean }>(sql`
    select c.id, c.post_id, c.author_id, c.is_deleted from remote_comments r join comments c on c.id = r.comment_id where r.uri = ${uri}`);
  return row ? { id: Number(row.id), postId: Number(row.post_id), authorId: Number(row.author_id), isDeleted: row.is_deleted } : null;
}
