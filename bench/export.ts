// "Download my data" benchmark (issue 26 section 4, docs/adr/0127): `npm run bench -- --only=export`.
//
// Accounts with 1,000, 10,000 and 30,000 posts (about 900 characters of HTML each), a comment on every
// fifth, a dialog of one message per two posts, and ten uploaded images, are made once in the bench database
// and kept (ADR 98). Each archive is built by the export's own code (writeAccountArchive) in a child
// process of its own, into a local store in a temporary directory, so the child's peak resident set
// (getrusage's maxRSS) and the peak of its V8 heap (sampled every 5 ms) are the archive's alone. Bounded
// memory shows as about the same peaks at 1,000, 10,000 and 30,000 posts, and as the largest archive still being
// built with V8's old space capped at 48 MB (the table gives posts.json's unpacked size beside it).
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import postgres from "postgres";
import { createSql } from "@/db/client";
import sharp from "sharp";

export const EXPORT_SIZES = [1_000, 10_000, 30_000];
const IMAGES = 10;

type Made = { accountId: number; posts: number; messages: number; comments: number };

/** The account of `posts` posts, made when missing (its e-mail names its size). */
async function ensureExportAccount(sql: postgres.Sql, posts: number): Promise<Made> {
  const email = `bench-export-${posts}@bench.local`;
  const found = await sql<{ id: string }[]>`select id from accounts where lower(email) = ${email}`;
  let accountId: number;
  if (found.length > 0) {
    accountId = Number(found[0].id);
  } else {
    accountId = await sql.begin(async (tx) => {
      const [me] = await tx<{ id: string }[]>`
        insert into accounts (email, password_hash, first_name, last_name, about)
        values (${email}, 'bench-no-login', 'Экспорт', ${`Тестовый${posts}`}, 'Аккаунт для замера архива') returning id`;
      const [partner] = await tx<{ id: string }[]>`
        insert into accounts (email, password_hash, first_name, last_name)
        values (${`bench-export-partner-${posts}@bench.local`}, 'bench-no-login', 'Собеседник', 'Архивный') returning id`;
      const id = Number(me.id);
      const other = Number(partner.id);
      await tx`
        insert into posts (author_id, title, post_text, publish_date, time)
        select ${id}, 'Запись номер ' || g,
               '<p>' || repeat('Текст записи номер ' || g || ' о жизни, работе и друзьях. ', 16) || '</p><p><strong>Итог:</strong> всё хорошо.</p>',
               now() - g * interval '1 minute', now() - g * interval '1 minute'
        from generate_series(1, ${posts}) g`;
      await tx`
        insert into comments (post_id, author_id, comment_text, time)
        select p.id, ${id}, 'Комментарий к своей записи ' || p.id, p.time + interval '1 second'
        from posts p where p.author_id = ${id} and p.id % 5 = 0`;
      const [low, high] = id < other ? [id, other] : [other, id];
      const [dialog] = await tx<{ id: string }[]>`insert into dialogs (account_low, account_high) values (${low}, ${high}) returning id`;
      await tx`
        insert into dialog_members (dialog_id, account_id, partner_id)
        values (${dialog.id}, ${id}, ${other}), (${dialog.id}, ${other}, ${id})`;
      await tx`
        insert into messages (dialog_id, author_id, recipient_id, message_text, created_at)
        select ${dialog.id}, case when g % 2 = 0 then ${id}::bigint else ${other}::bigint end,
               case when g % 2 = 0 then ${other}::bigint else ${id}::bigint end,
               'Сообщение номер ' || g || ': как дела, что нового?', now() - g * interval '10 seconds'
        from generate_series(1, ${posts / 2}) g`;
      await tx`update dialogs set message_count = ${posts / 2} where id = ${dialog.id}`;
      return id;
    });
  }
  const [counts] = await sql<{ posts: number; messages: number; comments: number }[]>`
    select (select count(*)::int from posts where author_id = ${accountId} and not is_deleted) as posts,
           (select count(*)::int from messages m join dialog_members d on d.dialog_id = m.dialog_id where d.account_id = ${accountId}) as messages,
           (select count(*)::int from comments where author_id = ${accountId} and not is_deleted) as comments`;
  return { accountId, ...counts };
}

/** Ten images in the child's local store, on the account's ten newest posts (the store is made anew each run). */
async function placeImages(sql: postgres.Sql, accountId: number, dataDir: string): Promise<void> {
  const newest = await sql<{ id: string }[]>`select id from posts where author_id = ${accountId} order by publish_date desc, id desc limit ${IMAGES}`;
  for (const [i, post] of newest.entries()) {
    const key = `${createHash("md5").update(`bench-export-${post.id}`).digest("hex")}.webp`;
    const image = await sharp({ create: { width: 640, height: 480, channels: 3, background: { r: (i * 40) % 255, g: 120, b: 200 } } })
      .webp()
      .toBuffer();
    mkdirSync(path.join(dataDir, "uploads", key.slice(0, 2)), { recursive: true });
    writeFileSync(path.join(dataDir, "uploads", key.slice(0, 2), key), image);
    await sql`update posts set image_path = ${`/api/v1/storage/files/${key}`} where id = ${post.id}`;
  }
}

export type ExportResult = Made & {
  ms: number;
  bytes: number;
  entries: number;
  maxRssMb: number;
  peakHeapMb: number;
  startRssMb: number;
  unpackedMb: number;
  postsJsonMb: number;
  heapCapMb: number | null;
};

/** V8's old space for the last run of the largest account: an archive held in memory could not be built in it. */
const HEAP_CAP_MB = 48;

/** Builds one archive in a child process (its V8 heap capped when asked) and reads back what it measured. */
function buildInChild(databaseUrl: string, made: Made, dataDir: string, heapCapMb: number | null = null): ExportResult {
  const cap = heapCapMb ? [`--max-old-space-size=${heapCapMb}`] : [];
  const out = execFileSync(process.execPath, [...cap, "--conditions=react-server", "--import", "tsx", path.resolve("bench/export-child.ts"), String(made.accountId)], {
    env: { ...process.env, DATABASE_URL: databaseUrl, DATA_DIR: dataDir, LOG_LEVEL: "warn", AUTH_SECRET: "bench-export-secret-of-at-least-32-characters" },
    encoding: "utf8",
    stdio: ["ignore", "pipe", "inherit"],
  });
  const line = out.trim().split("\n").at(-1)!;
  return { ...made, heapCapMb, ...(JSON.parse(line) as Omit<ExportResult, keyof Made | "heapCapMb">) };
}

export async function benchExport(databaseUrl: string): Promise<ExportResult[]> {
  const sql = createSql(databaseUrl, { max: 2, onnotice: () => {} });
  const results: ExportResult[] = [];
  try {
    for (const posts of EXPORT_SIZES) {
      const made = await ensureExportAccount(sql, posts);
      const dataDir = mkdtempSync(path.join(os.tmpdir(), "krug-bench-export-"));
      try {
        await placeImages(sql, made.accountId, dataDir);
        // Twice: the first run also warms the database's cache for the account's rows.
        buildInChild(databaseUrl, made, dataDir);
        results.push(buildInChild(databaseUrl, made, dataDir));
        if (posts === EXPORT_SIZES.at(-1)) results.push(buildInChild(databaseUrl, made, dataDir, HEAP_CAP_MB));
      } finally {
        rmSync(dataDir, { recursive: true, force: true });
      }
    }
  } finally {
    await sql.end();
  }
  return results;
}

export function printExport(results: ExportResult[], print: (line: string) => void): void {
  const load = os.loadavg().map((x) => x.toFixed(1)).join(" ");
  print("\nData export (docs/adr/0127): one archive per account, built in a child process of its own; second of two runs");
  print("| posts | comments | messages | images | archive (unpacked; posts.json) | entries | time | peak RSS | peak V8 heap | RSS at start | V8 old space |");
  print("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
  for (const r of results) {
    print(
      `| ${r.posts.toLocaleString("en")} | ${r.comments.toLocaleString("en")} | ${r.messages.toLocaleString("en")} | ${IMAGES} | ${(r.bytes / 1024 / 1024).toFixed(1)} MB (${r.unpackedMb.toFixed(1)}; ${r.postsJsonMb.toFixed(1)} MB) | ${r.entries} | ${(r.ms / 1000).toFixed(2)} s | ${r.maxRssMb.toFixed(0)} MB | ${r.peakHeapMb.toFixed(0)} MB | ${r.startRssMb.toFixed(0)} MB | ${r.heapCapMb ? `capped at ${r.heapCapMb} MB` : "default"} |`,
    );
  }
  print(`load average (1, 5, 15 min) after the runs: ${load}; ${os.cpus().length} CPUs (times are wall clock and follow the load; the memory figures do not)`);
}
