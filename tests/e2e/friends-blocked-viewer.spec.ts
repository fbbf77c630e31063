import { createUser, expect, signIn, test } from "./fixtures";
import { apiAs } from "./profile-support";

// Issue 24 item 20, ADR 114: a person blocked by someone sees neither an "add friend" action nor that
// person's presence, on the profile page and on the card that lists them in a search.

const TEXTS = {
  ru: { add: "Добавить в друзья", online: "в сети", onlineMark: "В сети" },
  en: { add: "Add friend", online: "online", onlineMark: "Online" },
} as const;

for (const lang of ["ru", "en"] as const) {
  test(`a blocked viewer sees no add-friend action and no presence of the blocker (${lang})`, async ({ page, context, baseURL }) => {
    if (lang === "en") await context.addCookies([{ name: "NEXT_LOCALE", value: "en", url: baseURL! }]);
    const x = TEXTS[lang];
    const surname = `Блок${Array.from({ length: 6 }, () => "абвгдежзиклмнопрстуфхцчшэюя"[Math.floor(Math.random() * 27)]).join("")}`;
    const blocker = await createUser({ firstName: "Алла", lastName: surname, language: lang });
    const viewer = await createUser({ firstName: "Борис", lastName: "Смирнов", language: lang });
    // Signing in marks the blocker as seen now: online.
    const blockerApi = await apiAs(blocker);
    await signIn(page, viewer);

    // Before the block the viewer sees both, so their absence below is the block's doing.
    await page.goto(`/profile/${blocker.id}`);
    await expect(page.getByRole("heading", { level: 1, name: `Алла ${surname}` })).toBeVisible();
    await expect(page.getByTestId("presence")).toHaveText(x.online);
    await expect(page.getByRole("button", { name: x.add, exact: true })).toBeVisible();

    expect((await blockerApi.put(`/api/v1/friends/block/${viewer.id}`)).status()).toBe(200);

    await page.reload();
    await expect(page.getByRole("heading", { level: 1, name: `Алла ${surname}` })).toBeVisible();
    await expect(page.locator('[data-status="REJECTING"]')).toBeVisible();
    await expect(page.getByTestId("presence")).toHaveCount(0);
    await expect(page.getByRole("button", { name: x.add, exact: true })).toHaveCount(0);

    // The API answers the same: no presence across the block.
    const dto = await (await page.request.get(`/api/v1/account/${blocker.id}`)).json();
    expect(dto).toMatchObject({ statusCode: "REJECTING", isOnline: false, lastOnlineTime: null });

    // A search card listing the blocker: no add action, no online mark.
    await page.goto(`/friends/find?${new URLSearchParams({ lastName: surname })}`);
    const card = page.getByTestId("person-row").filter({ hasText: `Алла ${surname}` });
    await expect(card.locator('[data-status="REJECTING"]')).toBeVisible();
    await expect(card.getByRole("button", { name: x.add, exact: true })).toHaveCount(0);
    await expect(card.getByRole("img", { name: x.onlineMark, exact: true })).toHaveCount(0);
    await blockerApi.dispose();
  });
}
