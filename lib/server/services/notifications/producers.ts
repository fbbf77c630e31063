import "server-only";
import { sql, type SQL } from "drizzle-orm";
import type { Tx } from "@/db/client";
import type { MailKind } from "@/lib/validation/notifications-shared";
import { excerpt, forgetBetween, notificationWrite, notify } from "./produce";

// One entry point per cause, each called once from its service inside the service's transaction
// (friends, posts, comments, reactions, dialogs, auth). Who receives what: issue 12 and ADR 0070.

/**
 * A friend action of `actorId` towards `targetId` (the friends service's event name). Requests,
 * approvals and subscriptions tell the other person. A block is told to nobody (ADR 0070, amended by
 * ADR 0114): what the two notified each other of goes, and the blocker's own bell gets nothing either
 * (an unread entry with the blocked person's name and face read as a notice *from* them).
 */
export async function notifyFriendAction(tx: Tx, input: { event: string; actorId: number; targetId: number }): Promise<void> {
  const { event, actorId, targetId } = input;
  switch (event) {
    case "FRIEND_REQUEST":
    case "FRIEND_APPROVE":
      await notify(tx, { type: event, actorId, recipients: [targetId] });
      return;
    case "FRIEND_SUBSCRIBE":
      // Subscribing, unsubscribing and subscribing again rings the bell once while it is unread (ADR 0109).
      await notify(tx, { type: event, actorId, recipients: [targetId], groupKey: `FRIEND_SUBSCRIBE:${actorId}`, repeatIsNoNews: true });
      return;
    case "FRIEND_BLOCKED":
      await forgetBetween(tx, actorId, targetId);
      return;
    default:
      return; // FRIEND_UNBLOCKED, FRIEND_REMOVED and cancellations tell nobody.
  }
}

/**
 * A post became visible (now, or a scheduled one at its time): its author's friends and subscribers
 * hear of it, as one INSERT … SELECT over the author's relations. Marks the post announced, so the
 * publishing job never announces it twice.
 */
export async function notifyPostPublished(
  tx: Tx,
  post: { id: number; authorId: number },
  // A closed page's post is told to its friends only (privacy/rules.ts#postAudience, docs/adr/0125).
  audience: readonly ("FRIEND" | "WATCHING")[] = ["FRIEND", "WATCHING"],
): Promise<void> {
  await tx.execute(sql`insert into post_announcements (post_id) values (${post.id}) on conflict do nothing`);
  const [row] = await tx.execute<{ title: string }>(sql`select title from posts where id = ${post.id}`);
  await notify(tx, {
    type: "POST",
    actorId: post.authorId,
    recipients: { actorRelations: audience },
    postId: post.id,
    content: excerpt(row?.title ?? ""),
  });
}

/**
 * A new comment `commentId` by `actorId` on post `postId`: the post's author gets POST_COMMENT; the
 * author of the comment replied to gets COMMENT_COMMENT (once: not again when they also wrote the post).
 * Unread comments group per post (and per replied comment).
 */
export async function notifyComment(
  tx: Tx,
  input: { actorId: number; postId: number; postAuthorId: number; commentId: number; repliedTo: { commentId: number; authorId: number } | null; text: string },
): Promise<void> {
  const content = excerpt(input.text);
  await notify(tx, {
    type: "POST_COMMENT",
    actorId: input.actorId,
    recipients: [input.postAuthorId],
    postId: input.postId,
    commentId: input.commentId,
    content,
    groupKey: `POST_COMMENT:${input.postId}`,
  });
  const replied = input.repliedTo;
  if (replied && replied.authorId !== input.postAuthorId) {
    await notify(tx, {
      type: "COMMENT_COMMENT",
      actorId: input.actorId,
      recipients: [replied.authorId],
      postId: input.postId,
      commentId: input.commentId,
      content,
      groupKey: `COMMENT_COMMENT:${replied.commentId}`,
    });
  }
}

/**
 * Issue 27: `actorId` shared post `originalId` on their wall as post `repostId`: the original's author
 * hears of it (REPOST, its own switch); unread shares of one original are one entry that leads to the
 * newest repost.
 */
export async function notifyRepost(
  tx: Tx,
  input: { actorId: number; repostId: number; originalId: number; originalAuthorId: number; originalTitle: string },
): Promise<void> {
  await notify(tx, {
    type: "REPOST",
    actorId: input.actorId,
    recipients: [input.originalAuthorId],
    postId: input.repostId,
    content: excerpt(input.originalTitle),
    groupKey: `REPOST:${input.originalId}`,
  });
}

/**
 * Issue 41: `actorId` added `recipients` to the group conversation `dialogId` titled `title`. Each of them
 * gets an entry of their own (GROUP_ADDED, its own switch; not grouped: being added to two conversations
 * is two pieces of news) that leads to the conversation; nobody with a block either way with the actor
 * hears of it, nor the actor.
 */
export async function notifyGroupAdded(tx: Tx, input: { actorId: number; recipients: number[]; dialogId: number; title: string }): Promise<void> {
  if (input.recipients.length === 0) return;
  await notify(tx, {
    type: "GROUP_ADDED",
    actorId: input.actorId,
    recipients: input.recipients,
    dialogId: input.dialogId,
    content: excerpt(input.title),
  });
}

/**
 * Issue 42: `actorId` asked to join the closed community `communityId`: its owner and admins hear of it
 * (COMMUNITY_REQUEST, its own switch), each in one entry per community while unread ("Анна и ещё 2 хотят
 * вступить в сообщество «…»"), which leads to the community's requests.
 */
export async function notifyCommunityRequest(tx: Tx, input: { actorId: number; communityId: number }): Promise<void> {
  const admins = await tx.execute<{ account_id: string }>(sql`
    select account_id from community_members
    where community_id = ${input.communityId} and status = 'MEMBER' and role in ('OWNER', 'ADMIN')`);
  if (admins.length === 0) return;
  await notify(tx, {
    type: "COMMUNITY_REQUEST",
    actorId: input.actorId,
    recipients: admins.map((r) => Number(r.account_id)),
    communityId: input.communityId,
    groupKey: `COMMUNITY_REQUEST:${input.communityId}`,
  });
}

/** Issue 42: admin `actorId` accepted `accountId`'s request to join `communityId` (COMMUNITY_ACCEPTED). */
export async function notifyCommunityAccepted(tx: Tx, input: { actorId: number; accountId: number; communityId: number }): Promise<void> {
  await notify(tx, { type: "COMMUNITY_ACCEPTED", actorId: input.actorId, recipients: [input.accountId], communityId: input.communityId });
}

/** Issue 42: member `actorId` invited `accountId` to `communityId` (COMMUNITY_INVITATION): it leads to where they accept. */
export async function notifyCommunityInvitation(tx: Tx, input: { actorId: number; accountId: number; communityId: number }): Promise<void> {
  await notify(tx, { type: "COMMUNITY_INVITATION", actorId: input.actorId, recipients: [input.accountId], communityId: input.communityId });
}

/**
 * The most members one post on a community's wall notifies (COMMUNITY_POST): the fan-out is one INSERT …
 * SELECT in the post's transaction, so it is bounded as a friend's POST is by the friends limit; past it,
 * the earliest members to have joined are told.
 */
export const COMMUNITY_POST_FANOUT_MAX = 5000;

/**
 * Issue 42: post `postId` appeared on the wall of `communityId` (published at once): the members who
 * switched "notify me of new posts" on hear of it (COMMUNITY_POST), up to COMMUNITY_POST_FANOUT_MAX, as
 * one statement. Members only, so a closed or private community's post title never leaves them. A post
 * signed by the community shows the community, not the admin who wrote it.
 */
export async function notifyCommunityPost(tx: Tx, input: { postId: number; communityId: number; authorId: number }): Promise<void> {
  const [post] = await tx.execute<{ title: string; as_community: boolean }>(sql`select title, as_community from posts where id = ${input.postId}`);
  if (!post) return;
  await notify(tx, {
    type: "COMMUNITY_POST",
    actorId: input.authorId,
    authorId: post.as_community ? null : input.authorId,
    // Signed by the community, it is still its writer's: a block between them and a member removes it.
    actorBehind: true,
    recipients: { communityMembers: input.communityId, limit: COMMUNITY_POST_FANOUT_MAX },
    postId: input.postId,
    communityId: input.communityId,
    content: excerpt(post.title),
  });
}

/**
 * A new reaction on a post (`commentId` null) or a like on a comment: its author hears of it; unread
 * likes of one post (or one comment) are one entry, "Анна и ещё 4 оценили вашу запись".
 */
export async function notifyLike(tx: Tx, input: { actorId: number; postId: number; commentId?: number | null }): Promise<void> {
  const commentId = input.commentId ?? null;
  const [target] = commentId
    ? await tx.execute<{ author_id: string; text: string }>(sql`select author_id, comment_text as text from comments where id = ${commentId}`)
    : await tx.execute<{ author_id: string; text: string }>(sql`select author_id, title as text from posts where id = ${input.postId}`);
  if (!target) return;
  await notify(tx, {
    type: "LIKE",
    actorId: input.actorId,
    recipients: [Number(target.author_id)],
    postId: input.postId,
    commentId,
    content: excerpt(target.text),
    groupKey: commentId ? `LIKE:comment:${commentId}` : `LIKE:post:${input.postId}`,
  });
}

/**
 * A chat message: its recipient hears of it; unread ones of one dialog are one entry. Written in the
 * message's own statement (services/dialogs/messages.ts), so this gives the parts of that write.
 */
export function messageNotification(input: { actorId: number; recipientId: number; dialogId: number; text: string }, name: string, onlyIf: SQL) {
  return notificationWrite(
    {
      type: "MESSAGE",
      actorId: input.actorId,
      recipients: [input.recipientId],
      dialogId: input.dialogId,
      content: excerpt(input.text),
      groupKey: `MESSAGE:${input.dialogId}`,
    },
    name,
    onlyIf,
  );
}

/** Krug mailed the person (e-mail change, password change): a system notification, always on. */
export async function notifyMailSent(tx: Tx, input: { accountId: number; kind: MailKind }): Promise<void> {
  await notify(tx, { type: "SEND_EMAIL_MESSAGE", actorId: null, recipients: [input.accountId], content: input.kind });
}
