// The privacy settings' values and shape (docs/adr/0125), for client code: no message keys here, so a
// page that shows the settings does not pull the error namespaces into its client messages.

export const PROFILE_VISIBILITIES = ["ALL", "FRIENDS"] as const;
export const MESSAGES_FROM = ["ALL", "FRIENDS"] as const;
export const FRIEND_REQUESTS_FROM = ["ALL", "FRIENDS_OF_FRIENDS"] as const;

export type ProfileVisibility = (typeof PROFILE_VISIBILITIES)[number];
export type MessagesFrom = (typeof MESSAGES_FROM)[number];
export type FriendRequestsFrom = (typeof FRIEND_REQUESTS_FROM)[number];

export type PrivacySettings = {
  profileVisibility: ProfileVisibility;
  messagesFrom: MessagesFrom;
  friendRequestsFrom: FriendRequestsFrom;
  searchable: boolean;
  /** Public posts go to the fediverse (issue 43, docs/adr/0172); a closed profile never federates. */
  fediverse: boolean;
  /** The short fediverse address's name (`durov` of `durov@host`), or null. */
  fediverseName: string | null;
};

/** The short fediverse name: 3–32 Latin letters, digits and `_` (issue 43). `id<N>` is every account's own. */
export const FEDIVERSE_NAME_PATTERN = /^[A-Za-z0-9_]{3,32}$/;
export const FEDIVERSE_NAME_RESERVED = /^id[0-9]+$/i;

/** Everything open: an account that never chose behaves as before the settings existed. */
export const DEFAULT_PRIVACY: PrivacySettings = { profileVisibility: "ALL", messagesFrom: "ALL", friendRequestsFrom: "ALL", searchable: true, fediverse: false, fediverseName: null };

/** PUT account/privacy: any of the settings. */
export type PrivacyPatch = Partial<PrivacySettings>;
