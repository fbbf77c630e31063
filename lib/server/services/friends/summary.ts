import "server-only";
import { sql } from "drizzle-orm";
import { DEFAULT_LOCALE, type Locale } from "@/lib/i18n/config";
import { placeView } from "@/lib/server/geo/places";
import { ageOf } from "@/lib/server/services/accounts/account-dto";
import { hidesPresence, isOnline } from "@/lib/server/services/accounts/presence";
import type { FriendAccountSummary } from "@/lib/validation/friends";
import type { ProfileVisibility } from "@/lib/validation/privacy";
import { profileOpen } from "../privacy/rules";

/** A timestamptz as ISO 8601 text: the driver hands timestamps over as Postgres text, which Date cannot read. */
export const isoTime = (column: ReturnType<typeof sql>) => sql`to_json(${column}) #>> '{}'`;

/**
 * Columns of the account summary shown on every friend card, read from `accounts a` in the same query
 * as the relation rows, so a page of cards costs one query (never one per card). An explicit list:
 * e-mail, password hash and the like never leave the database.
 */
export const summaryColumns = sql`
  a.id as summary_id, a.first_name, a.last_name, a.photo, a.city, a.city_id, a.country, a.country_code,
  to_char(a.birth_date, 'YYYY-MM-DD') as birth_date,
  ${isoTime(sql`a.last_online_time`)} as last_online_time, a.emoji_status, a.profile_visibility`;

export type SummaryRow = {
  summary_id: string | number;
  first_name: string;
  last_name: string;
  photo: string | null;
  city: string | null;
  city_id: number | null;
  country: string | null;
  country_code: string | null;
  birth_date: string | null;
  last_online_time: string | null;
  emoji_status: string | null;
  profile_visibility: ProfileVisibility;
};

export function iso(value: string | null): string | null {
  return value === null ? null : new Date(value).toISOString();
}

/**
 * The card of one account; its place titled in `locale` from the ids (docs/adr/0044). `viewerSide` is
 * the viewer's relation with it when the list has it: across a block the card shows no presence.
 */
export function toFriendSummary(r: SummaryRow, now = new Date(), locale: Locale = DEFAULT_LOCALE, viewerSide?: string | null): FriendAccountSummary {
  // A page closed to the viewer shows name and photo only (docs/adr/0125); without the viewer's side
  // (another account's friends) a closed page counts as closed.
  const closed = !profileOpen({ ownerId: Number(r.summary_id), viewerId: null, profileVisibility: r.profile_visibility, side: viewerSide });
  const hidden = closed || hidesPresence(viewerSide);
  const place = closed
    ? { city: null, cityId: null, country: null, countryId: null }
    : placeView({ countryCode: r.country_code, country: r.country, cityId: r.city_id, city: r.city }, locale);
  return {
    id: Number(r.summary_id),
    firstName: r.first_name,
    lastName: r.last_name,
    fullName: `${r.first_name} ${r.last_name}`.trim(),
    photo: r.photo,
    city: place.city,
    cityId: place.cityId,
    country: place.country,
    countryId: place.countryId,
    // The same rule as the account DTO (whole years, UTC), so a card and the profile never disagree.
    age: closed ? null : ageOf(r.birth_date, now),
    isOnline: !hidden && isOnline(r.last_online_time, now),
    lastOnlineTime: hidden ? null : iso(r.last_online_time),
    emojiStatus: closed ? null : r.emoji_status,
    isClosed: closed,
    // Month and day for a friend's "birthday today" mark (issue 27): the exact birth date is for friends only.
    birthday: viewerSide === "FRIEND" && !closed && r.birth_date ? r.birth_date.slice(5) : null,
  };
}
