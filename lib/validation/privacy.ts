import { z } from "zod";

// Privacy settings (issue 26 section 3, docs/adr/0125): GET / PUT account/privacy, the settings form and
// the services, which re-parse. Messages are keys of messages/*.json (namespace privacyErrors); the API
// translates them.

import { FEDIVERSE_NAME_PATTERN, FEDIVERSE_NAME_RESERVED, FRIEND_REQUESTS_FROM, MESSAGES_FROM, PROFILE_VISIBILITIES } from "./privacy-shared";

export * from "./privacy-shared";

export const PRIVACY_ERRORS = {
  invalidValue: "privacyErrors.invalidValue",
  unknownField: "privacyErrors.unknownField",
  empty: "privacyErrors.empty",
  profileClosed: "privacyErrors.profileClosed",
  // A chat refusal: the socket's MESSAGE_REJECTED carries chatErrors keys only, and the chat pages load that namespace.
  messagesFriendsOnly: "chatErrors.messagesFriendsOnly",
  friendRequestsFriendsOfFriends: "privacyErrors.friendRequestsFriendsOfFriends",
  rateLimited: "privacyErrors.rateLimited",
  fediverseNameInvalid: "privacyErrors.fediverseNameInvalid",
  fediverseNameReserved: "privacyErrors.fediverseNameReserved",
  fediverseNameTaken: "privacyErrors.fediverseNameTaken",
  fediverseFollowNeedsSwitch: "privacyErrors.fediverseFollowNeedsSwitch",
} as const;

/** The short fediverse name, or null to give it up. Checked by length before the pattern runs. */
export const fediverseNameInput = z
  .string(PRIVACY_ERRORS.fediverseNameInvalid)
  .max(32, PRIVACY_ERRORS.fediverseNameInvalid)
  .regex(FEDIVERSE_NAME_PATTERN, PRIVACY_ERRORS.fediverseNameInvalid)
  .refine((v) => !FEDIVERSE_NAME_RESERVED.test(v), PRIVACY_ERRORS.fediverseNameReserved)
  .nullable();

/**
 * PUT account/privacy: any of the settings (at least one); a field not named here, or a value
 * outside its list, is refused — never stored, never ignored.
 */
export const privacyUpdateInput = z
  .strictObject(
    {
      profileVisibility: z.enum(PROFILE_VISIBILITIES, PRIVACY_ERRORS.invalidValue).optional(),
      messagesFrom: z.enum(MESSAGES_FROM, PRIVACY_ERRORS.invalidValue).optional(),
      friendRequestsFrom: z.enum(FRIEND_REQUESTS_FROM, PRIVACY_ERRORS.invalidValue).optional(),
      searchable: z.boolean(PRIVACY_ERRORS.invalidValue).optional(),
      fediverse: z.boolean(PRIVACY_ERRORS.invalidValue).optional(),
      fediverseName: fediverseNameInput.optional(),
    },
    { error: (issue) => (issue.code === "unrecognized_keys" ? PRIVACY_ERRORS.unknownField : PRIVACY_ERRORS.invalidValue) },
  )
  .refine((v) => Object.values(v).some((x) => x !== undefined), PRIVACY_ERRORS.empty);

export type PrivacyUpdateInput = z.infer<typeof privacyUpdateInput>;
