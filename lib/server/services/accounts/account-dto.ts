import "server-only";
import { and, eq, type Placeholder } from "drizzle-orm";
import { accounts, friendships } from "@/db/schema";
import { DEFAULT_LOCALE, type Locale } from "@/lib/i18n/config";
import { env } from "@/lib/server/env";
import { placeView } from "@/lib/server/geo/places";
import { accountDtoColumns, type AccountDtoRow } from "./account-columns";
import { messagesAllowed, profileOpen } from "@/lib/server/services/privacy/rules";
import { hidesPresence, isOnline } from "./presence";

export type FriendStatusCode = (typeof friendships.$inferSelect)["statusCode"];

export { accountDtoColumns, type AccountDtoRow } from "./account-columns";

/** The viewer's side of the relation with each selected account (left join): its status, or null. */
export function viewerFriendshipJoin(viewerId: number | Placeholder) {
  return and(eq(friendships.accountId, viewerId), eq(friendships.friendId, accounts.id));
}

/** Selects the DTO columns plus the viewer's status code (use with viewerFriendshipJoin). */
export const accountDtoSelection = { ...accountDtoColumns, statusCode: friendships.statusCode };

export type AccountDto = {
  id: number;
  firstName: string;
  lastName: string;
  fullName: string;
  photo: string | null;
  profileCover: string | null;
  birthDate: string | null;
  age: number | null;
  phone: string | null;
  /** Titled in the request's language from the ids (docs/adr/0044), or another client's text as saved. */
  country: string | null;
  /** ISO 3166-1 alpha-2, or null when none (or only text) is saved. */
  countryId: string | null;
  city: string | null;
  /** GeoNames id (GET geo/country/{id}/city), or null. */
  cityId: number | null;
  about: string | null;
  emojiStatus: string | null;
  isDeleted: boolean;
  deletionTimestamp: string | null;
  isOnline: boolean;
  lastOnlineTime: string | null;
  /** The viewer's side of the friendship (spec section 4), null when there is none or it is the viewer. */
  statusCode: FriendStatusCode | null;
  /**
   * The page is closed to the viewer (docs/adr/0125): then only id, names, photo, isDeleted and statusCode
   * carry values; cover, birthday, age, phone, place, about, emoji status and presence are null/false.
   */
  isClosed: boolean;
  /** Whether the viewer may write to this account: its messagesFrom and no block either way (false for oneself). */
  canMessage: boolean;
  /** Whether the viewer may ask for friendship by its friendRequestsFrom; only on a single account's read (GET account/{id}). */
  canRequestFriend?: boolean;
  /** Only on GET account/{id} and account/me: the fediverse address while the account federates (issue 43). */
  fediverseAddress?: string | null;
  /** Only on GET account/{id} of a person of another server: their profile's page there. */
  remoteUrl?: string;
  /** Only on GET account/{id} of a person of another server: their counts as their server states them. */
  remoteCounts?: { followers: number | null; following: number | null; posts: number | null };
  /** Own account only. */
  email?: string;
  /** Own account only: until when a deleted account can be restored (null when not deleted). */
  restoreUntil?: string | null;
};

/** Whole years between a "YYYY-MM-DD" birth date and `now` (UTC). */
/**
 * An account's fediverse address while it federates (switched on, open profile, not deleted — the rule of
 * lib/server/federation/actors.ts): its short name's when chosen, else `id<N>@host`; otherwise null.
 */
export function fediverseAddressOf(row: Pick<AccountDtoRow, "id" | "fediverse" | "fediverseName" | "profileVisibility" | "isDeleted">, host: string): string | null {
  if (!row.fediverse || row.profileVisibility !== "ALL" || row.isDeleted) return null;
  return `${row.fediverseName ?? `id${row.id}`}@${host}`;
}

export function ageOf(birthDate: string | null, now: Date = new Date()): number | null {
  if (!birthDate) return null;
  const [y, m, d] = birthDate.split("-").map(Number);
  const today = { y: now.getUTCFullYear(), m: now.getUTCMonth() + 1, d: now.getUTCDate() };
  const hadBirthday = today.m > m || (today.m === m && today.d >= d);
  return today.y - y - (hadBirthday ? 0 : 1);
}

/** The end of a deleted account's restore window (DELETION_RESTORE_DAYS after the deletion). */
export function restoreUntilOf(deletionTimestamp: Date | null): Date | null {
  if (!deletionTimestamp) return null;
  return new Date(deletionTimestamp.getTime() + env().DELETION_RESTORE_DAYS * 24 * 3600_000);
}

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/**
 * The one mapping from an account row to what the API shows; e-mail and restore window only to the owner,
 * phone and exact birth date to the owner and friends.
 */
export function toAccountDto(
  row: AccountDtoRow & { statusCode?: FriendStatusCode | null },
  opts: { viewerId: number | null; now?: Date; locale?: Locale },
): AccountDto {
  const now = opts.now ?? new Date();
  const own = opts.viewerId === row.id;
  // Phone and the exact birth date are for the owner and friends only (FRIEND is never a blocked
  // relation); the age stays public. A list without the viewer's relation shows neither.
  const close = own || row.statusCode === "FRIEND";
  // A closed page shows a non-friend the name and photo only (the privacy rule, docs/adr/0125).
  const closed = !profileOpen({ ownerId: row.id, viewerId: opts.viewerId, profileVisibility: row.profileVisibility, side: row.statusCode });
  const hidden = closed || (!own && hidesPresence(row.statusCode));
  const place = placeView(row, opts.locale ?? DEFAULT_LOCALE);
  const blocked = row.statusCode === "BLOCKED" || row.statusCode === "REJECTING";
  const dto: AccountDto = {
    id: row.id,
    firstName: row.firstName,
    lastName: row.lastName,
    fullName: `${row.firstName} ${row.lastName}`.trim(),
    photo: row.photo,
    profileCover: closed ? null : row.profileCover,
    birthDate: close ? row.birthDate : null,
    age: closed ? null : ageOf(row.birthDate, now),
    phone: close ? row.phone : null,
    ...(closed ? { country: null, countryId: null, city: null, cityId: null } : place),
    about: closed ? null : row.about,
    emojiStatus: closed ? null : row.emojiStatus,
    isDeleted: row.isDeleted,
    deletionTimestamp: iso(row.deletionTimestamp),
    isOnline: !hidden && isOnline(row.lastOnlineTime, now),
    lastOnlineTime: hidden ? null : iso(row.lastOnlineTime),
    statusCode: own ? null : (row.statusCode ?? null),
    isClosed: closed,
    canMessage: !own && !blocked && !row.isDeleted && messagesAllowed({ messagesFrom: row.messagesFrom, side: row.statusCode }),
  };
  if (own) {
    dto.email = row.email;
    dto.restoreUntil = row.isDeleted ? iso(restoreUntilOf(row.deletionTimestamp)) : null;
  }
  return dto;
}
