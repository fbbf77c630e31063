// A friend's birthday on their card and row (issue 27, docs/adr/0132): friends lists carry a friend's
// month and day ("MM-DD") and nobody else's; the page decides "today" in the reader's time zone.
import { describe, expect, it } from "vitest";
import { GET as listRoute } from "@/app/api/v1/friends/route";
import { getSql } from "@/db/client";
import { isBirthdayToday, monthDayIn } from "@/components/friends/birthday-mark";
import { signedInAccount } from "./helpers/factories";
import { call } from "./helpers/http";
import { makeFriends, setPair } from "./friends-support";

describe("birthday today", () => {
  it("a friend's row carries the month and day; a request's row does not", async () => {
    const [me, friend, asker] = await Promise.all([signedInAccount(), signedInAccount(), signedInAccount()]);
    await getSql()`update accounts set birth_date = '1990-11-27' where id in (${friend.id}, ${asker.id})`;
    await makeFriends(me.id, friend.id);
    await setPair(asker.id, me.id, ["REQUEST_TO", "REQUEST_FROM"]);
    const friends = await call(listRoute, { token: me.accessToken, path: "/api/v1/friends?statusCode=FRIEND" });
    expect(friends.status).toBe(200);
    const row = friends.body.content.find((x: { account: { id: number } }) => x.account.id === friend.id);
    expect(row.account.birthday).toBe("11-27");
    const requests = await call(listRoute, { token: me.accessToken, path: "/api/v1/friends?statusCode=REQUEST_FROM" });
    const req = requests.body.content.find((x: { account: { id: number } }) => x.account.id === asker.id);
    expect(req.account.birthday).toBeNull();
  });

  it("today is the reader's: at 23:30 UTC on 27 November it is already the 28th in Moscow", () => {
    const at = new Date("2026-11-27T23:30:00Z");
    expect(monthDayIn("UTC", at)).toBe("11-27");
    expect(monthDayIn("Europe/Moscow", at)).toBe("11-28");
    expect(monthDayIn("America/Los_Angeles", at)).toBe("11-27");
    expect(isBirthdayToday("02-29", "02-28", false)).toBe(true);
    expect(isBirthdayToday("02-29", "02-28", true)).toBe(false);
    expect(isBirthdayToday("11-27", "11-28", false)).toBe(false);
  });
});
