import "server-only";
import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import type { Actor } from "@fedify/vocab";
import type { Db, DbOrTx, Tx } from "@/db/client";
import type { Viewer } from "@/lib/server/auth/viewer";
import { isServerBlocked } from "./blocked";
import { queueAvatarFetch, queueProfileFetch } from "./outbox";

/** A document loader that loads nothing: what an actor embeds is read, what it only names is not fetched. */
export const refuseFetch = async (url: string): Promise<never> => {
  throw new Error(`not fetched: ${url.slice(0, 100)}`);
};

/**
 * People of other servers as accounts of ours (issue 43, docs/adr/0174): one account row per remote actor,
 * with its `remote_actors` row saying where it lives. Such an account cannot sign in (its address is under
 * the reserved `.invalid` domain and its password hash verifies nothing), is never found by name, takes no
 * messages and no friend requests; it follows, is followed, writes posts and comments through the same
 * services as anyone. Everything read from a remote document is hostile: it is cut to bounds here, and
 * characters Postgres refuses (NUL, lone surrogates) never reach it.
 */

export const REMOTE_NAME_MAX = 100;

/** A fediverse address as people type it: `@user@server` or `user@server` (the server with its port, if any). */
export const HANDLE = /^@?([A-Za-z0-9_.-]{1,64})@([A-Za-z0-9.-]{1,253}(?::[0-9]{1,5})?)$/;

/** Whether a search text is a fediverse address or a profile URL rather than a name. */
export function looksLikeAddress(text: string): boolean {
  return HANDLE.test(text.trim()) || /^https?:\/\/\S+$/i.test(text.trim());
}
export const REMOTE_ABOUT_MAX = 1000;
const URI_MAX = 2048;

/** A remote string as we may store it: well-formed, no control characters but line breaks, cut to `max`. */
export function cleanRemoteText(value: string | null | undefined, max: number): string {
  if (!value) return "";
  const text = value.slice(0, max * 4).toWellFormed().replace(/[\u0000-\u0009\u000b-\u001f\u007f]/g, "");
  return Array.from(text).slice(0, max).join("").trim();
}

/** Remote HTML as plain text: tags dropped, paragraphs and line breaks kept, the common entities read, bounded. */
export function remoteHtmlText(html: string | null | undefined, max: number): string {
  if (!html) return "";
  const text = html
    .slice(0, max * 8)
    .replace(/<br\s*\/?>/gi, "\n")
    .replace(/<\/p>\s*<p[^<>]*>/gi, "\n\n")
    .replace(/<[^<>]*>/g, "")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&#39;|&apos;/g, "'")
    .replace(/&nbsp;/g, " ")
    .replace(/&amp;/g, "&");
  return cleanRemoteText(text, max);
}

/** A remote profile's summary (HTML) as the plain text of an "about". */
export function remoteAboutText(html: string | null | undefined): string {
  return remoteHtmlText(html, REMOTE_ABOUT_MAX);
}

/** A URL we may store and later fetch: http(s), within bounds. */
function storableUrl(url: URL | null | undefined): string | null {
  if (!url || (url.protocol !== "https:" && url.protocol !== "http:")) return null;
  return url.href.length <= URI_MAX ? url.href : null;
}

/** The host an admin blocks and a handle names: lowercase, with the port when not the scheme's own. */
export function hostOf(url: URL): string {
  return url.host.toLowerCase();
}

export type RemoteActor = { accountId: number; uri: string; inbox: string; sharedInbox: string | null; host: string; handle: string };

/** The viewer a remote person's activity acts as in the services: no session, an ordinary user. */
export function remoteViewer(accountId: number): Viewer {
  return { id: accountId, sessionId: "fediverse", role: "USER", isDeleted: false, language: "ru" };
}

/** The remote account of an actor URI, when we know it. */
export async function remoteActorByUri(db: DbOrTx, uri: URL | string | null): Promise<RemoteActor | null> {
  if (!uri) return null;
  const href = typeof uri === "string" ? uri : uri.href;
  if (href.length > URI_MAX) return null;
  const [row] = await db.execute<{ account_id: string; uri: string; inbox: string; shared_inbox: string | null; host: string; handle: string }>(sql`
    select r.account_id, r.uri, r.inbox, r.shared_inbox, r.host, r.handle
    from remote_actors r join accounts a on a.id = r.account_id
    where r.uri = ${href} and not a.is_deleted`);
  return row ? { accountId: Number(row.account_id), uri: row.uri, inbox: row.inbox, sharedInbox: row.shared_inbox, host: row.host, handle: row.handle } : null;
}

/** Which of these accounts are remote (a friend action between two locals reads one index page and nothing else). */
export async function remoteAmong(db: DbOrTx, ids: number[]): Promise<Set<number>> {
  const rows = await db.execute<{ account_id: string }>(sql`
    select account_id from remote_actors where account_id in (${sql.join(ids.map((id) => sql`${id}`), sql`, `)})`);
  return new Set(rows.map((r) => Number(r.account_id)));
}

/**
 * A remote display name as our first and last name: the first word and the rest («Вера Соседова» → «Вера»,
 * «Соседова»), so Russian texts decline it and guess its gender as they do a local person's; shown joined,
 * it reads as their server shows it. One word stays whole as the first name.
 */
export function splitRemoteName(name: string): { first: string; last: string } {
  const words = name.split(/\s+/u).filter(Boolean);
  return { first: words[0] ?? "", last: words.slice(1).join(" ") };
}

/**
 * The account of a remote actor, made or brought up to date from its document: its name, about and
 * addresses. Null for an actor without an id or an inbox we could deliver to. Serialised per actor URI, so
 * two activities of a new actor at once make one account.
 */
export async function upsertRemoteActor(db: Db, actor: Actor): Promise<RemoteActor | null> {
  const uri = storableUrl(actor.id);
  const inbox = storableUrl(actor.inboxId);
  if (!uri || !inbox || !actor.id) return null;
  const sharedInbox = storableUrl(actor.endpoints?.sharedInbox);
  const host = hostOf(actor.id);
  const username = cleanRemoteText(actor.preferredUsername?.toString(), 64).replace(/[\s@]/g, "") || "user";
  const handle = `${username}@${host}`;
  const name = splitRemoteName(cleanRemoteText(actor.name?.toString(), REMOTE_NAME_MAX) || username);
  const about = remoteAboutText(actor.summary?.toString());
  const url = storableUrl(actor.url instanceof URL ? actor.url : (actor.url?.href ?? null));
  let iconUrl: string | null = null;
  try {
    // An embedded Image (as servers send it) is read without a fetch; a bare reference is not followed here.
    const icon = await actor.getIcon({ suppressError: true, documentLoader: refuseFetch });
    iconUrl = storableUrl(icon?.url instanceof URL ? icon.url : (icon?.url?.href ?? null));
  } catch {
    iconUrl = null;
  }
  // Nobody of a blocked server becomes an account here (docs/adr/0174).
  if (await isServerBlocked(db, host)) return null;
  return db.transaction(async (tx: Tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`krug:remote-actor:${uri}`}, 0))`);
    const [known] = await tx.execute<{ account_id: string; icon_url: string | null }>(sql`select account_id, icon_url from remote_actors where uri = ${uri}`);
    let accountId: number;
    let fetchIcon = iconUrl !== null;
    if (known) {
      accountId = Number(known.account_id);
      fetchIcon = iconUrl !== known.icon_url;
      await tx.execute(sql`update accounts set first_name = ${name.first}, last_name = ${name.last}, about = ${about || null}, updated_at = now() where id = ${accountId}`);
      if (iconUrl === null && known.icon_url !== null) await tx.execute(sql`update accounts set photo = null where id = ${accountId}`);
      await tx.execute(sql`
        update remote_actors set inbox = ${inbox}, shared_inbox = ${sharedInbox}, handle = ${handle}, url = ${url}, icon_url = ${iconUrl}, fetched_at = now()
        where account_id = ${accountId}`);
    } else {
      const [row] = await tx.execute<{ id: string }>(sql`
        insert into accounts (email, password_hash, first_name, last_name, about, searchable, messages_from, friend_requests_from, language, remote)
        values (${`remote-${randomUUID()}@fediverse.invalid`}, '!', ${name.first}, ${name.last}, ${about || null}, false, 'FRIENDS', 'FRIENDS_OF_FRIENDS', 'ru', true)
        returning id`);
      accountId = Number(row!.id);
      await tx.execute(sql`
        insert into remote_actors (account_id, uri, inbox, shared_inbox, host, handle, url, icon_url)
        values (${accountId}, ${uri}, ${inbox}, ${sharedInbox}, ${host}, ${handle}, ${url}, ${iconUrl})`);
    }
    // The avatar, the counts and the recent posts are fetched by the job process's relay, never on the
    // request that met the actor.
    if (fetchIcon) await queueAvatarFetch(tx, accountId);
    if (!known) await queueProfileFetch(tx, accountId);
    return { accountId, uri, inbox, sharedInbox, host, handle };
  });
}
