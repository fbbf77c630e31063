import "server-only";
import { accounts } from "@/db/schema";

// Kept apart from account-dto.ts (and its place titles) so the viewer query of every request, and the
// realtime sidecar that runs it, need only the schema.

/**
 * The columns an account DTO is made of. Explicit on purpose: the password hash and other internals
 * can never reach a DTO by a `select *`.
 */
export const accountDtoColumns = {
  id: accounts.id,
  email: accounts.email,
  firstName: accounts.firstName,
  lastName: accounts.lastName,
  photo: accounts.photo,
  profileCover: accounts.profileCover,
  birthDate: accounts.birthDate,
  phone: accounts.phone,
  countryCode: accounts.countryCode,
  country: accounts.country,
  cityId: accounts.cityId,
  city: accounts.city,
  about: accounts.about,
  emojiStatus: accounts.emojiStatus,
  isDeleted: accounts.isDeleted,
  deletionTimestamp: accounts.deletionTimestamp,
  lastOnlineTime: accounts.lastOnlineTime,
};

export type AccountDtoRow = {
  [K in keyof typeof accountDtoColumns]: (typeof accounts.$inferSelect)[K];
};
