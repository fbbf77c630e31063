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
};

/** Everything open: an account that never chose behaves as before the settings existed. */
export const DEFAULT_PRIVACY: PrivacySettings = { profileVisibility: "ALL", messagesFrom: "ALL", friendRequestsFrom: "ALL", searchable: true };

/** PUT account/privacy: any of the four. */
export type PrivacyPatch = Partial<PrivacySettings>;
