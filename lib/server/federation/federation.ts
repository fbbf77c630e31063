import "server-only";
import { createFederation, importJwk, type Context, type Federation } from "@fedify/fedify";
import { Temporal } from "@js-temporal/polyfill";
import { Create, Endpoints, Image, Note, Person, PUBLIC_COLLECTION } from "@fedify/vocab";
import { getDb, getSql } from "@/db/client";
import { env } from "@/lib/server/env";
import { log } from "@/lib/server/log";
import { sanitizePostHtml } from "@/lib/validation/post-html";
import { federatedAccount, federatedPost, federatedPostsCount, federatedPostsPage, identifierOfName, type FederatedAccount, type FederatedPost } from "./actors";
import { accountKeys } from "@/db/schema";
import { eq } from "drizzle-orm";
import type { DbOrTx } from "@/db/client";
import { KrugKvStore } from "./kv";
import { nodeInfo } from "./nodeinfo";

/**
 * Krug's one federation module (issue 43, docs/adr/0172): Fedify's setup and its dispatchers. Every
 * dispatcher reads through ./actors (what the fediverse may see) and writes through the same services as
 * the REST routes. Paths: an actor is its profile's URL (`/profile/{id}`, content-negotiated), its inbox,
 * outbox, followers and following beneath it; a Note is its post's URL (`/post/{id}`); `/inbox` is the
 * shared inbox; discovery goes through WebFinger.
 */

const globalForFederation = globalThis as unknown as { __krugFederation?: { key: string; federation: Federation<void> } };

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function absolute(path: string | null): URL | null {
  if (!path) return null;
  try {
    return new URL(path, `${env().PUBLIC_URL}/`);
  } catch {
    return null;
  }
}

/** The text of a profile's "about" as the HTML a remote server shows: escaped, line breaks kept. */
function aboutHtml(about: string | null): string | null {
  const text = about?.trim();
  if (!text) return null;
  return text
    .split(/\n{2,}/)
    .map((p) => `<p>${escapeHtml(p).replace(/\n/g, "<br>")}</p>`)
    .join("");
}

/** A post's HTML as a Note's content: its title as the first paragraph, then its body, sanitised once more. */
export function noteContent(post: Pick<FederatedPost, "title" | "postText">): string {
  const title = post.title.trim();
  return `${title ? `<p><strong>${escapeHtml(title)}</strong></p>` : ""}${sanitizePostHtml(post.postText)}`;
}

/** The account's key pairs, RSA first (the one most servers read as `publicKey`), or none. */
async function actorKeyPairs(db: DbOrTx, accountId: number): Promise<CryptoKeyPair[]> {
  const [row] = await db.select().from(accountKeys).where(eq(accountKeys.accountId, accountId)).limit(1);
  if (!row) return [];
  const [rsaPublic, rsaPrivate, edPublic, edPrivate] = await Promise.all([
    importJwk(row.rsaPublic, "public"),
    importJwk(row.rsaPrivate, "private"),
    importJwk(row.ed25519Public, "public"),
    importJwk(row.ed25519Private, "private"),
  ]);
  return [
    { publicKey: rsaPublic, privateKey: rsaPrivate },
    { publicKey: edPublic, privateKey: edPrivate },
  ];
}

function build(): Federation<void> {
  const { PUBLIC_URL, FEDERATION_ALLOW_PRIVATE_ADDRESSES } = env();
  const sql = getSql();
  const federation = createFederation<void>({
    kv: new KrugKvStore(sql),
    // No queue yet: nothing is delivered out and the inbox has no listeners in this first part; delivery
    // will run on PostgresMessageQueue in the job process, never inside a web request (docs/adr/0172).
    origin: PUBLIC_URL,
    allowPrivateAddress: FEDERATION_ALLOW_PRIVATE_ADDRESSES,
    userAgent: { software: "Krug/1.0" },
  });

  const noteOf = (ctx: Context<void>, post: FederatedPost) =>
    new Note({
      id: ctx.getObjectUri(Note, { id: String(post.id) }),
      attribution: ctx.getActorUri(String(post.authorId)),
      to: PUBLIC_COLLECTION,
      content: noteContent(post),
      url: new URL(`/post/${post.id}`, `${PUBLIC_URL}/`),
      published: Temporal.Instant.fromEpochMilliseconds(post.publishDate.getTime()),
      updated: post.timeChanged ? Temporal.Instant.fromEpochMilliseconds(post.timeChanged.getTime()) : null,
      attachments: post.imagePath ? [new Image({ url: absolute(post.imagePath), mediaType: "image/jpeg" })] : [],
    });

  federation
    .setActorDispatcher("/profile/{identifier}", async (ctx, identifier) => {
      const account: FederatedAccount | null = await federatedAccount(getDb(), identifier);
      if (!account) return null;
      const keys = await ctx.getActorKeyPairs(identifier);
      const photo = absolute(account.photo);
      const cover = absolute(account.profileCover);
      return new Person({
        id: ctx.getActorUri(identifier),
        preferredUsername: account.fediverseName ?? `id${account.id}`,
        name: `${account.firstName} ${account.lastName}`.trim(),
        summary: aboutHtml(account.about),
        url: new URL(account.fediverseName ? `/@${account.fediverseName}` : `/profile/${account.id}`, `${PUBLIC_URL}/`),
        icon: photo ? new Image({ url: photo }) : null,
        image: cover ? new Image({ url: cover }) : null,
        inbox: ctx.getInboxUri(identifier),
        outbox: ctx.getOutboxUri(identifier),
        endpoints: new Endpoints({ sharedInbox: ctx.getInboxUri() }),
        manuallyApprovesFollowers: false,
        discoverable: account.searchable,
        indexable: account.searchable,
        published: Temporal.Instant.fromEpochMilliseconds(account.createdAt.getTime()),
        publicKey: keys[0]?.cryptographicKey ?? null,
        assertionMethods: keys.map((k) => k.multikey),
      });
    })
    .mapHandle(async (_ctx, username) => identifierOfName(getDb(), username))
    .setKeyPairsDispatcher(async (_ctx, identifier) => {
      const account = await federatedAccount(getDb(), identifier);
      return account ? actorKeyPairs(getDb(), account.id) : [];
    });

  federation.setObjectDispatcher(Note, "/post/{id}", async (ctx, { id }) => {
    const post = await federatedPost(getDb(), id);
    return post ? noteOf(ctx, post) : null;
  });

  federation
    .setOutboxDispatcher("/profile/{identifier}/outbox", async (ctx, identifier, cursor) => {
      if (cursor === null) return null;
      const account = await federatedAccount(getDb(), identifier);
      if (!account) return null;
      const page = await federatedPostsPage(getDb(), account.id, cursor);
      if (!page) return null;
      return {
        items: page.items.map((post) => {
          const note = noteOf(ctx, post);
          return new Create({ id: new URL("#create", note.id!), actor: note.attributionId, to: PUBLIC_COLLECTION, object: note, published: note.published });
        }),
        nextCursor: page.next,
      };
    })
    .setFirstCursor(async (_ctx, identifier) => ((await federatedAccount(getDb(), identifier)) ? "" : null))
    .setCounter(async (_ctx, identifier) => {
      const account = await federatedAccount(getDb(), identifier);
      return account ? federatedPostsCount(getDb(), account.id) : null;
    });

  // Every incoming activity is signature-checked by Fedify before any listener runs; an unknown or refused
  // signature is 401.
  federation.setInboxListeners("/profile/{identifier}/inbox", "/inbox");

  federation.setNodeInfoDispatcher("/nodeinfo/2.1", async () => nodeInfo(getDb()));

  log.info({ origin: PUBLIC_URL }, "federation ready");
  return federation;
}

/** The process's federation, made on first use (its database and origin are the process's). */
export function getFederation(): Federation<void> {
  const key = `${process.env.DATABASE_URL}|${env().PUBLIC_URL}`;
  const cached = globalForFederation.__krugFederation;
  if (cached?.key === key) return cached.federation;
  const federation = build();
  globalForFederation.__krugFederation = { key, federation };
  return federation;
}
