import { describe, expect, it } from "vitest";
import { friendRequestAllowed, messagesAllowed, postAudience, profileOpen } from "@/lib/server/services/privacy/rules";
import { privacyUpdateInput } from "@/lib/validation/privacy";

// The privacy rule's decisions for a row already read (docs/adr/0125); the SQL halves are exercised by
// tests/integration/privacy-settings.test.ts on every path.

const SIDES = [null, "FRIEND", "REQUEST_TO", "REQUEST_FROM", "SUBSCRIBED", "WATCHING", "BLOCKED", "REJECTING"] as const;

describe("profileOpen", () => {
  it("an open page is open to everyone, a closed one to its owner and friends only", () => {
    for (const side of SIDES) {
      expect(profileOpen({ ownerId: 1, viewerId: 2, profileVisibility: "ALL", side })).toBe(true);
      expect(profileOpen({ ownerId: 1, viewerId: 2, profileVisibility: "FRIENDS", side })).toBe(side === "FRIEND");
      expect(profileOpen({ ownerId: 1, viewerId: 1, profileVisibility: "FRIENDS", side })).toBe(true);
    }
    // Signed out (the public shell): closed means closed.
    expect(profileOpen({ ownerId: 1, viewerId: null, profileVisibility: "FRIENDS", side: null })).toBe(false);
  });
});

describe("messagesAllowed / friendRequestAllowed / postAudience", () => {
  it("follow the four settings", () => {
    for (const side of SIDES) {
      expect(messagesAllowed({ messagesFrom: "ALL", side })).toBe(true);
      expect(messagesAllowed({ messagesFrom: "FRIENDS", side })).toBe(side === "FRIEND");
    }
    expect(friendRequestAllowed({ friendRequestsFrom: "ALL", mutual: undefined })).toBe(true);
    expect(friendRequestAllowed({ friendRequestsFrom: "FRIENDS_OF_FRIENDS", mutual: true })).toBe(true);
    expect(friendRequestAllowed({ friendRequestsFrom: "FRIENDS_OF_FRIENDS", mutual: false })).toBe(false);
    expect(friendRequestAllowed({ friendRequestsFrom: "FRIENDS_OF_FRIENDS", mutual: undefined })).toBe(false);
    expect(postAudience("ALL")).toEqual(["FRIEND", "WATCHING"]);
    expect(postAudience("FRIENDS")).toEqual(["FRIEND"]);
  });
});

describe("privacyUpdateInput", () => {
  it("takes any of the four, refuses unknown values, unknown fields and an empty body", () => {
    expect(privacyUpdateInput.parse({ searchable: false })).toEqual({ searchable: false });
    expect(privacyUpdateInput.parse({ profileVisibility: "FRIENDS", messagesFrom: "ALL", friendRequestsFrom: "FRIENDS_OF_FRIENDS", searchable: true })).toMatchObject({
      friendRequestsFrom: "FRIENDS_OF_FRIENDS",
    });
    for (const bad of [{}, { profileVisibility: "friends" }, { messagesFrom: null }, { searchable: 1 }, { theme: "dark" }, [], "ALL"]) {
      expect(privacyUpdateInput.safeParse(bad).success, JSON.stringify(bad)).toBe(false);
    }
    const unknown = privacyUpdateInput.safeParse({ searchable: true, extra: 1 });
    expect(unknown.success || unknown.error.issues[0].message).toBe("privacyErrors.unknownField");
    const value = privacyUpdateInput.safeParse({ messagesFrom: "NOBODY" });
    expect(value.success || value.error.issues[0].message).toBe("privacyErrors.invalidValue");
  });
});
