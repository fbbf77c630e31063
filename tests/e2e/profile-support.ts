import { request as playwrightRequest, type APIRequestContext } from "@playwright/test";
import postgres from "postgres";
import { baseURL } from "../../playwright.config";
import { e2eServerInfo, expect, type TestUser } from "./fixtures";

/** An API client signed in as `user` (its own cookie jar), for setting up data as that person would. */
export async function apiAs(user: Pick<TestUser, "email" | "password">): Promise<APIRequestContext> {
  const api = await playwrightRequest.newContext({ baseURL });
  const res = await api.post("/api/v1/auth/login", { data: { email: user.email, password: user.password } });
  expect(res.status(), await res.text()).toBe(200);
  return api;
}

/** PUT /api/v1/account/me as the signed-in client. */
export async function updateMe(api: APIRequestContext, data: Record<string, unknown>): Promise<void> {
  const res = await api.put("/api/v1/account/me", { data });
  expect(res.status(), await res.text()).toBe(200);
}

/** Makes two accounts friends through the friends API: a request, then its approval. */
export async function befriend(a: APIRequestContext, aId: number, b: APIRequestContext, bId: number): Promise<void> {
  const sent = await a.post(`/api/v1/friends/${bId}/request`);
  expect(sent.status(), await sent.text()).toBe(200);
  const approved = await b.put(`/api/v1/friends/${aId}/approve`);
  expect(approved.status(), await approved.text()).toBe(200);
  expect((await approved.json()).statusCode).toBe("FRIEND");
}

/**
 * Moves an account's last sign of life into the past. Presence is written only by sign-in and the
 * realtime sidecar, so a test that needs "last seen 3 hours ago" sets the time directly.
 */
export async function setLastOnline(id: number, hoursAgo: number): Promise<void> {
  const info = e2eServerInfo();
  // Without DATABASE_URL the server runs the embedded cluster of its data dir: join it, never stop it.
  const url = info.databaseUrl ?? (await (await import("../../db/embedded")).startEmbeddedPostgres({ dataDir: info.dataDir, shared: true })).url;
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  try {
    await sql`update accounts set last_online_time = now() - make_interval(hours => ${hoursAgo}) where id = ${id}`;
  } finally {
    await sql.end();
  }
}

/** Whole years since a "YYYY-MM-DD" birthday, the way the account DTO counts them (UTC). */
export function ageOf(birthDate: string, now = new Date()): number {
  const [y, m, d] = birthDate.split("-").map(Number);
  const had = now.getUTCMonth() + 1 > m || (now.getUTCMonth() + 1 === m && now.getUTCDate() >= d);
  return now.getUTCFullYear() - y - (had ? 0 : 1);
}

/** Russian plural of "год" for an age, as messages/ru.json writes it. */
export function ruYears(n: number): string {
  const mod10 = n % 10;
  const mod100 = n % 100;
  if (mod10 === 1 && mod100 !== 11) return `${n} год`;
  if (mod10 >= 2 && mod10 <= 4 && (mod100 < 12 || mod100 > 14)) return `${n} года`;
  return `${n} лет`;
}
