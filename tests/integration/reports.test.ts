import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { GET as auditRoute } from "@/app/api/v1/admin/audit/route";
import { GET as countRoute } from "@/app/api/v1/admin/reports/count/route";
import { POST as loginRoute } from "@/app/api/v1/auth/login/route";
import { GET as messagesRoute } from "@/app/api/v1/dialogs/messages/route";
import { POST as reportRoute } from "@/app/api/v1/reports/route";
import { getDb } from "@/db/client";
import { createComment } from "@/lib/server/services/comments/comments";
import { addMembers, createGroup } from "@/lib/server/services/dialogs/groups";
import { sendMessage } from "@/lib/server/services/dialogs/messages";
import { editPost } from "@/lib/server/services/posts/write-posts";
import { ownBlocksOnPost } from "@/lib/server/services/reports/own-blocks";
import { liftEndedBlocks } from "@/lib/server/services/admin/ended-blocks";
import { call } from "./helpers/http";
import { newPost } from "./post-support";
import { groupOf, openGroupRow, queue, report, reportCast, reportResolvedOf, resolve, withRole, type Account } from "./report-support";

// Issue 26 sections 1 and 2: POST reports, the queue and its three actions (docs/adr/0126).
vi.stubEnv("RATE_LIMIT_REPORT", "12/1h");

let author: Account, bob: Account, carol: Account, moderator: Account;

beforeAll(async () => {
  ({ author, bob, carol, moderator } = await reportCast());
});

describe("POST reports", () => {
  it("201 for a report, 409 for the same open target again, grouped with another reporter's", async () => {
    const post = await newPost(author.ctx, { title: "Спам-пост" });
    const first = await report(bob, { targetType: "POST", targetId: post.id, category: "SPAM", comment: "Реклама" });
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({ targetType: "POST", targetId: post.id, category: "SPAM" });
    const again = await report(bob, { targetType: "POST", targetId: post.id, category: "FRAUD" });
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe("conflict");
    const other = await report(carol, { targetType: "POST", targetId: post.id, category: "FRAUD" });
    expect(other.status).toBe(201);
    expect(await groupOf("POST", post.id)).toEqual([{ id: expect.any(Number), count: 2, status: "OPEN" }]);
    const row = await openGroupRow(moderator, "POST", post.id);
    expect(row.reportsCount).toBe(2);
    expect(row.reports.map((r: { reporter: { id: number } }) => r.reporter.id).sort()).toEqual([bob.id, carol.id].sort());
    expect(row.categories).toEqual(expect.arrayContaining([{ category: "SPAM", count: 1 }, { category: "FRAUD", count: 1 }]));
    expect(row.reports.find((r: { reporter: { id: number } }) => r.reporter.id === bob.id).comment).toBe("Реклама");
  });

  it("refuses reporting oneself or one's own content, bad input, a deleted or blocked reporter", async () => {
    const post = await newPost(author.ctx);
    expect((await report(author, { targetType: "POST", targetId: post.id, category: "SPAM" })).status).toBe(403);
    expect((await report(author, { targetType: "ACCOUNT", targetId: author.id, category: "SPAM" })).status).toBe(403);
    expect((await report(bob, { targetType: "POST", targetId: post.id, category: "NOPE" })).status).toBe(422);
    expect((await report(bob, { targetType: "THING", targetId: post.id, category: "SPAM" })).status).toBe(422);
    const long = await report(bob, { targetType: "POST", targetId: post.id, category: "OTHER", comment: "x".repeat(1001) });
    expect(long.status).toBe(422);
    expect((await report(bob, { targetType: "POST", targetId: 999_999_999, category: "SPAM" })).status).toBe(404);
    expect((await call(reportRoute, { path: "/api/v1/reports", body: { targetType: "POST", targetId: post.id, category: "SPAM" } })).status).toBe(401);

    const deleted = await withRole("USER");
    await getDb().execute(sql`update accounts set is_deleted = true, deletion_timestamp = now() where id = ${deleted.id}`);
    expect((await report(deleted, { targetType: "POST", targetId: post.id, category: "SPAM" })).status).toBe(403);
    const blocked = await withRole("USER");
    await getDb().execute(sql`update accounts set is_blocked = true where id = ${blocked.id}`);
    expect((await report(blocked, { targetType: "POST", targetId: post.id, category: "SPAM" })).status).toBe(401);
    expect(await groupOf("POST", post.id)).toEqual([]);
  });

  it("keeps the post as it was reported when its author edits it afterwards", async () => {
    const post = await newPost(author.ctx, { title: "Оскорбление", postText: "<p>Грубые <strong>слова</strong><script>x</script></p>" });
    expect((await report(bob, { targetType: "POST", targetId: post.id, category: "INSULT" })).status).toBe(201);
    await editPost({ ctx: author.ctx, input: { id: post.id, title: "Котики", postText: "<p>Всё хорошо</p>" } });
    const row = await openGroupRow(moderator, "POST", post.id);
    expect(row.snapshot).toMatchObject({ kind: "POST", title: "Оскорбление", author: { id: author.id } });
    expect(row.snapshot.html).toBe("<p>Грубые <strong>слова</strong></p>");
  });

  it("copies a reported message with at most five earlier ones, only of that dialog", async () => {
    const say = (from: Account, to: Account, text: string) => sendMessage({ ctx: from.ctx, input: { recipientId: to.id, messageText: text } });
    const ids: number[] = [];
    for (let i = 1; i <= 8; i++) {
      const sent = await say(i % 2 ? author : bob, i % 2 ? bob : author, `bob-dialog ${i}`);
      ids.push(sent.message.id);
      await say(author, carol, `carol-dialog ${i}`);
    }
    const reported = ids[6]; // "bob-dialog 7", by the author
    // Carol is not in that dialog: for her the message does not exist.
    expect((await report(carol, { targetType: "MESSAGE", targetId: reported, category: "INSULT" })).status).toBe(404);
    // The author cannot report their own message.
    expect((await report(author, { targetType: "MESSAGE", targetId: reported, category: "INSULT" })).status).toBe(403);
    expect((await report(bob, { targetType: "MESSAGE", targetId: reported, category: "INSULT" })).status).toBe(201);
    const row = await openGroupRow(moderator, "MESSAGE", reported);
    const copied = row.snapshot.messages as { id: number; text: string; reported: boolean }[];
    expect(copied.map((m) => m.id)).toEqual(ids.slice(1, 7));
    expect(copied.map((m) => m.text)).toEqual([2, 3, 4, 5, 6, 7].map((i) => `bob-dialog ${i}`));
    expect(copied.filter((m) => m.reported).map((m) => m.id)).toEqual([reported]);
    expect(row.author.id).toBe(author.id);

    // Staff read messages only through a report's copy: the dialog itself stays closed to them.
    const dialogId = row.snapshot.dialogId as number;
    const direct = await call(messagesRoute, { token: moderator.accessToken, path: `/api/v1/dialogs/messages?dialogId=${dialogId}` });
    expect([403, 404]).toContain(direct.status);
    expect(JSON.stringify(direct.body)).not.toContain("bob-dialog");
  });

  it("a group conversation's message (issue 41): any member who sees it reports it, with context only from what they see", async () => {
    const group = await createGroup({ ctx: author.ctx, input: { title: "Report me", memberIds: [bob.id] } });
    const say = (text: string) => sendMessage({ ctx: author.ctx, input: { dialogId: group.id, messageText: text } });
    await say("before carol 1");
    await say("before carol 2");
    await addMembers({ ctx: author.ctx, input: { id: group.id, accountIds: [carol.id] } });
    const early = (await say("only bob and the author saw the start")).message.id;
    const reported = (await say("group insult")).message.id;
    // Carol joined after "before carol": her report's copy starts at her joining.
    expect((await report(carol, { targetType: "MESSAGE", targetId: reported, category: "INSULT" })).status).toBe(201);
    const copied = (await openGroupRow(moderator, "MESSAGE", reported)).snapshot.messages as { id: number; text: string }[];
    expect(copied.map((m) => m.text)).toEqual(["only bob and the author saw the start", "group insult"]);
    expect(copied.some((m) => m.text.startsWith("before carol"))).toBe(false);
    expect(copied.at(-2)?.id).toBe(early);
    // A message from before she joined is not hers to report; nor is an event line; nor a stranger's.
    const [first] = await getDb().execute<{ id: string }>(sql`select id from messages where dialog_id = ${group.id} and message_text = 'before carol 1'`);
    expect((await report(carol, { targetType: "MESSAGE", targetId: Number(first.id), category: "SPAM" })).status).toBe(404);
    const [line] = await getDb().execute<{ id: string }>(sql`select id from messages where dialog_id = ${group.id} and event is not null order by id limit 1`);
    expect((await report(bob, { targetType: "MESSAGE", targetId: Number(line.id), category: "SPAM" })).status).toBe(404);
    const stranger = await withRole("USER");
    expect((await report(stranger, { targetType: "MESSAGE", targetId: reported, category: "SPAM" })).status).toBe(404);
  });

  it("reports a comment and a profile, and blocks the author in the same step", async () => {
    const post = await newPost(author.ctx);
    const comment = await createComment({ ctx: author.ctx, input: { postId: post.id, body: { commentText: "Злой комментарий" } } });
    expect((await report(carol, { targetType: "COMMENT", targetId: comment.id, category: "INSULT" })).status).toBe(201);
    const snap = (await openGroupRow(moderator, "COMMENT", comment.id)).snapshot;
    expect(snap).toMatchObject({ kind: "COMMENT", text: "Злой комментарий", postId: post.id });

    const res = await report(carol, { targetType: "ACCOUNT", targetId: author.id, category: "FRAUD", block: true });
    expect(res.status).toBe(201);
    const [side] = await getDb().execute<{ status_code: string }>(
      sql`select status_code from friendships where account_id = ${carol.id} and friend_id = ${author.id}`,
    );
    expect(side.status_code).toBe("BLOCKED");
    expect((await openGroupRow(moderator, "ACCOUNT", author.id)).snapshot).toMatchObject({ kind: "ACCOUNT", person: { id: author.id, firstName: "Anna" } });
  });

  it("rate limits reports per account (429)", async () => {
    const flooder = await withRole("USER");
    const targets = await Promise.all(Array.from({ length: 13 }, () => withRole("USER")));
    const statuses: number[] = [];
    for (const t of targets) statuses.push((await report(flooder, { targetType: "ACCOUNT", targetId: t.id, category: "SPAM" })).status);
    expect(statuses.slice(0, 12).every((s) => s === 201)).toBe(true);
    expect(statuses[12]).toBe(429);
  });
});

describe("the moderation queue", () => {
  it("is for staff only, in the page envelope, with the live count announced to staff", async () => {
    expect((await queue(null)).status).toBe(401);
    expect((await queue(bob)).status).toBe(403);
    expect((await call(countRoute, { token: bob.accessToken, path: "/api/v1/admin/reports/count" })).status).toBe(403);
    const page = await queue(moderator, "status=OPEN&page=0&size=2&sort=most");
    expect(page.status).toBe(200);
    expect(page.body).toMatchObject({ size: 2, number: 0, totalElements: expect.any(Number), totalPages: expect.any(Number) });
    expect(page.body.content.length).toBeLessThanOrEqual(2);
    const counts = page.body.content.map((g: { reportsCount: number }) => g.reportsCount);
    expect([...counts].sort((a, b) => b - a)).toEqual(counts);
    expect((await queue(moderator, "status=NOPE")).status).toBe(422);
    const count = await call(countRoute, { token: moderator.accessToken, path: "/api/v1/admin/reports/count" });
    expect(count.body.count).toBe(page.body.totalElements);
    const [event] = await getDb().execute<{ recipients: number[]; payload: { open: number } }>(
      sql`select recipients, payload from events where type = 'REPORTS_CHANGED' order by id desc limit 1`,
    );
    expect(event.recipients.map(Number)).toContain(moderator.id);
    expect(event.recipients.map(Number)).not.toContain(bob.id);
  });

  it("dismisses with a reason: the audit row, the group resolved, the reporters notified (their switch permitting)", async () => {
    const post = await newPost(author.ctx, { title: "Спорно" });
    const quiet = await withRole("USER");
    await getDb().execute(sql`insert into notification_settings (account_id, enable_report_resolved) values (${quiet.id}, false)`);
    await report(bob, { targetType: "POST", targetId: post.id, category: "OTHER" });
    await report(quiet, { targetType: "POST", targetId: post.id, category: "OTHER" });
    const [group] = await groupOf("POST", post.id);
    const before = (await reportResolvedOf(bob)).length;
    expect((await resolve(moderator, group.id, { action: "DISMISS" })).status).toBe(422);
    expect((await resolve(bob, group.id, { action: "DISMISS", reason: "Нет нарушения" })).status).toBe(403);
    const res = await resolve(moderator, group.id, { action: "DISMISS", reason: "Нет нарушения" });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: "RESOLVED", resolution: { action: "DISMISS", reason: "Нет нарушения", moderator: { id: moderator.id } } });
    expect((await resolve(moderator, group.id, { action: "DISMISS", reason: "again" })).status).toBe(409);
    const audit = await call(auditRoute, { token: moderator.accessToken, path: "/api/v1/admin/audit" });
    expect(audit.body.content[0]).toMatchObject({ action: "REPORT_DISMISSED", targetType: "POST", targetId: post.id, reason: "Нет нарушения" });
    const mine = await reportResolvedOf(bob);
    expect(mine.length).toBe(before + 1);
    expect(mine[0]).toMatchObject({ content: "DISMISS", data: { postId: null, author: null } });
    expect(await reportResolvedOf(quiet)).toEqual([]);
    // Once resolved, a new report of the same target (even by the same person) opens a new group.
    expect((await report(bob, { targetType: "POST", targetId: post.id, category: "SPAM" })).status).toBe(201);
    expect((await groupOf("POST", post.id)).map((g) => g.status)).toEqual(["RESOLVED", "OPEN"]);
    const resolved = await queue(moderator, "status=RESOLVED");
    expect(resolved.body.content[0]).toMatchObject({ id: group.id, status: "RESOLVED" });
  });

  it("blocks the content with its audit row; BLOCK_CONTENT does not apply to a message", async () => {
    const post = await newPost(author.ctx);
    const comment = await createComment({ ctx: author.ctx, input: { postId: post.id, body: { commentText: "Спам" } } });
    await report(bob, { targetType: "COMMENT", targetId: comment.id, category: "SPAM" });
    const [group] = await groupOf("COMMENT", comment.id);
    const res = await resolve(moderator, group.id, { action: "BLOCK_CONTENT", reason: "Спам в комментариях" });
    expect(res.status).toBe(200);
    const [row] = await getDb().execute<{ is_blocked: boolean }>(sql`select is_blocked from comments where id = ${comment.id}`);
    expect(row.is_blocked).toBe(true);
    const [audit] = await getDb().execute<{ action: string; reason: string; details: { reportGroupId: number } }>(
      sql`select action, reason, details from audit_log where target_type = 'COMMENT' and target_id = ${comment.id} order by id desc limit 1`,
    );
    expect(audit).toMatchObject({ action: "COMMENT_BLOCKED", reason: "Спам в комментариях", details: { reportGroupId: group.id } });
    expect((await reportResolvedOf(bob))[0]).toMatchObject({ content: "BLOCK_CONTENT" });
    // Its author, opening the post, is told why; nobody else is.
    expect(await ownBlocksOnPost({ ctx: author.ctx, postId: post.id })).toEqual([
      { targetType: "COMMENT", targetId: comment.id, excerpt: "Спам", reason: "Спам в комментариях" },
    ]);
    expect(await ownBlocksOnPost({ ctx: bob.ctx, postId: post.id })).toEqual([]);

    const sent = await sendMessage({ ctx: author.ctx, input: { recipientId: bob.id, messageText: "Купи" } });
    await report(bob, { targetType: "MESSAGE", targetId: sent.message.id, category: "SPAM" });
    const [messageGroup] = await groupOf("MESSAGE", sent.message.id);
    expect((await resolve(moderator, messageGroup.id, { action: "BLOCK_CONTENT", reason: "x" })).status).toBe(422);
  });

  it("blocks the author for a period with the reason, which the sign-in refusal shows, until the period ends", async () => {
    const offender = await withRole("USER", "Offender");
    const post = await newPost(offender.ctx);
    await report(carol, { targetType: "POST", targetId: post.id, category: "VIOLENCE" });
    const [group] = await groupOf("POST", post.id);
    expect((await resolve(moderator, group.id, { action: "BLOCK_AUTHOR", reason: "Угрозы", days: 0 })).status).toBe(422);
    expect((await resolve(moderator, group.id, { action: "DISMISS", reason: "Угрозы", days: 3 })).status).toBe(422);
    const res = await resolve(moderator, group.id, { action: "BLOCK_AUTHOR", reason: "Угрозы", days: 3 });
    expect(res.status).toBe(200);
    const [acc] = await getDb().execute<{ is_blocked: boolean; days: number }>(
      sql`select is_blocked, round(extract(epoch from blocked_until - now()) / 86400)::int as days from accounts where id = ${offender.id}`,
    );
    expect(acc).toEqual({ is_blocked: true, days: 3 });
    const [audit] = await getDb().execute<{ action: string; reason: string }>(
      sql`select action, reason from audit_log where target_type = 'ACCOUNT' and target_id = ${offender.id} order by id desc limit 1`,
    );
    expect(audit).toEqual({ action: "USER_BLOCKED", reason: "Угрозы" });
    expect((await reportResolvedOf(carol))[0]).toMatchObject({ content: "BLOCK_AUTHOR" });
    // Signing in is refused with the reason and the end of the block, in the reader's language.
    const signIn = () =>
      call(loginRoute, { path: "/api/v1/auth/login", body: { email: offender.email, password: offender.password }, headers: { "accept-language": "en" } });
    const refused = await signIn();
    expect(refused.status).toBe(401);
    expect(refused.body.error.message).toMatch(/^The account is blocked\. Reason: Угрозы\. The block ends on .+\(UTC\)\.$/);
    expect(refused.body.error.issues).toEqual([{ path: "reason", message: "Угрозы" }, { path: "until", message: expect.any(String) }]);
    // Once the period has passed, signing in lifts the block (recorded by the system).
    await getDb().execute(sql`update accounts set blocked_until = now() - interval '1 second' where id = ${offender.id}`);
    expect((await signIn()).status).toBe(200);
    const [lifted] = await getDb().execute<{ is_blocked: boolean; actor_id: string | null; action: string }>(sql`
      select a.is_blocked, l.actor_id, l.action from accounts a
      join lateral (select * from audit_log l where l.target_account_id = a.id order by l.id desc limit 1) l on true where a.id = ${offender.id}`);
    expect(lifted).toEqual({ is_blocked: false, actor_id: null, action: "USER_UNBLOCKED" });
    // The periodic job lifts ended period blocks too, and leaves a block for good alone.
    const [timed, forGood] = await Promise.all([withRole("USER"), withRole("USER")]);
    await getDb().execute(sql`update accounts set is_blocked = true, blocked_until = now() - interval '1 minute' where id = ${timed.id}`);
    await getDb().execute(sql`update accounts set is_blocked = true, blocked_until = null where id = ${forGood.id}`);
    const ended = await liftEndedBlocks(getDb());
    expect(ended).toContain(timed.id);
    expect(ended).not.toContain(forGood.id);
    const [still] = await getDb().execute<{ is_blocked: boolean }>(sql`select is_blocked from accounts where id = ${forGood.id}`);
    expect(still.is_blocked).toBe(true);
    // The author's history on a later report: one earlier group, one block.
    const other = await withRole("USER");
    const later = await newPost(offender.ctx);
    await report(other, { targetType: "POST", targetId: later.id, category: "SPAM" });
    expect((await openGroupRow(moderator, "POST", later.id)).history).toEqual({ earlierReports: 1, blocks: 1 });
  });
});
