import { createUser, expect, signIn, test } from "./fixtures";

// Spec section 2: profile deletion with a confirmation, the deleted-account screen (reasons,
// "restore until", no search, no bell) on every page, and the restore button back to /profile.

test("delete the profile with confirmation, see the deleted-account screen everywhere, restore it (English)", async ({ page, context, baseURL }) => {
  await context.addCookies([{ name: "NEXT_LOCALE", value: "en", url: baseURL! }]);
  await context.addInitScript(() => localStorage.setItem("selectedLanguage", "en"));
  await signIn(page, await createUser({ language: "en" }));
  await page.goto("/settings");
  await expect(page.getByRole("heading", { level: 1, name: "Settings" })).toBeVisible();
  await expect(page.getByRole("search")).toBeVisible();
  await expect(page.getByTestId("bell")).toBeVisible();

  // Cancelling the confirmation keeps the profile.
  await page.getByRole("button", { name: "Delete profile" }).click();
  const dialog = page.getByRole("alertdialog", { name: "Delete your profile?" });
  await expect(dialog).toContainText("within 10 days");
  await expect(dialog.getByRole("button", { name: "Cancel" })).toBeFocused();
  await dialog.getByRole("button", { name: "Cancel" }).click();
  await expect(dialog).toBeHidden();
  expect((await (await page.request.get("/api/v1/account/me")).json()).isDeleted).toBe(false);

  await page.getByRole("button", { name: "Delete profile" }).click();
  await page.getByRole("alertdialog").getByRole("button", { name: "Yes, delete" }).click();

  const screen = page.getByTestId("deleted-account");
  await expect(screen.getByRole("heading", { level: 1, name: "Your page has been deleted" })).toBeVisible();
  await expect(screen).toContainText("You deleted the page yourself");
  await expect(screen).toContainText("Someone who got into your account");
  await expect(screen).toContainText("broke the community rules");
  await expect(screen).toContainText("within 10 days of its deletion");
  // No search box and no bell for a deleted account.
  await expect(page.getByRole("search")).toHaveCount(0);
  await expect(page.getByTestId("bell")).toHaveCount(0);

  // "Restore until" is the API's own window (deletion time + DELETION_RESTORE_DAYS), in the reader's zone.
  const me = await (await page.request.get("/api/v1/account/me")).json();
  expect(me.isDeleted).toBe(true);
  expect(Date.parse(me.restoreUntil) - Date.parse(me.deletionTimestamp)).toBe(10 * 24 * 3600_000);
  const expected = await page.evaluate(
    (iso) => new Intl.DateTimeFormat("en", { dateStyle: "long", timeStyle: "short" }).format(new Date(iso)),
    me.restoreUntil as string,
  );
  await expect(screen.locator("time")).toHaveText(expected);
  await expect(screen).toContainText(`You can restore the page until ${expected}.`);

  // The whole app shows the notice, whatever page is opened.
  for (const path of ["/", "/profile", "/friends"]) {
    await page.goto(path);
    await expect(page.getByRole("heading", { level: 1, name: "Your page has been deleted" })).toBeVisible();
    await expect(page.getByRole("search")).toHaveCount(0);
    await expect(page.getByTestId("bell")).toHaveCount(0);
  }

  await page.getByRole("button", { name: "Restore page" }).click();
  await expect(page).toHaveURL(/\/profile$/);
  await expect(page.getByTestId("deleted-account")).toHaveCount(0);
  await expect(page.getByRole("search")).toBeVisible();
  await expect(page.getByTestId("bell")).toBeVisible();
  expect((await (await page.request.get("/api/v1/account/me")).json()).isDeleted).toBe(false);
});

test("удалённый профиль: экран с причинами и сроком, восстановление ведёт на /profile", async ({ page }) => {
  await signIn(page, await createUser());
  await page.goto("/settings");
  await page.getByRole("button", { name: "Удалить профиль" }).click();
  await page.getByRole("alertdialog", { name: "Удалить профиль?" }).getByRole("button", { name: "Да, удалить" }).click();
  const screen = page.getByTestId("deleted-account");
  await expect(screen.getByRole("heading", { level: 1, name: "Ваша страница удалена" })).toBeVisible();
  await expect(screen).toContainText("Вы сами удалили страницу");
  await expect(screen).toContainText("злоумышленник");
  await expect(screen).toContainText("нарушала правила");
  await expect(screen).toContainText("Вы можете восстановить страницу до");
  await expect(screen).toContainText("в течение 10 дней");
  await expect(page.getByRole("search")).toHaveCount(0);
  await expect(page.getByTestId("bell")).toHaveCount(0);

  await page.reload();
  await screen.getByRole("button", { name: "Восстановить страницу" }).click();
  await expect(page).toHaveURL(/\/profile$/);
  await expect(page.getByRole("search")).toBeVisible();
  await expect(page.getByTestId("bell")).toBeVisible();
});
