import { afterAll, describe, expect, it, vi } from "vitest";
import { GET as accountRoute } from "@/app/api/v1/account/[id]/route";
import { GET as meRoute } from "@/app/api/v1/account/me/route";
import { GET as searchRoute } from "@/app/api/v1/account/search/route";
import { POST as requestRoute } from "@/app/api/v1/friends/[id]/request/route";
import { getSql } from "@/db/client";
import { makeFriends, setPair } from "./friends-support";
import { signedInAccount } from "./helpers/factories";
import { call } from "./helpers/http";

vi.stubEnv("RATE_LIMIT_SEARCH", "5/5m");
vi.stubEnv("RATE_LIMIT_FRIEND_REQUEST", "3/1h");
afterAll(() => vi.unstubAllEnvs());

const BIRTH = "1990-05-17";
const PHONE = "+79991234567";

async function owner() {
  const me = await signedInAccount({ firstName: "Ольга", lastName: "Privacy" });
  await getSql()`update accounts set phone = ${PHONE}, birth_date = ${BIRTH} where id = ${me.id}`;
  return me;
}

const view = (token: string, id: number) => call(accountRoute, { token, params: { id: String(id) } });

describe("privacy of phone and birth date (issue 7, item 6)", () => {
  it("the owner and friends see them; a stranger sees only the age; no one sees them across a block", async () => {
    const me = await owner();
    const own = await call(meRoute, { token: me.accessToken });
    expect(own.body).toMatchObject({ phone: PHONE, birthDate: BIRTH });

    const stranger = await signedInAccount();
    const seen = await view(stranger.accessToken, me.id);
    expect(seen.status).toBe(200);
    expect(seen.body.phone).toBeNull();
    expect(seen.body.birthDate).toBeNull();
    expect(seen.body.age).toBeGreaterThanOrEqual(35);

    const friend = await signedInAccount();
    await makeFriends(me.id, friend.id);
    expect((await view(friend.accessToken, me.id)).body).toMatchObject({ phone: PHONE, birthDate: BIRTH, statusCode: "FRIEND" });

    // The owner blocks someone: that viewer sees neither (REJECTING on their side); nor does the blocker see theirs.
    const blocked = await signedInAccount();
    await getSql()`update accounts set phone = ${PHONE}, birth_date = ${BIRTH} where id = ${blocked.id}`;
    await setPair(me.id, blocked.id, ["BLOCKED", "REJECTING"]);
    const across = await view(blocked.accessToken, me.id);
    expect(across.status).toBe(200);
    expect(across.body).toMatchObject({ phone: null, birthDate: null });
    expect((await view(me.accessToken, blocked.id)).body).toMatchObject({ phone: null, birthDate: null });

    // Search results follow the same rule.
    const found = await call(searchRoute, { token: stranger.accessToken, path: `/api/v1/account/search?lastName=Privacy&firstName=Ольга` });
    const card = found.body.content.find((a: { id: number }) => a.id === me.id);
    expect(card).toMatchObject({ phone: null, birthDate: null });
  });

  it("people search is rate-limited per account", async () => {
    const a = await signedInAccount();
    for (let i = 0; i < 5; i++) expect((await call(searchRoute, { token: a.accessToken, path: "/api/v1/account/search" })).status).toBe(200);
    const limited = await call(searchRoute, { token: a.accessToken, path: "/api/v1/account/search" });
    expect(limited.status).toBe(429);
    expect(limited.body.error.code).toBe("rate_limited");
    // Another account is unaffected.
    const b = await signedInAccount();
    expect((await call(searchRoute, { token: b.accessToken, path: "/api/v1/account/search" })).status).toBe(200);
  });

  it("friend requests are rate-limited per account (item 10)", async () => {
    const a = await signedInAccount();
    for (let i = 0; i < 3; i++) {
      const target = await signedInAccount();
      expect((await call(requestRoute, { method: "POST", token: a.accessToken, params: { id: String(target.id) } })).status).toBe(200);
    }
    const target = await signedInAccount();
    const limited = await call(requestRoute, { method: "POST", token: a.accessToken, params: { id: String(target.id) } });
    expect(limited.status).toBe(429);
    const [{ n }] = await getSql()`select count(*)::int as n from friendships where account_id = ${a.id} and friend_id = ${target.id}`;
    expect(n).toBe(0);
  });
});
