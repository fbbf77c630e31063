import type { Browser, Page } from "@playwright/test";
import { createUser, letters, expect as baseExpect, signedInContext, test, type TestUser } from "./fixtures";
import { apiAs, befriend } from "./profile-support";

// Issue 42, communities, in both languages, with people in separate browsers (desktop and a 390 px phone,
// light and dark swapped between the languages):
// 1. Anna creates an open community from «Создать сообщество» (an empty name first: the API's text by the
//    field); Boris finds it by a search on his phone and joins; Anna makes him an admin (he reads it on
//    his page), bans Gleb (Gleb reads that he is banned, and finds himself in the banned list), and Boris
//    leaves.
// 2. Anna creates a closed community; Boris sees its card, that it is closed, and asks to join (his request
//    on /communities); Anna accepts it from the requests tab and Boris is a member; Anna invites Vera, who
//    accepts the invitation on /communities.

const expect = baseExpect.configure({ timeout: 20_000 });

const TEXT = {
  ru: {
    names: { anna: "Анна", boris: "Борис", vera: "Вера", gleb: "Глеб" },
    create: "Создать сообщество",
    submit: "Создать",
    nameLabel: "Название",
    descriptionLabel: "Описание",
    nameEmpty: "Введите название сообщества",
    open: "Открытая группа",
    closedKind: "Закрытая группа",
    members: (n: number) => `${n} ${n % 10 === 1 && n % 100 !== 11 ? "участник" : [2, 3, 4].includes(n % 10) && ![12, 13, 14].includes(n % 100) ? "участника" : "участников"}`,
    search: "Поиск сообществ",
    join: "Вступить",
    requestJoin: "Подать заявку",
    requestSent: "Заявка отправлена",
    member: "Вы участник",
    admin: "Вы администратор",
    banned: "Вы заблокированы в этом сообществе",
    closedTitle: "Это закрытое сообщество",
    leave: "Выйти из сообщества",
    leaveConfirm: "Выйти",
    banTitle: "Заблокировать участника?",
    cancel: "Отмена",
    banConfirm: "Заблокировать",
    invite: "Пригласить друзей",
    inviteOne: "Пригласить",
    invited: "Приглашение отправлено",
    accept: "Принять",
    alreadyMember: "Уже в сообществе",
    notFound: "Страница не найдена",
  },
  en: {
    names: { anna: "Anna", boris: "Boris", vera: "Vera", gleb: "Gleb" },
    create: "Create community",
    submit: "Create",
    nameLabel: "Name",
    descriptionLabel: "Description",
    nameEmpty: "Enter the community's name",
    open: "Open group",
    closedKind: "Closed group",
    members: (n: number) => `${n} ${n === 1 ? "member" : "members"}`,
    search: "Search communities",
    join: "Join",
    requestJoin: "Request to join",
    requestSent: "Request sent",
    member: "You are a member",
    admin: "You are an admin",
    banned: "You are banned from this community",
    closedTitle: "This is a closed community",
    leave: "Leave community",
    leaveConfirm: "Leave",
    banTitle: "Ban this member?",
    cancel: "Cancel",
    banConfirm: "Ban",
    invite: "Invite friends",
    inviteOne: "Invite",
    invited: "Invitation sent",
    accept: "Accept",
    alreadyMember: "Already a member",
    notFound: "Page not found",
  },
} as const;
type Lang = keyof typeof TEXT;

const open = (browser: Browser, user: TestUser, lang: Lang, theme: "light" | "dark", phone = false) => signedInContext(browser, user, { lang, theme, phone });
const memberRow = (page: Page, user: TestUser) => page.getByTestId("member-row").filter({ hasText: user.lastName });
const count = (page: Page) => page.getByTestId("community-members-count");

/** Anna and the others, each a friend of Anna's (invitations go to friends). */
async function people(lang: Lang, who: ("boris" | "vera" | "gleb")[]) {
  const T = TEXT[lang];
  const family = `Общин${letters()}`;
  const anna = await createUser({ firstName: T.names.anna, lastName: family, language: lang });
  const others = await Promise.all(who.map((k) => createUser({ firstName: T.names[k], lastName: `${family}${letters(3)}`, language: lang })));
  const apiA = await apiAs(anna);
  for (const other of others) {
    const api = await apiAs(other);
    await befriend(apiA, anna.id, api, other.id);
    await api.dispose();
  }
  return { anna, others, apiA };
}

/** Anna's «Создать сообщество» on /communities: the form, then the new community's page. */
async function createCommunity(page: Page, T: (typeof TEXT)[Lang], name: string, type: "OPEN" | "CLOSED", emptyFirst = false): Promise<number> {
  await page.goto("/communities");
  await page.getByRole("button", { name: T.create }).click();
  const dialog = page.getByTestId("create-community-dialog");
  await expect(dialog).toBeVisible();
  if (emptyFirst) {
    // The API refuses an empty name; its text stands by the field.
    await dialog.getByRole("button", { name: T.submit, exact: true }).click();
    await expect(dialog.getByTestId("field-error")).toHaveText(T.nameEmpty);
    await expect(dialog.getByLabel(T.nameLabel, { exact: true })).toHaveAttribute("aria-invalid", "true");
  }
  await dialog.getByLabel(T.nameLabel, { exact: true }).fill(name);
  await dialog.getByLabel(T.descriptionLabel, { exact: true }).fill(`${name}: ${type.toLowerCase()}`);
  await dialog.getByTestId(`community-type-${type}`).check();
  await dialog.getByRole("button", { name: T.submit, exact: true }).click();
  await expect(page).toHaveURL(/\/community\/\d+$/);
  await expect(page.getByRole("heading", { level: 1, name })).toBeVisible();
  return Number(new URL(page.url()).pathname.split("/").pop());
}

test.describe.configure({ timeout: 120_000 });

for (const lang of ["ru", "en"] as const) {
  test(`an open community: create, find and join, an admin, a ban, leave (${lang})`, async ({ browser }, testInfo) => {
    const T = TEXT[lang];
    const { anna, others, apiA } = await people(lang, ["boris", "gleb"]);
    const [boris, gleb] = others;
    const light = lang === "ru" ? "light" : "dark";
    const dark = lang === "ru" ? "dark" : "light";
    const name = `${lang === "ru" ? "Клуб" : "Club"} ${letters(6)}`;
    const a = await open(browser, anna, lang, light);
    const b = await open(browser, boris, lang, dark, true);

    const id = await createCommunity(a.page, T, name, "OPEN", true);
    await expect(a.page.getByTestId("community-kind")).toHaveText(T.open);
    await expect(count(a.page)).toHaveText(T.members(1));

    // Boris finds it by three letters of its name, on his phone, and joins.
    await b.page.goto("/communities");
    await b.page.getByLabel(T.search).fill(name.split(" ")[1].slice(1, 5));
    const found = b.page.getByTestId("community-search-results").getByTestId("community-row").filter({ hasText: name });
    await expect(found).toBeVisible();
    await found.getByRole("link", { name }).click();
    await expect(b.page).toHaveURL(new RegExp(`/community/${id}$`));
    await b.page.getByRole("button", { name: T.join, exact: true }).click();
    await expect(b.page.getByTestId("community-state")).toHaveText(T.member);
    await expect(count(b.page)).toHaveText(T.members(2));
    await expect(b.page.getByTestId("member-face").filter({ hasText: anna.firstName })).toBeVisible();
    await b.page.screenshot({ path: testInfo.outputPath(`community-${lang}-${dark}-390.png`), fullPage: true });
    const overflow = await b.page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow).toBeLessThanOrEqual(0);

    // Gleb joins too (through the API); Anna makes Boris an admin and bans Gleb from the members tab.
    const apiG = await apiAs(gleb);
    expect((await apiG.post(`/api/v1/communities/${id}/members`)).status()).toBe(200);
    await a.page.reload();
    await a.page.getByTestId("manage-tab-member").click();
    await memberRow(a.page, boris).getByTestId("member-role").selectOption("ADMIN");
    await expect(memberRow(a.page, boris).getByTestId("member-role")).toHaveValue("ADMIN");
    // A ban asks first: cancelled, Gleb stays; confirmed, he leaves the list.
    await memberRow(a.page, gleb).getByTestId("member-ban").click();
    const confirmBan = a.page.getByRole("alertdialog");
    await expect(confirmBan).toContainText(T.banTitle);
    await expect(confirmBan).toContainText(gleb.firstName);
    await confirmBan.getByRole("button", { name: T.cancel, exact: true }).click();
    await expect(confirmBan).toHaveCount(0);
    await expect(memberRow(a.page, gleb)).toBeVisible();
    await memberRow(a.page, gleb).getByTestId("member-ban").click();
    await a.page.getByRole("alertdialog").getByRole("button", { name: T.banConfirm, exact: true }).click();
    await expect(memberRow(a.page, gleb)).toHaveCount(0);
    await a.page.getByTestId("manage-tab-banned").click();
    await expect(memberRow(a.page, gleb)).toBeVisible();
    await a.page.screenshot({ path: testInfo.outputPath(`manage-${lang}-${light}-desktop.png`), fullPage: true });

    await b.page.reload();
    await expect(b.page.getByTestId("community-role")).toHaveText(T.admin);
    await expect(count(b.page)).toHaveText(T.members(2));

    // Gleb reads that he is banned, and has no button to join.
    const g = await open(browser, gleb, lang, light);
    await g.page.goto(`/community/${id}`);
    await expect(g.page.getByTestId("community-state")).toHaveText(T.banned);
    await expect(g.page.getByRole("button", { name: T.join, exact: true })).toHaveCount(0);

    // Boris leaves from his «member» menu (confirmed): the join button is back.
    await b.page.getByTestId("community-state").click();
    await b.page.getByRole("menuitem", { name: T.leave }).click();
    await b.page.getByRole("alertdialog").getByRole("button", { name: T.leaveConfirm, exact: true }).click();
    await expect(b.page.getByRole("button", { name: T.join, exact: true })).toBeVisible();
    await expect(count(b.page)).toHaveText(T.members(1));

    for (const c of [a, b, g]) expect(c.failures).toEqual([]);
    await Promise.all([a.context.close(), b.context.close(), g.context.close(), apiA.dispose(), apiG.dispose()]);
  });

  test(`a closed community: a request accepted, an invitation accepted (${lang})`, async ({ browser }, testInfo) => {
    const T = TEXT[lang];
    const { anna, others, apiA } = await people(lang, ["boris", "vera"]);
    const [boris, vera] = others;
    const light = lang === "en" ? "light" : "dark";
    const dark = lang === "en" ? "dark" : "light";
    const name = `${lang === "ru" ? "Кружок" : "Circle"} ${letters(6)}`;
    const a = await open(browser, anna, lang, light);
    const b = await open(browser, boris, lang, dark, true);
    const v = await open(browser, vera, lang, dark);

    const id = await createCommunity(a.page, T, name, "CLOSED");
    await expect(a.page.getByTestId("community-kind")).toHaveText(T.closedKind);

    // Boris sees its card and that it is closed, and asks to join; his request is on /communities.
    await b.page.goto(`/community/${id}`);
    await expect(b.page.getByTestId("community-closed")).toContainText(T.closedTitle);
    await expect(b.page.getByTestId("community-members")).toHaveCount(0);
    await b.page.screenshot({ path: testInfo.outputPath(`closed-${lang}-${dark}-390.png`), fullPage: true });
    await b.page.getByRole("button", { name: T.requestJoin }).click();
    await expect(b.page.getByTestId("community-state")).toHaveText(T.requestSent);
    await b.page.goto("/communities");
    await expect(b.page.getByTestId("community-requests").getByTestId("community-row").filter({ hasText: name })).toBeVisible();

    // Anna accepts it from the requests tab (its badge counts one); Boris is a member and sees the members.
    await a.page.reload();
    await expect(a.page.getByTestId("requests-badge")).toHaveText("1");
    await a.page.getByTestId("manage-tab-requested").click();
    await memberRow(a.page, boris).getByTestId("request-accept").click();
    await expect(memberRow(a.page, boris)).toHaveCount(0);
    await expect(count(a.page)).toHaveText(T.members(2));
    await b.page.goto(`/community/${id}`);
    await expect(b.page.getByTestId("community-state")).toHaveText(T.member);
    await expect(b.page.getByTestId("community-members").getByTestId("member-face")).toHaveCount(2);

    // Anna invites Vera, her friend; Vera accepts on /communities and finds it among hers.
    await a.page.getByRole("button", { name: T.invite }).click();
    const picker = a.page.getByTestId("invite-dialog");
    const veraRow = picker.getByTestId("invite-friend").filter({ hasText: vera.lastName });
    await veraRow.getByRole("button", { name: T.inviteOne, exact: false }).click();
    await expect(veraRow).toContainText(T.invited);
    await expect(picker.getByTestId("invite-friend").filter({ hasText: boris.lastName })).toContainText(T.alreadyMember);
    await a.page.keyboard.press("Escape");
    await v.page.goto("/communities");
    const invitation = v.page.getByTestId("community-invitations").getByTestId("community-row").filter({ hasText: name });
    await invitation.getByRole("button", { name: T.accept, exact: true }).click();
    await expect(v.page.getByTestId("community-invitations")).toHaveCount(0);
    await expect(v.page.getByTestId("my-communities").getByTestId("community-row").filter({ hasText: name })).toBeVisible();
    await v.page.screenshot({ path: testInfo.outputPath(`communities-${lang}-${dark}-desktop.png`), fullPage: true });

    // A private community is not there for someone outside it.
    const secret = await apiA.post("/api/v1/communities", { data: { name: `${name} 2`, type: "PRIVATE" } });
    expect(secret.status(), await secret.text()).toBe(201);
    await b.page.goto(`/community/${(await secret.json()).id}`);
    await expect(b.page.getByRole("heading", { level: 1, name: T.notFound })).toBeVisible();

    for (const c of [a, b, v]) expect(c.failures).toEqual([]);
    await Promise.all([a.context.close(), b.context.close(), v.context.close(), apiA.dispose()]);
  });
}
