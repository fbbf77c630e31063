// Issue 24 item 20, ADR 114: across a block neither person sees the other's presence, in any DTO that
// shows it (the profile, a search card, a friends-list card, a dialog), and the sidecar's presence
// fan-out skips a blocked dialog.
import { describe, expect, it } from "vitest";
import { GET as accountRoute } from "@/app/api/v1/account/[id]/route";
import { GET as searchRoute } from "@/app/api/v1/account/search/route";
import { GET as dialogsRoute, POST as createDialogRoute } from "@/app/api/v1/dialogs/route";
import { GET as friendsRoute } from "@/app/api/v1/friends/route";
import { getDb } from "@/db/client";
import { dialogPartnerIds } from "@/lib/server/services/dialogs/dialogs";
import { blockAccount } from "@/lib/server/services/friends/actions";
import { signedInAccount } from "./helpers/factories";
import { call } from "./helpers/http";

type Account = Awaited<ReturnType<typeof signedInAccount>>;

const profile = (who: Account, id: number) => call(accountRoute, { token: who.accessToken, params: { id: String(id) } });
const search = (who: Account, lastName: string) =>
  call(searchRoute, { token: who.accessToken, path: `/api/v1/account/search?${new URLSearchParams({ lastName })}` });
const dialogs = (who: Account) => call(dialogsRoute, { token: who.accessToken, path: "/api/v1/dialogs?page=0&size=20" });

describe("presence across a block", () => {
  it("the blocked viewer and the blocker see no presence of each other; before the block both did", async () => {
    const lastName = `Presence${Array.from({ length: 6 }, () => String.fromCharCode(97 + Math.floor(Math.random() * 26))).join("")}`;
    // Signing in marks both as seen now: online.
    const blocker = await signedInAccount({ firstName: "Alla", lastName });
    const viewer = await signedInAccount({ firstName: "Boris", lastName });
    const created = await call(createDialogRoute, { method: "POST", token: viewer.accessToken, body: { recipientId: blocker.id } });
    expect(created.status).toBeLessThan(300);

    const before = await profile(viewer, blocker.id);
    expect(before.body).toMatchObject({ statusCode: null, isOnline: true });
    expect(before.body.lastOnlineTime).toEqual(expect.any(String));
    expect((await dialogs(viewer)).body.content[0].partner).toMatchObject({ id: blocker.id, isOnline: true });
    expect(await dialogPartnerIds(getDb(), blocker.id, 10)).toEqual([viewer.id]);

    await blockAccount({ ctx: blocker.ctx, input: { id: viewer.id } });

    // The profile, both ways.
    const seen = await profile(viewer, blocker.id);
    expect(seen.status).toBe(200);
    expect(seen.body).toMatchObject({ id: blocker.id, statusCode: "REJECTING", isOnline: false, lastOnlineTime: null });
    expect((await profile(blocker, viewer.id)).body).toMatchObject({ statusCode: "BLOCKED", isOnline: false, lastOnlineTime: null });
    // The owner still sees their own.
    expect((await profile(viewer, viewer.id)).body).toMatchObject({ isOnline: true });

    // A search card listing them.
    const card = (await search(viewer, lastName)).body.content.find((a: { id: number }) => a.id === blocker.id);
    expect(card).toMatchObject({ statusCode: "REJECTING", isOnline: false, lastOnlineTime: null });

    // The card on the blocker's "blocked" tab.
    const list = await call(friendsRoute, { token: blocker.accessToken, path: "/api/v1/friends?statusCode=BLOCKED" });
    expect(list.status).toBe(200);
    expect(list.body.content[0]).toMatchObject({ friendId: viewer.id, account: { id: viewer.id, isOnline: false, lastOnlineTime: null } });

    // The dialog, both ways, and no live presence frame across it.
    for (const [who, other] of [
      [viewer, blocker],
      [blocker, viewer],
    ] as const) {
      const partner = (await dialogs(who)).body.content[0].partner;
      expect(partner).toMatchObject({ id: other.id, isOnline: false, lastOnlineTime: null });
    }
    expect(await dialogPartnerIds(getDb(), blocker.id, 10)).toEqual([]);
    expect(await dialogPartnerIds(getDb(), viewer.id, 10)).toEqual([]);
  });
});
