import { describe, expect, it } from "vitest";
import { DELETE as deleteMe } from "@/app/api/v1/account/me/route";
import { GET as getSettings, PUT as putSettings } from "@/app/api/v1/notifications/settings/route";
import { getDb, getSql } from "@/db/client";
import { readNotificationSettings } from "@/lib/server/services/notifications/settings";
import { NOTIFICATION_SETTING_FIELDS, NOTIFICATION_SETTING_TYPES } from "@/lib/validation/account";
import { createTestAccount, signedInAccount } from "./helpers/factories";
import { call } from "./helpers/http";

const DEFAULTS = {
  enablePost: true,
  enablePostComment: true,
  enableCommentComment: true,
  enableFriendRequest: true,
  enableMessage: true,
  enableFriendBirthday: true,
  enableReportResolved: true,
  enableRepost: true,
  enableGroupAdded: true,
  enableCommunityRequest: true,
  enableCommunityAccepted: true,
  enableCommunityInvitation: true,
  enableCommunityPost: true,
  enableSendEmailMessage: false,
};

const get = (token?: string) => call(getSettings, { token });
const flip = (token: string | undefined, body: unknown) => call(putSettings, { method: "PUT", token, body });
const rowsOf = (id: number) => getSql()`select * from notification_settings where account_id = ${id}`;

describe("GET notifications/settings", () => {
  it("creates the row with the defaults on first read and answers the seven switches", async () => {
    const a = await signedInAccount();
    expect(await rowsOf(a.id)).toHaveLength(0);
    const res = await get(a.accessToken);
    expect(res.status).toBe(200);
    expect(res.body).toEqual(DEFAULTS);
    expect(await rowsOf(a.id)).toHaveLength(1);
    expect((await get(a.accessToken)).body).toEqual(DEFAULTS);
    expect(await rowsOf(a.id)).toHaveLength(1);
  });

  it("survives first reads racing each other", async () => {
    const a = await createTestAccount();
    const all = await Promise.all(Array.from({ length: 5 }, () => readNotificationSettings(getDb(), a.id)));
    for (const s of all) expect(s).toEqual(DEFAULTS);
    expect(await rowsOf(a.id)).toHaveLength(1);
  });

  it("needs a session", async () => {
    expect((await get()).status).toBe(401);
  });
});

describe("PUT notifications/settings", () => {
  it("flips each switch on its own, persistently, creating the row when needed", async () => {
    const a = await signedInAccount();
    const first = await flip(a.accessToken, { notificationType: "MESSAGE", enable: false });
    expect(first.status).toBe(200);
    expect(first.body).toEqual({ ...DEFAULTS, enableMessage: false });
    expect((await get(a.accessToken)).body).toEqual({ ...DEFAULTS, enableMessage: false });

    let expected: Record<string, boolean> = { ...DEFAULTS, enableMessage: false };
    for (const type of NOTIFICATION_SETTING_TYPES) {
      const field = NOTIFICATION_SETTING_FIELDS[type];
      const enable = !expected[field];
      const res = await flip(a.accessToken, { notificationType: type, enable });
      expected = { ...expected, [field]: enable };
      expect(res.body, type).toEqual(expected);
    }
    expect((await get(a.accessToken)).body).toEqual(expected);
    // Another account keeps its own switches.
    const b = await signedInAccount();
    expect((await get(b.accessToken)).body).toEqual(DEFAULTS);
  });

  it("refuses unknown types, wrong types and missing fields with 422, changing nothing", async () => {
    const a = await signedInAccount();
    await get(a.accessToken);
    const before = await rowsOf(a.id);
    for (const body of [
      {},
      { notificationType: "POST" },
      { enable: true },
      { notificationType: "LIKE", enable: true },
      { notificationType: "post", enable: true },
      { notificationType: "POST", enable: "false" },
      { notificationType: "POST", enable: 0 },
      { notificationType: ["POST"], enable: true },
      { notificationType: "'; update notification_settings set enable_post = false; --", enable: true },
    ]) {
      const res = await flip(a.accessToken, body);
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(res.body.error.code).toBe("validation_failed");
    }
    expect((await call(putSettings, { method: "PUT", token: a.accessToken, rawBody: "{", headers: { "content-type": "application/json" } })).status).toBe(400);
    expect(await rowsOf(a.id)).toEqual(before);
  });

  it("needs a session, and a deleted account cannot change its switches", async () => {
    expect((await flip(undefined, { notificationType: "POST", enable: false })).status).toBe(401);
    const a = await signedInAccount();
    await call(deleteMe, { method: "DELETE", token: a.accessToken });
    expect((await flip(a.accessToken, { notificationType: "POST", enable: false })).status).toBe(403);
  });
});
