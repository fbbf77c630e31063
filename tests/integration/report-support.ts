// Helpers shared by the report suites (reports.test.ts, report-moderation.test.ts): accounts with a role,
// the report and queue calls, and a person's notifications of one type.
import { sql } from "drizzle-orm";
import { expect } from "vitest";
import { PUT as resolveRoute } from "@/app/api/v1/admin/reports/[id]/route";
import { GET as queueRoute } from "@/app/api/v1/admin/reports/route";
import { GET as notificationsRoute } from "@/app/api/v1/notifications/route";
import { POST as reportRoute } from "@/app/api/v1/reports/route";
import { getDb } from "@/db/client";
import { resolveViewer } from "@/lib/server/auth/viewer";
import { env } from "@/lib/server/env";
import { ctxOf, signedInAccount } from "./helpers/factories";
import { call } from "./helpers/http";

export type Account = Awaited<ReturnType<typeof signedInAccount>>;

export async function withRole(role: "USER" | "MODERATOR" | "ADMIN", firstName = "Ivan"): Promise<Account> {
  const account = await signedInAccount({ firstName });
  if (role !== "USER") await getDb().execute(sql`update accounts set role = ${role} where id = ${account.id}`);
  const viewer = (await resolveViewer(getDb(), account.accessToken, env().AUTH_SECRET))!;
  return { ...account, viewer, ctx: ctxOf(viewer) };
}

export const report = (who: Account, body: Record<string, unknown>) => call(reportRoute, { token: who.accessToken, path: "/api/v1/reports", body });
export const queue = (who: Account | null, query = "status=OPEN") => call(queueRoute, { token: who?.accessToken, path: `/api/v1/admin/reports?${query}` });
export const resolve = (who: Account, id: number, body: Record<string, unknown>) =>
  call(resolveRoute, { method: "PUT", token: who.accessToken, path: `/api/v1/admin/reports/${id}`, body, params: { id: String(id) } });

export async function groupOf(targetType: string, targetId: number) {
  const rows = await getDb().execute<{ id: string; reports_count: number; status: string }>(
    sql`select id, reports_count, status from report_groups where target_type = ${targetType} and target_id = ${targetId} order by id`,
  );
  return rows.map((r) => ({ id: Number(r.id), count: r.reports_count, status: r.status }));
}

export async function openGroupRow(who: Account, targetType: string, targetId: number) {
  const res = await queue(who, "status=OPEN&size=100");
  expect(res.status).toBe(200);
  return res.body.content.find((g: { targetType: string; targetId: number }) => g.targetType === targetType && g.targetId === targetId);
}

/** The person's notifications of `type`, newest first. */
export async function notificationsOf(who: Account, type = "REPORT_RESOLVED") {
  const res = await call(notificationsRoute, { token: who.accessToken, path: "/api/v1/notifications" });
  return res.body.notifications.filter((n: { notificationType: string }) => n.notificationType === type);
}

export const reportResolvedOf = (who: Account) => notificationsOf(who);

/** The people of a report suite: an author, two readers who report, and a moderator. */
export async function reportCast() {
  const [author, bob, carol, moderator] = await Promise.all([withRole("USER", "Anna"), withRole("USER", "Bob"), withRole("USER", "Carol"), withRole("MODERATOR", "Mod")]);
  return { author, bob, carol, moderator };
}
