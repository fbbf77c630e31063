import "server-only";
import { accounts } from "@/db/schema";

// Kept apart from account-dto.ts (and its place titles) so the viewer query of every request, and the
// realtime sidecar that runs it, need only the schema.

/**
 * The columns an account DTO is made of, of `accounts` or an alias of it. Explicit on purpose: the
 * password hash and other internals can never reach a DTO by a `select *`.
 */
const DTO_KEYS = [
  "id",
  "email",
  "firstName",
  "lastName",
  "photo",
  "profileCover",
  "birthDate",
  "phone",
  "countryCode",
  "country",
  "cityId",
  "city",
  "about",
  "emojiStatus",
  "isDeleted",
  "deletionTimestamp",
  "lastOnlineTime",
  // Privacy (docs/adr/0125): what the DTO may show is decided from these and the viewer's relation.
  "profileVisibility",
  "messagesFrom",
  "friendRequestsFrom",
  // The fediverse address (issue 43): shown on the profile while the account federates.
  "fediverse",
  "fediverseName",
] as const;

type DtoKey = (typeof DTO_KEYS)[number];

export function accountDtoColumnsOf<T extends Record<DtoKey, unknown>>(t: T): { [K in DtoKey]: T[K] } {
  return Object.fromEntries(DTO_KEYS.map((k) => [k, t[k]])) as { [K in DtoKey]: T[K] };
}

export const accountDtoColumns = accountDtoColumnsOf(accounts);

export type AccountDtoRow = {
  [K in keyof typeof accountDtoColumns]: (typeof accounts.$inferSelect)[K];
};
