import { describe, expect, it, vi } from "vitest";
import { GET as accountRoute } from "@/app/api/v1/account/[id]/route";
import { GET as searchRoute } from "@/app/api/v1/account/search/route";
import { GET as recoveryLinkRoute } from "@/app/api/v1/auth/password/recovery/[secret]/route";
import { GET as friendsRoute } from "@/app/api/v1/friends/route";
import { log } from "@/lib/server/log";
import { getPublicProfile, isProfileListed } from "@/lib/server/services/profiles/public-profile";
import { listSitemapProfiles } from "@/lib/server/services/profiles/sitemap";
import { getDb, getSql } from "@/db/client";
import { makeFriends } from "./friends-support";
import { ctxOf, signedInAccount } from "./helpers/factories";
import { call } from "./helpers/http";

// Issue 7, item 10: admin-blocked accounts disappear, deleted accounts read nothing of others, no secret in logs.

describe("an account blocked by the administration", () => {
  it("is hidden from search, account/{id}, the public shell and the sitemap; staff still find it", async () => {
    const viewer = await signedInAccount();
    const blocked = await signedInAccount({ firstName: "Zeblocked", lastName: "Hidden" });
    const visible = await signedInAccount({ firstName: "Zeblocked", lastName: "Shown" });
    await getSql()`update accounts set is_blocked = true where id = ${blocked.id}`;

    const found = await call(searchRoute, { token: viewer.accessToken, path: "/api/v1/account/search?firstName=Zeblocked" });
    expect(found.status).toBe(200);
    expect(found.body.content.map((a: { id: number }) => a.id)).toEqual([visible.id]);
    expect((await call(accountRoute, { token: viewer.accessToken, params: { id: String(blocked.id) } })).status).toBe(404);
    expect((await call(accountRoute, { token: viewer.accessToken, params: { id: String(visible.id) } })).status).toBe(200);

    expect(await isProfileListed(getDb(), blocked.id)).toBe(false);
    await expect(getPublicProfile({ ctx: ctxOf(), input: { id: String(blocked.id) } })).rejects.toMatchObject({ code: "not_found" });
    const sitemap = (await listSitemapProfiles({ ctx: ctxOf(), input: { after: 0, size: 50_000 } })).map((e) => e.id);
    expect(sitemap).toContain(visible.id);
    expect(sitemap).not.toContain(blocked.id);

    const admin = await signedInAccount();
    await getSql()`update accounts set role = 'ADMIN' where id = ${admin.id}`;
    expect((await call(accountRoute, { token: admin.accessToken, params: { id: String(blocked.id) } })).status).toBe(200);
    const staffSearch = await call(searchRoute, { token: admin.accessToken, path: "/api/v1/account/search?firstName=Zeblocked" });
    expect(staffSearch.body.content.map((a: { id: number }) => a.id).sort()).toEqual([blocked.id, visible.id].sort());
  });
});

describe("a deleted account", () => {
  it("cannot read other accounts or friends lists until restored", async () => {
    const me = await signedInAccount();
    const friend = await signedInAccount();
    await makeFriends(me.id, friend.id);
    await getSql()`update accounts set is_deleted = true, deletion_timestamp = now() where id = ${me.id}`;
    const other = await call(accountRoute, { token: me.accessToken, params: { id: String(friend.id) } });
    expect(other.status).toBe(403);
    expect(other.body.error.code).toBe("forbidden");
    expect((await call(accountRoute, { token: me.accessToken, params: { id: String(me.id) } })).status).toBe(200);
    const friends = await call(friendsRoute, { token: me.accessToken, path: "/api/v1/friends?statusCode=FRIEND" });
    expect(friends.status).toBe(403);
    // Restored, it reads again.
    await getSql()`update accounts set is_deleted = false, deletion_timestamp = null where id = ${me.id}`;
    expect((await call(accountRoute, { token: me.accessToken, params: { id: String(friend.id) } })).status).toBe(200);
    expect((await call(friendsRoute, { token: me.accessToken, path: "/api/v1/friends?statusCode=FRIEND" })).status).toBe(200);
  });
});

describe("request logs", () => {
  it("never hold the recovery secret of a link path", async () => {
    const info = vi.spyOn(log, "info");
    const secret = "AbCdEfGhIjKlMnOpQrStUvWxYz0123456789_-xyz";
    const res = await call(recoveryLinkRoute, { method: "GET", path: `/api/v1/auth/password/recovery/${secret}`, params: { secret } });
    expect(res.status).toBe(303);
    const logged = JSON.stringify(info.mock.calls);
    expect(logged).toContain("/api/v1/auth/password/recovery/:secret");
    expect(logged).not.toContain(secret);
    info.mockRestore();
  });
});
