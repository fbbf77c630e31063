import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it, vi } from "vitest";
import { GET as accountRoute } from "@/app/api/v1/account/[id]/route";
import { DELETE as deleteMe, GET as getMe, PUT as putMe } from "@/app/api/v1/account/me/route";
import { POST as storageRoute } from "@/app/api/v1/storage/route";
import { getSql } from "@/db/client";
import { touchPresence } from "@/lib/server/services/accounts/presence";
import { getDb } from "@/db/client";
import { createTestAccount, signedInAccount } from "./helpers/factories";
import { call } from "./helpers/http";
import { png, upload } from "./helpers/upload";

vi.stubEnv("DATA_DIR", mkdtempSync(path.join(os.tmpdir(), "krug-account-test-")));

const me = (token: string) => call(getMe, { token });
const put = (token: string, body: unknown) => call(putMe, { method: "PUT", token, body });
const view = (token: string, id: number | string) => call(accountRoute, { token, params: { id: String(id) } });

/** The stored row, to prove a refused request changed nothing. */
async function rowOf(id: number) {
  const [row] = await getSql()`select * from accounts where id = ${id}`;
  return row;
}

const ACCOUNT_KEYS = [
  // Privacy (docs/adr/0125): whether the page is closed to the viewer and whether the viewer may write.
  "isClosed",
  "canMessage",
  "id",
  "firstName",
  "lastName",
  "fullName",
  "photo",
  "profileCover",
  "birthDate",
  "age",
  "phone",
  "country",
  "countryId",
  "city",
  "cityId",
  "about",
  "emojiStatus",
  "isDeleted",
  "deletionTimestamp",
  "isOnline",
  "lastOnlineTime",
  "statusCode",
];

describe("GET account/me and account/{id}", () => {
  it("shows the own account with e-mail and never a password hash or token", async () => {
    const a = await signedInAccount({ firstName: "Анна", lastName: "Смирнова" });
    const res = await me(a.accessToken);
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual([...ACCOUNT_KEYS, "email", "restoreUntil", "fediverseAddress"].sort());
    expect(res.body).toMatchObject({
      id: a.id,
      email: a.email,
      firstName: "Анна",
      lastName: "Смирнова",
      fullName: "Анна Смирнова",
      isDeleted: false,
      deletionTimestamp: null,
      restoreUntil: null,
      statusCode: null,
      isOnline: true, // signing in counts as a sign of life
    });
    const text = JSON.stringify(res.body);
    expect(text).not.toMatch(/argon2|passwordHash|password_hash|accessToken|refresh/i);
  });

  it("shows another account without its e-mail, with the viewer's side of the friendship", async () => {
    const a = await signedInAccount();
    const b = await createTestAccount({ firstName: "Boris", lastName: "Ivanov" });
    const res = await view(a.accessToken, b.id);
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual([...ACCOUNT_KEYS, "canRequestFriend", "fediverseAddress"].sort());
    expect(res.body.email).toBeUndefined();
    expect(JSON.stringify(res.body)).not.toContain(b.email);
    expect(res.body).toMatchObject({ id: b.id, fullName: "Boris Ivanov", statusCode: null, isOnline: false });

    await getSql()`insert into friendships (account_id, friend_id, status_code) values (${a.id}, ${b.id}, 'REQUEST_TO'), (${b.id}, ${a.id}, 'REQUEST_FROM')`;
    expect((await view(a.accessToken, b.id)).body.statusCode).toBe("REQUEST_TO");
    // Asking for oneself by id is the own account (with e-mail), not a relation.
    const self = await view(a.accessToken, a.id);
    expect(self.body.email).toBe(a.email);
    expect(self.body.statusCode).toBeNull();
  });

  it("reports presence from the last sign of life", async () => {
    const a = await signedInAccount();
    const b = await createTestAccount();
    await touchPresence(getDb(), b.id);
    const online = await view(a.accessToken, b.id);
    expect(online.body.isOnline).toBe(true);
    expect(Date.parse(online.body.lastOnlineTime)).toBeGreaterThan(Date.now() - 60_000);
    await getSql()`update accounts set last_online_time = now() - interval '1 hour' where id = ${b.id}`;
    expect((await view(a.accessToken, b.id)).body.isOnline).toBe(false);
  });

  it("answers 404 for unknown, deleted and malformed ids, and 401 without a session", async () => {
    const a = await signedInAccount();
    const gone = await signedInAccount();
    expect((await call(deleteMe, { method: "DELETE", token: gone.accessToken })).status).toBe(200);
    for (const id of [gone.id, 999_999_999, "abc", "-1", "1.5", "0", "1e3", "99999999999999999999", "1;drop table accounts"]) {
      const res = await view(a.accessToken, id);
      expect(res.status, String(id)).toBe(404);
      expect(res.body.error.code).toBe("not_found");
    }
    // The owner still sees the deleted account (the restore screen needs it).
    expect((await view(gone.accessToken, gone.id)).body.isDeleted).toBe(true);
    expect((await me("")).status).toBe(401);
    expect((await call(accountRoute, { params: { id: String(a.id) } })).status).toBe(401);
  });
});

describe("PUT account/me", () => {
  it("updates the editable fields and derives full name and age", async () => {
    const a = await signedInAccount();
    const res = await put(a.accessToken, {
      firstName: "Мария",
      lastName: "Петрова",
      birthDate: "2000-02-29",
      phone: "+7 (999) 123-45-67",
      country: "Россия",
      city: "Казань",
      about: "Люблю горы\nи кофе",
      emojiStatus: "happy",
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      firstName: "Мария",
      lastName: "Петрова",
      fullName: "Мария Петрова",
      birthDate: "2000-02-29",
      phone: "+7 (999) 123-45-67",
      country: "Россия",
      city: "Казань",
      about: "Люблю горы\nи кофе",
      emojiStatus: "happy",
      email: a.email,
    });
    const today = new Date();
    const expectedAge = today.getUTCFullYear() - 2000 - (today.getUTCMonth() < 2 ? 1 : 0);
    expect(res.body.age).toBe(expectedAge);
    expect((await me(a.accessToken)).body.city).toBe("Казань");
  });

  it("stores places as ISO codes and GeoNames ids and shows them in the request's language (issue 7 item 12)", async () => {
    const a = await signedInAccount();
    const ru = { cookie: "NEXT_LOCALE=ru" };
    const en = { cookie: "NEXT_LOCALE=en" };
    // Saved on the Russian page, as titles.
    const saved = await call(putMe, { method: "PUT", token: a.accessToken, headers: ru, body: { country: "Россия", city: "Казань" } });
    expect(saved.status).toBe(200);
    expect(saved.body).toMatchObject({ country: "Россия", countryId: "RU", city: "Казань", cityId: 551487 });
    expect(await rowOf(a.id)).toMatchObject({ country_code: "RU", country: null, city_id: 551487, city: null });
    // Read on the English page (and by another account there).
    expect((await call(getMe, { token: a.accessToken, headers: en })).body).toMatchObject({ country: "Russia", countryId: "RU", city: "Kazan", cityId: 551487 });
    const b = await signedInAccount();
    expect((await call(accountRoute, { token: b.accessToken, params: { id: String(a.id) }, headers: en })).body).toMatchObject({ country: "Russia", city: "Kazan" });
    expect((await call(accountRoute, { token: b.accessToken, params: { id: String(a.id) }, headers: ru })).body).toMatchObject({ country: "Россия", city: "Казань" });

    // English titles, any case, and the city of the country given with it (Kazan, Russia; not Kazan, Türkiye).
    const english = await call(putMe, { method: "PUT", token: a.accessToken, headers: ru, body: { country: "united kingdom", city: "LONDON" } });
    expect(english.body).toMatchObject({ country: "Великобритания", countryId: "GB", city: "Лондон", cityId: 2643743 });
    expect((await put(a.accessToken, { country: "tr", city: "Kazan" })).body).toMatchObject({ countryId: "TR", cityId: 743615 });
    // Ids (as GET geo/… answers them); a city id brings its country.
    expect((await put(a.accessToken, { countryId: "fr", cityId: 2988507 })).body).toMatchObject({ country: "Франция", countryId: "FR", city: "Париж", cityId: 2988507 });
    expect((await put(a.accessToken, { cityId: "480060" })).body).toMatchObject({ country: "Россия", countryId: "RU", city: "Тверь", cityId: 480060 });
    // Another country without a city keeps the city only as text.
    expect((await put(a.accessToken, { countryId: "DE" })).body).toMatchObject({ countryId: "DE", city: "Тверь", cityId: null });
    // Text that names no place is kept as typed.
    expect((await put(a.accessToken, { country: "Атлантида", city: "Подводный" })).body).toMatchObject({
      country: "Атлантида",
      countryId: null,
      city: "Подводный",
      cityId: null,
    });
    expect((await put(a.accessToken, { countryId: null, cityId: null })).body).toMatchObject({ country: null, countryId: null, city: null, cityId: null });

    // Bad ids are refused and change nothing.
    await put(a.accessToken, { countryId: "RU", cityId: 551487 });
    const before = await rowOf(a.id);
    for (const [body, path, message] of [
      [{ countryId: "XX" }, "countryId", "Country not found"],
      [{ countryId: "RUS" }, "countryId", "Country not found"],
      [{ cityId: 1 }, "cityId", "City not found"],
      [{ cityId: "Kazan" }, "cityId", "City not found"],
      [{ cityId: -5 }, "cityId", "City not found"],
      [{ countryId: "DE", cityId: 551487 }, "cityId", "This city is not in the chosen country"],
    ] as const) {
      const res = await call(putMe, { method: "PUT", token: a.accessToken, headers: en, body });
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(res.body.error.issues[0]).toMatchObject({ path, message });
    }
    expect(await rowOf(a.id)).toEqual(before);
  });

  it("strips names to Latin and Cyrillic letters, underscore and - or ' between letters, capped at 50", async () => {
    const a = await signedInAccount();
    const res = await put(a.accessToken, { firstName: "  Jean-Luc 3rd!<b>", lastName: "Ёжик_в_тумане" + "я".repeat(80) });
    expect(res.status).toBe(200);
    expect(res.body.firstName).toBe("Jean-Lucrdb");
    expect(res.body.lastName).toBe(("Ёжик_в_тумане" + "я".repeat(80)).slice(0, 50));
    // The same schema as registration (ADR 0050): nothing a sign-up kept is lost by saving it again.
    const kept = await put(a.accessToken, { firstName: "Їжак", lastName: "Renée O’Brien-Smith" });
    expect(kept.body).toMatchObject({ firstName: "Їжак", lastName: "RenéeO'Brien-Smith" });
    const before = await rowOf(a.id);
    const empty = await put(a.accessToken, { firstName: "123 !!!" });
    expect(empty.status).toBe(422);
    expect(empty.body.error.issues[0].path).toBe("firstName");
    expect(await rowOf(a.id)).toEqual(before);
  });

  it("keeps HTML- and SQL-looking text as plain text", async () => {
    const a = await signedInAccount();
    const about = `<script>alert("x")</script><img src=x onerror=alert(1)>'; DROP TABLE accounts; --`;
    const city = `Robert'); DELETE FROM accounts WHERE ('1'='1`;
    const res = await put(a.accessToken, { about, city, country: "<b>Narnia</b>" });
    expect(res.status).toBe(200);
    expect(res.body.about).toBe(about);
    expect(res.body.city).toBe(city);
    const row = await rowOf(a.id);
    expect(row.about).toBe(about);
    expect(row.country).toBe("<b>Narnia</b>");
    expect(Number((await getSql()`select count(*)::int as n from accounts`)[0].n)).toBeGreaterThan(1);
  });

  it("clears optional fields with null or an empty string and leaves absent ones alone", async () => {
    const a = await signedInAccount();
    await put(a.accessToken, { phone: "+79991234567", city: "Тверь", about: "x", emojiStatus: "cool", birthDate: "1990-05-01" });
    const res = await put(a.accessToken, { phone: null, city: "", emojiStatus: null, birthDate: "" });
    expect(res.body).toMatchObject({ phone: null, city: null, emojiStatus: null, birthDate: null, age: null, about: "x" });
  });

  it("accepts an ISO date-time as birth date and refuses future, impossible and ancient dates", async () => {
    const a = await signedInAccount();
    expect((await put(a.accessToken, { birthDate: "1995-07-14T00:00:00.000Z" })).body.birthDate).toBe("1995-07-14");
    const before = await rowOf(a.id);
    const nextYear = `${new Date().getUTCFullYear() + 1}-01-01`;
    for (const birthDate of [nextYear, "2001-02-29", "1899-12-31", "yesterday", "1990-13-01", 19900101, true]) {
      const res = await put(a.accessToken, { birthDate });
      expect(res.status, String(birthDate)).toBe(422);
      expect(res.body.error.issues[0].path).toBe("birthDate");
    }
    expect(await rowOf(a.id)).toEqual(before);
  });

  it("takes photo and cover only as paths this server stored", async () => {
    const a = await signedInAccount();
    const stored = await upload(storageRoute, { token: a.accessToken, bytes: await png(40, 40) });
    expect(stored.status).toBe(200);
    const ok = await put(a.accessToken, { photo: stored.body.data, profileCover: stored.body.data });
    expect(ok.status).toBe(200);
    expect(ok.body.photo).toBe(stored.body.data);
    const before = await rowOf(a.id);
    for (const photo of [
      "https://evil.example/x.png",
      "javascript:alert(1)",
      "/api/v1/storage/files/../../auth-secret",
      "/api/v1/storage/files/00000000000000000000000000000000.webp", // well-formed, never stored
      42,
    ]) {
      const res = await put(a.accessToken, { photo });
      expect(res.status, String(photo)).toBe(422);
      expect(res.body.error.issues[0].path).toBe("photo");
    }
    expect(await rowOf(a.id)).toEqual(before);
    expect((await put(a.accessToken, { photo: null })).body.photo).toBeNull();
  });

  it("refuses wrong types, unknown presets, bad phones and oversized text with 422; bad bodies with 400/413/415", async () => {
    const a = await signedInAccount();
    const before = await rowOf(a.id);
    const cases: [unknown, string][] = [
      [{ firstName: 5 }, "firstName"],
      [{ lastName: ["a"] }, "lastName"],
      [{ emojiStatus: "🔥" }, "emojiStatus"],
      [{ emojiStatus: "unknown" }, "emojiStatus"],
      [{ phone: "call me maybe" }, "phone"],
      [{ phone: "+7".padEnd(40, "1") }, "phone"],
      [{ about: "x".repeat(1001) }, "about"],
      [{ about: "bell\u0007" }, "about"],
      [{ city: "line\nbreak" }, "city"],
      [{ country: "c".repeat(101) }, "country"],
      [{ isDeleted: true }, "isDeleted"],
      [{ isDeleted: "false" }, "isDeleted"],
    ];
    for (const [body, field] of cases) {
      const res = await put(a.accessToken, body);
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(res.body.error.code).toBe("validation_failed");
      expect(res.body.error.issues[0].path).toBe(field);
    }
    expect((await call(putMe, { method: "PUT", token: a.accessToken, rawBody: "{oops", headers: { "content-type": "application/json" } })).status).toBe(400);
    expect((await call(putMe, { method: "PUT", token: a.accessToken, rawBody: "firstName=x", headers: { "content-type": "text/plain" } })).status).toBe(415);
    expect((await put(a.accessToken, { about: "x".repeat(100_000) })).status).toBe(413);
    expect((await put(a.accessToken, [1, 2])).status).toBe(422);
    expect(await rowOf(a.id)).toEqual(before);
  });

  it("ignores fields that are not editable here (e-mail, id, role)", async () => {
    const a = await signedInAccount();
    const res = await put(a.accessToken, { email: "hijack@example.com", id: 1, role: "ADMIN", isBlocked: true, city: "Омск" });
    expect(res.status).toBe(200);
    expect(res.body.email).toBe(a.email);
    expect(res.body.id).toBe(a.id);
    const row = await rowOf(a.id);
    expect(res.body.city).toBe("Омск");
    // A city named alone resolves when its title names one city in the world (Omsk's GeoNames id).
    expect([row.email, row.role, row.is_blocked, row.city_id, row.city]).toEqual([a.email, "USER", false, 1496153, null]);
  });

  it("changes only the viewer's own account", async () => {
    const a = await signedInAccount();
    const b = await createTestAccount({ firstName: "Bob" });
    await put(a.accessToken, { firstName: "Alice", id: b.id });
    expect((await rowOf(b.id)).first_name).toBe("Bob");
    expect((await call(putMe, { method: "PUT", body: { firstName: "X" } })).status).toBe(401);
  });
});
