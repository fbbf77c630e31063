import type { APIRequestContext } from "@playwright/test";
import postgres from "postgres";
import sharp from "sharp";
import { e2eServerInfo, expect } from "./fixtures";

export type NewPost = { title: string; postText: string; tags?: { name: string }[]; imagePath?: string | null; publishDate?: string | null };

/** POST /api/v1/post as the signed-in client; the created Post DTO. */
export async function createPost(api: APIRequestContext, post: NewPost): Promise<{ id: number; title: string }> {
  const res = await api.post("/api/v1/post", { data: post });
  expect(res.status(), await res.text()).toBe(201);
  return res.json();
}

/** A small PNG of one colour, for photo uploads. */
export function pngBytes(color = "#3a72c6", width = 640, height = 360): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: color } }).png().toBuffer();
}

/**
 * Runs SQL against the e2e database. Used only where the API would (rightly) refuse the setup: stored
 * HTML that never passed the write-side sanitiser, to prove the render-side one.
 */
export async function withDb<T>(fn: (sql: postgres.Sql) => Promise<T>): Promise<T> {
  const info = e2eServerInfo();
  const url = info.databaseUrl ?? (await (await import("../../db/embedded")).startEmbeddedPostgres({ dataDir: info.dataDir, shared: true })).url;
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  try {
    return await fn(sql);
  } finally {
    await sql.end();
  }
}

/** The local "YYYY-MM-DD" of a day `days` from today (the browser runs on this machine's zone). */
export function localDay(days: number): string {
  const d = new Date();
  d.setDate(d.getDate() + days);
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, "0")}-${String(d.getDate()).padStart(2, "0")}`;
}
