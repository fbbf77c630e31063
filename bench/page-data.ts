// What the page benchmarks need beyond the generated graph and posts (bench/pages.ts, issue 25 section 3):
// a dialog of the signed-in bench person with a realistic history, for /im/{id}, and an administrator,
// for the /admin pages. Both are made once and found again on the next run:
// - the dialog is the median account's with its first friend, made through the running app's API
//   (POST dialogs, then POST dialogs/{id}/messages from both sides); every message carries a client id
//   derived from its place in the history, so a second run's sends are answered as retries and store
//   nothing (the history stays DIALOG_MESSAGES long). New messages are then spread over the last days
//   (one every 41 minutes, in id order), as a conversation is, so the page shows its day separators.
// - the administrator is an account of its own (bench-admin@example.com, role ADMIN), not one of the
//   generated people, so the other benchmarks' figures do not change with it.
import { createHash } from "node:crypto";
import { createSql } from "@/db/client";
import { hashPassword } from "@/lib/server/auth/password";
import { BENCH_PASSWORD, signIn, type People } from "./http";

export const DIALOG_MESSAGES = 50;
export const BENCH_ADMIN_EMAIL = "bench-admin@example.com";

export type PageData = {
  /** The median account's dialog with its friend (`people.friendId`). */
  dialogId: number;
  admin: { id: number; email: string };
  /** A published post of a friend: /post/{id} and the moderation card /admin/publications/{id}. */
  postId: number;
};

const LINES = [
  "Привет! Как дела?",
  "Привет, всё хорошо, спасибо. Ты как?",
  "Тоже неплохо. Вчера наконец дочитал ту книгу, про которую рассказывал.",
  "И как тебе концовка?",
  "Неожиданная. Не буду спойлерить, но последние главы я прочитал за один вечер, не мог оторваться.",
  "Ок, тогда беру её в отпуск 🙂",
  "Кстати, в субботу собираемся у Лены, придёшь?",
  "Во сколько?",
  "Часов в шесть. Возьми гитару, если не сложно.",
  "Договорились. Что-нибудь купить по дороге?",
  "Можно хлеб и сыр, остальное уже есть. И не опаздывай, как в прошлый раз 😄",
  "В прошлый раз были пробки на всём Садовом, я не виноват!",
  "Ага, конечно. Смотри, что нашёл: https://example.com/photos/summer",
  "Красиво! Это где?",
  "Под Выборгом, мы туда ездили в июле. Очень советую, особенно на закате, если повезёт с погодой.",
  "Запомню. Слушай, а ты не знаешь, где можно недорого починить велосипед? У меня опять цепь слетает и заднее колесо восьмёркой.",
  "На Профсоюзной есть мастерская, там нормально делают и быстро.",
  "Спасибо!",
];

/** A version-5-shaped UUID from a name: the same name always gives the same id. */
function nameUuid(name: string): string {
  const h = createHash("sha1").update(name).digest();
  h[6] = (h[6] & 0x0f) | 0x50;
  h[8] = (h[8] & 0x3f) | 0x80;
  const x = h.subarray(0, 16).toString("hex");
  return `${x.slice(0, 8)}-${x.slice(8, 12)}-${x.slice(12, 16)}-${x.slice(16, 20)}-${x.slice(20)}`;
}

async function api(baseUrl: string, cookie: string, path: string, body: unknown): Promise<{ status: number; json: { id?: number } }> {
  const res = await fetch(`${baseUrl}${path}`, { method: "POST", headers: { cookie, "content-type": "application/json" }, body: JSON.stringify(body) });
  const text = await res.text();
  if (!res.ok) throw new Error(`POST ${path}: ${res.status} ${text.slice(0, 300)}`);
  return { status: res.status, json: JSON.parse(text) as { id?: number } };
}

/** Passwords of the friend and the administrator, the administrator itself, and a post id: no app needed. */
export async function preparePageAccounts(url: string, people: People): Promise<Omit<PageData, "dialogId"> & { friendEmail: string }> {
  const sql = createSql(url, { max: 1, onnotice: () => {} });
  try {
    const hash = await hashPassword(BENCH_PASSWORD);
    await sql`update accounts set password_hash = ${hash} where id = ${people.friendId}`;
    await sql`
      insert into accounts (email, password_hash, first_name, last_name, role)
      values (${BENCH_ADMIN_EMAIL}, ${hash}, 'Админ', 'Бенчмарков', 'ADMIN')
      on conflict (lower(email)) do update set password_hash = excluded.password_hash, role = 'ADMIN', is_blocked = false, is_deleted = false`;
    const [admin] = await sql<{ id: string }[]>`select id from accounts where lower(email) = ${BENCH_ADMIN_EMAIL}`;
    const [friend] = await sql<{ email: string }[]>`select email from accounts where id = ${people.friendId}`;
    return { admin: { id: Number(admin.id), email: BENCH_ADMIN_EMAIL }, postId: people.reactablePostIds[0], friendEmail: friend.email };
  } finally {
    await sql.end({ timeout: 5 });
  }
}

/**
 * The dialog with DIALOG_MESSAGES messages both ways (runs of one to three from the same side), through
 * the app at `baseUrl`; idempotent. Returns its id.
 */
export async function prepareDialog(url: string, baseUrl: string, people: People, friendEmail: string): Promise<number> {
  const me = await signIn(baseUrl, people.me.email);
  const friend = await signIn(baseUrl, friendEmail);
  const dialog = await api(baseUrl, me, "/api/v1/dialogs", { recipientId: people.friendId });
  const dialogId = Number(dialog.json.id);
  if (!Number.isInteger(dialogId) || dialogId <= 0) throw new Error(`POST dialogs answered no id`);
  let created = 0;
  let fromMe = true;
  for (let i = 0; i < DIALOG_MESSAGES; i++) {
    // Who writes changes after a run of 1–3 messages (fixed by i, so every run sends the same history).
    if (i > 0 && (i * 7) % 3 !== 1) fromMe = !fromMe;
    const body = { messageText: LINES[(i * 5) % LINES.length], clientId: nameUuid(`krug-bench-dialog-${dialogId}-${i}`) };
    const r = await api(baseUrl, fromMe ? me : friend, `/api/v1/dialogs/${dialogId}/messages`, body);
    if (r.status === 201) created++;
  }
  if (created > 0) {
    const sql = createSql(url, { max: 1, onnotice: () => {} });
    try {
      await sql`
        update messages m set created_at = now() - (s.n * interval '41 minutes')
        from (select id, row_number() over (order by id desc) - 1 as n from messages where dialog_id = ${dialogId}) s
        where m.id = s.id`;
    } finally {
      await sql.end({ timeout: 5 });
    }
  }
  return dialogId;
}
