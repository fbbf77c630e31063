import "server-only";
import { Readable } from "node:stream";
import { finished } from "node:stream/promises";
import { ZipFile } from "yazl";
import type { DbOrTx } from "@/db/client";
import type { Locale } from "@/lib/i18n/config";
import { env } from "@/lib/server/env";
import { getBlobStore } from "@/lib/server/storage/blob-store";
import { ARCHIVE_MAX_BYTES } from "@/lib/validation/account-export";
import { storedPathOf } from "@/lib/validation/storage";
import { readNotificationSettings } from "@/lib/server/services/notifications/settings";
import { readPrivacy } from "@/lib/server/services/privacy/settings";
import { dialogPage } from "./dialog-html";
import { renderArchiveIndex, type ArchiveCounts } from "./index-html";
import {
  commentLikesOf,
  commentsOf,
  dialogsOf,
  imageKeysOf,
  messagesOf,
  postReactionsOf,
  postsOf,
  readProfile,
  relationsOf,
  type DialogSummary,
} from "./sections";

/** The file naming the photos an archive past ARCHIVE_MAX_BYTES did not copy. */
export const IMAGES_NOT_COPIED = "images-not-copied.json";

/** How many dialogs the HTML index names one by one; the rest are counted (all are in dialogs.json). */
export const INDEX_DIALOGS = 200;

type Counter = { n: number };

/** Passes a section's bytes on, adding their length to `total.bytes` (the archive's content, ARCHIVE_MAX_BYTES). */
async function* counted(source: AsyncIterable<Buffer> | Readable, total: { bytes: number }): AsyncGenerator<Buffer> {
  for await (const chunk of source) {
    total.bytes += chunk.length;
    yield chunk;
  }
}

/** A JSON array written as its items come: `[`, one item a line, `]`. */
async function* jsonArray(items: AsyncIterable<unknown>, count: Counter): AsyncGenerator<Buffer> {
  yield Buffer.from("[");
  for await (const item of items) {
    yield Buffer.from(`${count.n === 0 ? "\n" : ",\n"}${JSON.stringify(item)}`);
    count.n++;
  }
  yield Buffer.from(count.n === 0 ? "]\n" : "\n]\n");
}

async function* concat(...parts: AsyncIterable<unknown>[]): AsyncGenerator<unknown> {
  for (const part of parts) yield* part;
}

/**
 * Writes one account's archive (docs/adr/0127) into the blob store under `key`, streamed end to end:
 * each section is a stream that reads its next page from Postgres only when the zip wants bytes, the
 * zip is written into the store as it is made (a file written beside its name, or an S3 multipart
 * upload), and an image is piped from the store into the zip. Nothing holds a whole section; what
 * grows with the account is the zip's central directory (about 100 bytes an entry), the set of image
 * keys already written and the names of the first INDEX_DIALOGS dialogs. Returns the archive's size and
 * what it holds.
 */
export async function writeAccountArchive(
  db: DbOrTx,
  input: { accountId: number; key: string; locale: Locale; timeZone?: string; now?: Date; maxBytes?: number },
) {
  const { accountId, key, locale } = input;
  const zone = input.timeZone ?? "UTC";
  const maxBytes = input.maxBytes ?? ARCHIVE_MAX_BYTES;
  const now = input.now ?? new Date();
  const store = getBlobStore();
  const profile = await readProfile(db, accountId, locale);
  if (!profile) throw new Error(`account ${accountId} is gone`);

  const zip = new ZipFile();
  const mtime = now;
  // @types/yazl names it a web ReadableStream; yazl's outputStream is a Node PassThrough.
  const output = zip.outputStream as unknown as Readable;
  const stored = store.putStream(key, output, "application/zip");
  // Rejects only when the store fails, so a section waiting for the zip to read it does not wait forever.
  const storeFailed = stored.then(() => new Promise<never>(() => {}));
  storeFailed.catch(() => {});

  const content = { bytes: 0 };
  const addBuffer = (name: string, data: Buffer) => {
    content.bytes += data.length;
    zip.addBuffer(data, name, { mtime });
  };
  const addStream = async (name: string, source: AsyncIterable<Buffer> | Readable) => {
    const stream = source instanceof Readable ? source : Readable.from(counted(source, content), { objectMode: false });
    zip.addReadStream(stream, name, { mtime });
    await Promise.race([finished(stream), storeFailed]);
  };

  const counts: ArchiveCounts = { posts: 0, comments: 0, reactions: 0, relations: 0, dialogs: 0, messages: 0, images: 0, missingImages: 0, imagesNotCopied: 0 };
  const listed: (DialogSummary & { file: string; page: string })[] = [];
  try {
    addBuffer("profile.json", Buffer.from(JSON.stringify(profile, null, 2) + "\n"));
    const settings = await readNotificationSettings(db, accountId);
    addBuffer("notification-settings.json", Buffer.from(JSON.stringify(settings, null, 2) + "\n"));
    const privacy = await readPrivacy(db, accountId);
    addBuffer("privacy-settings.json", Buffer.from(JSON.stringify(privacy, null, 2) + "\n"));

    const posts: Counter = { n: 0 };
    await addStream("posts.json", jsonArray(postsOf(db, accountId), posts));
    counts.posts = posts.n;
    const comments: Counter = { n: 0 };
    await addStream("comments.json", jsonArray(commentsOf(db, accountId), comments));
    counts.comments = comments.n;
    const reactions: Counter = { n: 0 };
    await addStream("reactions.json", jsonArray(concat(postReactionsOf(db, accountId), commentLikesOf(db, accountId)), reactions));
    counts.reactions = reactions.n;
    const relations: Counter = { n: 0 };
    await addStream("friends.json", jsonArray(relationsOf(db, accountId), relations));
    counts.relations = relations.n;

    // dialogs.json lists the dialogs; each has its own file of messages, streamed in turn.
    const dialogs: Counter = { n: 0 };
    const summaries = async function* () {
      for await (const d of dialogsOf(db, accountId)) {
        const file = `dialogs/${d.dialogId}.json`;
        const page = `dialogs/${d.dialogId}.html`;
        if (listed.length < INDEX_DIALOGS) listed.push({ ...d, file, page });
        yield { ...d, file, page };
      }
    };
    await addStream("dialogs.json", jsonArray(summaries(), dialogs));
    counts.dialogs = dialogs.n;
    const messageImageKeys = new Set<string>();
    for await (const d of dialogsOf(db, accountId)) {
      const messages: Counter = { n: 0 };
      const head = JSON.stringify({ dialogId: d.dialogId, partner: d.partner, title: d.title }).slice(0, -1);
      const body = async function* () {
        yield Buffer.from(`${head},"messages":`);
        yield* jsonArray(messagesOf(db, accountId, d.dialogId, messageImageKeys), messages);
        yield Buffer.from("}\n");
      };
      await addStream(`dialogs/${d.dialogId}.json`, body());
      counts.messages += messages.n;
      // The same messages once more, as the page a person reads (read again: the zip takes one entry at a time).
      await addStream(`dialogs/${d.dialogId}.html`, dialogPage({ locale, zone, dialog: d, messages: messagesOf(db, accountId, d.dialogId) }));
    }

    // The account's own images, then the photos of its chats (each file once).
    const allImageKeys = async function* () {
      const seen = new Set<string>();
      for await (const k of imageKeysOf(db, accountId)) {
        seen.add(k);
        yield k;
      }
      for (const k of messageImageKeys) if (!seen.has(k)) yield k;
    };
    // Photos while the archive stays within ARCHIVE_MAX_BYTES; from the first that would pass it on, the
    // rest are only named (with their addresses) in images-not-copied.json.
    const notCopied: string[] = [];
    for await (const imageKey of allImageKeys()) {
      if (notCopied.length > 0) {
        notCopied.push(imageKey);
        continue;
      }
      const object = await store.get(imageKey);
      if (!object) {
        counts.missingImages++;
        continue;
      }
      if (content.bytes + (object.size ?? 0) > maxBytes) {
        await object.body.cancel().catch(() => {});
        notCopied.push(imageKey);
        continue;
      }
      // Images are WebP already: stored, not deflated again.
      // Counted as the zip pulls it (a "data" listener would make it flow before the zip reads it).
      const body = Readable.fromWeb(object.body as import("node:stream/web").ReadableStream<Uint8Array>);
      const stream = Readable.from(counted(body, content), { objectMode: false });
      zip.addReadStream(stream, `images/${imageKey}`, { mtime, compress: false });
      await Promise.race([finished(stream), storeFailed]);
      counts.images++;
    }
    counts.imagesNotCopied = notCopied.length;
    if (notCopied.length > 0) {
      const base = env().PUBLIC_URL;
      const list = notCopied.map((k) => ({ file: `images/${k}`, url: `${base}${storedPathOf(k)}` }));
      addBuffer(IMAGES_NOT_COPIED, Buffer.from(JSON.stringify(list, null, 2) + "\n"));
    }

    const html = renderArchiveIndex({ locale, zone, profile, counts, dialogs: listed, madeAt: now, notCopiedFile: IMAGES_NOT_COPIED, maxBytes });
    addBuffer("index.html", Buffer.from(html));
    zip.end();
    const size = await stored;
    return { size, counts };
  } catch (err) {
    output.destroy(err as Error);
    await stored.catch(() => {});
    await store.delete(key).catch(() => {});
    throw err;
  }
}
