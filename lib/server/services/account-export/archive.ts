import "server-only";
import { Readable } from "node:stream";
import { finished } from "node:stream/promises";
import { ZipFile } from "yazl";
import type { DbOrTx } from "@/db/client";
import type { Locale } from "@/lib/i18n/config";
import { getBlobStore } from "@/lib/server/storage/blob-store";
import { readNotificationSettings } from "@/lib/server/services/notifications/settings";
import { readPrivacy } from "@/lib/server/services/privacy/settings";
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

/** How many dialogs the HTML index names one by one; the rest are counted (all are in dialogs.json). */
export const INDEX_DIALOGS = 200;

type Counter = { n: number };

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
export async function writeAccountArchive(db: DbOrTx, input: { accountId: number; key: string; locale: Locale; now?: Date }) {
  const { accountId, key, locale } = input;
  const now = input.now ?? new Date();
  const store = getBlobStore();
  const profile = await readProfile(db, accountId);
  if (!profile) throw new Error(`account ${accountId} is gone`);

  const zip = new ZipFile();
  const mtime = now;
  // @types/yazl names it a web ReadableStream; yazl's outputStream is a Node PassThrough.
  const output = zip.outputStream as unknown as Readable;
  const stored = store.putStream(key, output, "application/zip");
  // Rejects only when the store fails, so a section waiting for the zip to read it does not wait forever.
  const storeFailed = stored.then(() => new Promise<never>(() => {}));
  storeFailed.catch(() => {});

  const addStream = async (name: string, source: AsyncIterable<Buffer> | Readable) => {
    const stream = source instanceof Readable ? source : Readable.from(source, { objectMode: false });
    zip.addReadStream(stream, name, { mtime });
    await Promise.race([finished(stream), storeFailed]);
  };

  const counts: ArchiveCounts = { posts: 0, comments: 0, reactions: 0, relations: 0, dialogs: 0, messages: 0, images: 0, missingImages: 0 };
  const listed: (DialogSummary & { file: string })[] = [];
  try {
    zip.addBuffer(Buffer.from(JSON.stringify(profile, null, 2) + "\n"), "profile.json", { mtime });
    const settings = await readNotificationSettings(db, accountId);
    zip.addBuffer(Buffer.from(JSON.stringify(settings, null, 2) + "\n"), "notification-settings.json", { mtime });
    const privacy = await readPrivacy(db, accountId);
    zip.addBuffer(Buffer.from(JSON.stringify(privacy, null, 2) + "\n"), "privacy-settings.json", { mtime });

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
        if (listed.length < INDEX_DIALOGS) listed.push({ ...d, file });
        yield { ...d, file };
      }
    };
    await addStream("dialogs.json", jsonArray(summaries(), dialogs));
    counts.dialogs = dialogs.n;
    const messageImageKeys = new Set<string>();
    for await (const d of dialogsOf(db, accountId)) {
      const messages: Counter = { n: 0 };
      const head = JSON.stringify({ dialogId: d.dialogId, partner: d.partner }).slice(0, -1);
      const body = async function* () {
        yield Buffer.from(`${head},"messages":`);
        yield* jsonArray(messagesOf(db, accountId, d.dialogId, messageImageKeys), messages);
        yield Buffer.from("}\n");
      };
      await addStream(`dialogs/${d.dialogId}.json`, body());
      counts.messages += messages.n;
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
    for await (const imageKey of allImageKeys()) {
      const object = await store.get(imageKey);
      if (!object) {
        counts.missingImages++;
        continue;
      }
      // Images are WebP already: stored, not deflated again.
      const stream = Readable.fromWeb(object.body as import("node:stream/web").ReadableStream<Uint8Array>);
      zip.addReadStream(stream, `images/${imageKey}`, { mtime, compress: false });
      await Promise.race([finished(stream), storeFailed]);
      counts.images++;
    }

    const html = renderArchiveIndex({ locale, profile: { firstName: profile.firstName ?? "", lastName: profile.lastName ?? "" }, counts, dialogs: listed, madeAt: now });
    zip.addBuffer(Buffer.from(html), "index.html", { mtime });
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
