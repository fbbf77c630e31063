import type { Browser, Page } from "@playwright/test";
import sharp from "sharp";
import { createUser, letters, expect as baseExpect, signedInContext, test, type TestUser } from "./fixtures";
import { apiAs, befriend } from "./profile-support";

// Issue 41, group conversations («беседы»), in both languages, three and four people in separate
// browsers: desktop and a 390 px phone, light and dark (swapped in the other language).
// 1. Anna creates a conversation with Boris and Vera from «Новая беседа» (the friends picker, filtered);
//    they find it in their lists; she writes — Boris sees «Анна печатает…», then her message under her
//    name; the tick turns read and «Кто прочитал» names them; Boris answers with a reply, Vera sends a
//    photo, Boris mentions Anna with "@" (she sees the mention highlighted).
// 2. Anna renames the conversation and gives it a photo (live in the others' headers, as event lines);
//    Boris mutes it (the bell in his header and list) and unmutes it; Anna adds Gleb (the conversation
//    appears in his list), makes Boris an admin, removes Vera («Вас исключили из беседы» in Vera's window)
//    and Gleb leaves («Вы вышли из беседы»; «Глеб покинул беседу» for the rest).

const expect = baseExpect.configure({ timeout: 30_000 });

const TEXT = {
  ru: {
    names: { anna: "Анна", boris: "Борис", vera: "Вера", gleb: "Глеб" },
    newGroup: "Новая беседа",
    titleLabel: "Название беседы",
    filter: "Найти среди друзей",
    create: "Создать беседу",
    members: (n: number) => `${n} ${n === 1 ? "участник" : n < 5 ? "участника" : "участников"}`,
    created: (title: string) => `Анна создала беседу «${title}»`,
    createdYou: (title: string) => `Вы создали беседу «${title}»`,
    typing: "Анна печатает",
    hello: "Всем привет!",
    reply: "Ответить",
    answer: "Привет, Анна!",
    readers: "Кто прочитал",
    readersTitle: "Прочитали",
    attach: "Прикрепить фотографии",
    send: "Отправить",
    mentionText: "посмотри фото",
    actions: "Действия с сообщением",
    renamed: (title: string) => `Анна переименовала беседу в «${title}»`,
    photoEvent: "Анна обновила фотографию беседы",
    save: "Сохранить",
    changePhoto: "Изменить фотографию",
    muteHour: "Отключить на час",
    unmute: "Включить уведомления",
    muted: "Уведомления отключены",
    notMuted: "Включены",
    add: "Добавить участников",
    addOne: "Добавить 1 человека",
    added: "Анна добавила Глеба",
    addedYou: "Анна добавила вас",
    memberActions: (name: string) => `Действия: ${name}`,
    makeAdmin: "Назначить администратором",
    admin: "Администратор",
    adminEvent: "Анна назначила Бориса администратором",
    remove: "Исключить из беседы",
    removedEvent: "Анна исключила Веру",
    makeOwner: "Передать права владельца",
    handOver: "Передать",
    owner: "Владелец",
    ownerEvent: "Анна передала права владельца вам",
    removedLine: "Вас исключили из беседы",
    leave: "Выйти из беседы",
    leaveConfirm: "Выйти",
    leftLine: "Вы вышли из беседы",
    leftEvent: "Глеб покинул беседу",
    close: "Закрыть",
  },
  en: {
    names: { anna: "Anna", boris: "Boris", vera: "Vera", gleb: "Gleb" },
    newGroup: "New conversation",
    titleLabel: "Conversation title",
    filter: "Find among friends",
    create: "Create conversation",
    members: (n: number) => `${n} ${n === 1 ? "member" : "members"}`,
    created: (title: string) => `Anna created the conversation “${title}”`,
    createdYou: (title: string) => `You created the conversation “${title}”`,
    typing: "Anna is typing",
    hello: "Hello, everyone!",
    reply: "Reply",
    answer: "Hi, Anna!",
    readers: "Who read it",
    readersTitle: "Read by",
    attach: "Attach photos",
    send: "Send",
    mentionText: "look at the photo",
    actions: "Message actions",
    renamed: (title: string) => `Anna renamed the conversation to “${title}”`,
    photoEvent: "Anna updated the conversation photo",
    save: "Save",
    changePhoto: "Change photo",
    muteHour: "Mute for an hour",
    unmute: "Unmute",
    muted: "Notifications off",
    notMuted: "On",
    add: "Add members",
    addOne: "Add 1 person",
    added: "Anna added Gleb",
    addedYou: "Anna added you",
    memberActions: (name: string) => `Actions: ${name}`,
    makeAdmin: "Make admin",
    admin: "Admin",
    adminEvent: "Anna made Boris an admin",
    remove: "Remove from the conversation",
    removedEvent: "Anna removed Vera",
    makeOwner: "Hand ownership on",
    handOver: "Hand on",
    owner: "Owner",
    ownerEvent: "Anna handed ownership to you",
    removedLine: "You were removed from the conversation",
    leave: "Leave the conversation",
    leaveConfirm: "Leave",
    leftLine: "You left the conversation",
    leftEvent: "Gleb left the conversation",
    close: "Close",
  },
} as const;
type Lang = keyof typeof TEXT;

const composer = (page: Page) => page.locator("#chat-composer");
const history = (page: Page) => page.getByTestId("chat-history");
const bubble = (page: Page, text: string) => history(page).getByTestId("message").filter({ hasText: text });
const eventLine = (page: Page, text: string) => history(page).getByTestId("event-line").filter({ hasText: text });
const row = (page: Page, title: string) => page.getByTestId("dialog-row").filter({ hasText: title });
const panel = (page: Page) => page.getByTestId("members-panel");

async function openPanel(page: Page) {
  await page.getByTestId("group-header").click();
  await expect(panel(page)).toBeVisible();
}

async function closePanel(page: Page, T: (typeof TEXT)[Lang]) {
  await panel(page).getByRole("button", { name: T.close }).click();
  await expect(panel(page)).toHaveCount(0);
}

/** A photo-like PNG (a gradient of two colours). */
async function photo(width: number, height: number, from: [number, number, number], to: [number, number, number]): Promise<Buffer> {
  const raw = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      const t = (x + y) / (width + height);
      for (let c = 0; c < 3; c++) raw[(y * width + x) * 3 + c] = Math.round(from[c] * (1 - t) + to[c] * t);
    }
  return sharp(raw, { raw: { width, height, channels: 3 } }).png().toBuffer();
}

/** Anna and her friends (each befriends Anna only: a conversation joins people who are not friends with each other). */
async function people(lang: Lang, who: ("boris" | "vera" | "gleb")[]) {
  const T = TEXT[lang];
  const anna = await createUser({ firstName: T.names.anna, lastName: `Бесед${letters()}`, language: lang });
  const others = await Promise.all(who.map((k) => createUser({ firstName: T.names[k], lastName: `Бесед${letters()}`, language: lang })));
  const apiA = await apiAs(anna);
  for (const other of others) {
    const api = await apiAs(other);
    await befriend(apiA, anna.id, api, other.id);
    await api.dispose();
  }
  return { anna, others, apiA };
}

const open = (browser: Browser, user: TestUser, lang: Lang, theme: "light" | "dark", phone = false) => signedInContext(browser, user, { lang, theme, phone });

test.describe.configure({ timeout: 360_000 });

for (const lang of ["ru", "en"] as const) {
  test(`three people create a conversation and talk: typing, read, reply, a photo, a mention (${lang})`, async ({ browser }, testInfo) => {
    const T = TEXT[lang];
    const { anna, others, apiA } = await people(lang, ["boris", "vera"]);
    const [boris, vera] = others;
    const title = `${lang === "ru" ? "Класс" : "Class"} ${letters(4)}`;
    const dark = lang === "ru" ? "dark" : "light";
    const light = lang === "ru" ? "light" : "dark";
    const a = await open(browser, anna, lang, light);
    const b = await open(browser, boris, lang, dark, true);
    const v = await open(browser, vera, lang, dark);

    // Anna: «Новая беседа» — a title, Boris and Vera found with the filter.
    await a.page.goto("/im");
    await a.page.getByRole("button", { name: T.newGroup }).click();
    const dialog = a.page.getByTestId("new-group-dialog");
    await expect(dialog).toBeVisible();
    await dialog.getByLabel(T.titleLabel).fill(title);
    const filter = dialog.getByLabel(T.filter);
    await filter.fill(boris.lastName);
    await expect(dialog.getByTestId("pick-friend")).toHaveCount(1);
    await dialog.getByTestId("pick-friend").filter({ hasText: boris.firstName }).click();
    await filter.fill(vera.firstName);
    await dialog.getByTestId("pick-friend").filter({ hasText: vera.lastName }).click();
    await filter.fill("");
    await expect(dialog.getByTestId("pick-friend").locator("input:checked")).toHaveCount(2);
    await a.page.screenshot({ path: testInfo.outputPath(`new-group-${lang}-${light}-desktop.png`) });
    await dialog.getByRole("button", { name: T.create }).click();
    await expect(a.page).toHaveURL(/\/im\/\d+$/);
    const url = new URL(a.page.url()).pathname;
    await expect(a.page.getByTestId("group-title")).toHaveText(title);
    await expect(a.page.getByTestId("group-members-count")).toHaveText(T.members(3));
    await expect(eventLine(a.page, T.createdYou(title))).toBeVisible();

    // Boris and Vera find it in their lists and open it.
    await Promise.all([b.page.goto("/im"), v.page.goto("/im")]);
    await expect(row(b.page, title)).toBeVisible();
    await expect(row(b.page, title).getByTestId("dialog-preview")).toContainText(T.created(title));
    await b.page.screenshot({ path: testInfo.outputPath(`list-${lang}-${dark}-390.png`) });
    await row(b.page, title).click();
    await row(v.page, title).click();
    await expect(b.page).toHaveURL(new RegExp(`${url}$`));
    await expect(v.page).toHaveURL(new RegExp(`${url}$`));
    await expect(b.page.getByTestId("group-title")).toHaveText(title);

    // Anna types: Boris sees who; she sends: the message stands under her name in both windows.
    await composer(a.page).pressSequentially(T.hello.slice(0, 4), { delay: 40 });
    await expect(b.page.getByTestId("typing-line")).toContainText(T.typing);
    await composer(a.page).pressSequentially(T.hello.slice(4));
    await composer(a.page).press("Enter");
    for (const p of [b.page, v.page]) {
      await expect(bubble(p, T.hello)).toBeVisible();
      await expect(bubble(p, T.hello).getByTestId("message-author")).toContainText(`${anna.firstName} ${anna.lastName}`);
    }
    await expect(bubble(a.page, T.hello).getByTestId("message-author")).toHaveCount(0);
    await expect(b.page.getByTestId("typing-line")).not.toContainText(T.typing);
    // Read by the others (both have it open): two ticks, and «Кто прочитал» names them.
    await expect(bubble(a.page, T.hello)).toHaveAttribute("data-read-status", "READ");
    // Two ticks come with the first reader; «Кто прочитал» is read when it opens: wait for the second reader's read to land.
    const messageId = await bubble(a.page, T.hello).getAttribute("data-message-id");
    const dialogId = a.page.url().split("/").pop();
    await expect
      .poll(async () => ((await (await apiA.get(`/api/v1/dialogs/${dialogId}/messages/${messageId}/readers`)).json()) as { content?: unknown[] }).content?.length ?? 0, {
        timeout: 20_000,
      })
      .toBe(2);
    const mine = bubble(a.page, T.hello);
    await mine.hover();
    await mine.getByRole("button", { name: T.actions }).click();
    await a.page.getByRole("menuitem", { name: T.readers }).click();
    const readers = a.page.getByTestId("readers-dialog");
    await expect(readers.getByRole("heading", { name: new RegExp(T.readersTitle) })).toBeVisible();
    await expect(readers.getByTestId("reader").filter({ hasText: boris.lastName })).toBeVisible();
    await expect(readers.getByTestId("reader").filter({ hasText: vera.lastName })).toBeVisible();
    await a.page.keyboard.press("Escape");
    await expect(readers).toHaveCount(0);

    // Boris answers Anna's message on his phone: the quote travels with it.
    const hers = bubble(b.page, T.hello);
    await hers.getByRole("button", { name: T.actions }).click();
    await b.page.getByRole("menuitem", { name: T.reply }).click();
    await composer(b.page).fill(T.answer);
    await composer(b.page).press("Enter");
    const answerOnA = bubble(a.page, T.answer);
    await expect(answerOnA.getByTestId("reply-quote")).toContainText(T.hello);
    await expect(answerOnA.getByTestId("message-author")).toContainText(`${boris.firstName} ${boris.lastName}`);

    // Vera sends a photo: it arrives live in the others' windows, under her name.
    await v.page.getByTestId("composer-file").setInputFiles([{ name: "sea.png", mimeType: "image/png", buffer: await photo(480, 320, [20, 90, 200], [120, 210, 240]) }]);
    await expect(v.page.getByTestId("composer-attachment")).toHaveAttribute("data-state", "done");
    await v.page.getByRole("button", { name: T.send, exact: true }).click();
    for (const p of [a.page, b.page]) {
      const images = history(p).getByTestId("message-images").locator("img");
      await expect(images).toHaveCount(1);
      await expect(images.first()).toHaveJSProperty("complete", true);
    }
    await expect(history(a.page).getByTestId("message").filter({ has: a.page.getByTestId("message-images") }).getByTestId("message-author")).toContainText(`${vera.firstName} ${vera.lastName}`);

    // Boris mentions Anna: "@" and the start of her name suggest her; the chosen name goes in.
    await composer(b.page).fill("");
    await composer(b.page).pressSequentially(`@${anna.firstName.slice(0, 2)}`);
    const suggestions = b.page.getByTestId("mention-suggestions");
    await expect(suggestions.getByRole("option", { name: `${anna.firstName} ${anna.lastName}` })).toBeVisible();
    await b.page.screenshot({ path: testInfo.outputPath(`mention-${lang}-${dark}-390.png`) });
    await suggestions.getByRole("option", { name: `${anna.firstName} ${anna.lastName}` }).click();
    await expect(composer(b.page)).toHaveValue(`@${anna.firstName} `);
    await composer(b.page).pressSequentially(T.mentionText);
    await composer(b.page).press("Enter");
    const mention = bubble(a.page, T.mentionText);
    await expect(mention).toBeVisible();
    await expect(mention.getByTestId("mention-me")).toHaveText(`@${anna.firstName}`);
    await expect(bubble(v.page, T.mentionText).getByTestId("mention-me")).toHaveCount(0);

    await a.page.screenshot({ path: testInfo.outputPath(`chat-${lang}-${light}-desktop.png`) });
    await b.page.screenshot({ path: testInfo.outputPath(`chat-${lang}-${dark}-390.png`) });
    await v.page.screenshot({ path: testInfo.outputPath(`chat-${lang}-${dark}-desktop.png`) });
    const overflow = await b.page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow).toBeLessThanOrEqual(0);

    // Anna's list: the conversation with the last message's sender.
    await a.page.goto("/im");
    await expect(row(a.page, title).getByTestId("dialog-preview")).toContainText(`${boris.firstName}: `);

    for (const c of [a, b, v]) expect(c.failures).toEqual([]);
    await Promise.all([a.context.close(), b.context.close(), v.context.close(), apiA.dispose()]);
  });

  test(`four people: rename, photo, mute, add, an admin, remove and leave (${lang})`, async ({ browser }, testInfo) => {
    const T = TEXT[lang];
    const { anna, others, apiA } = await people(lang, ["boris", "vera", "gleb"]);
    const [boris, vera, gleb] = others;
    const title = `${lang === "ru" ? "Дом" : "House"} ${letters(4)}`;
    const created = await apiA.post("/api/v1/dialogs", { data: { title, memberIds: [boris.id, vera.id] } });
    expect(created.status(), await created.text()).toBe(201);
    const group = (await created.json()) as { id: number; type: string };
    expect(group.type).toBe("GROUP");
    const dark = lang === "en" ? "dark" : "light";
    const light = lang === "en" ? "light" : "dark";
    const a = await open(browser, anna, lang, dark);
    const b = await open(browser, boris, lang, light);
    const v = await open(browser, vera, lang, light, true);
    const g = await open(browser, gleb, lang, dark, true);
    await Promise.all([a.page.goto(`/im/${group.id}`), b.page.goto(`/im/${group.id}`), v.page.goto(`/im/${group.id}`), g.page.goto("/im")]);
    await expect(b.page.getByTestId("group-title")).toHaveText(title);

    // Anna renames it: the new title in Boris's header, and the event line for everyone.
    const renamed = `${title} ${lang === "ru" ? "и двор" : "and yard"}`;
    await openPanel(a.page);
    await expect(panel(a.page).getByTestId("group-member")).toHaveCount(3);
    await a.page.screenshot({ path: testInfo.outputPath(`members-${lang}-${dark}-desktop.png`) });
    await panel(a.page).getByTestId("group-title-input").fill(renamed);
    await panel(a.page).getByRole("button", { name: T.save }).click();
    await expect(b.page.getByTestId("group-title")).toHaveText(renamed);
    await expect(eventLine(b.page, T.renamed(renamed))).toBeVisible();

    // And a photo: the header shows it in every window.
    await panel(a.page).getByTestId("group-photo-file").setInputFiles([{ name: "house.png", mimeType: "image/png", buffer: await photo(300, 300, [200, 80, 40], [250, 200, 90]) }]);
    await expect(eventLine(v.page, T.photoEvent)).toBeVisible();
    await expect(v.page.getByTestId("group-header").locator("img")).toHaveCount(1);
    await expect(a.page.getByTestId("group-header").locator("img")).toHaveCount(1);
    await closePanel(a.page, T);

    // Boris mutes it for an hour: the bell in his header and list; then switches it back on.
    await openPanel(b.page);
    await panel(b.page).getByRole("button", { name: T.muteHour }).click();
    await expect(b.page.getByTestId("group-muted")).toBeVisible();
    await expect(panel(b.page).getByTestId("mute-state")).not.toHaveText(T.notMuted);
    await b.page.screenshot({ path: testInfo.outputPath(`members-${lang}-${light}-desktop-muted.png`) });
    await closePanel(b.page, T);
    await b.page.goto("/im");
    await expect(row(b.page, renamed).getByTestId("dialog-muted")).toBeVisible();
    await b.page.screenshot({ path: testInfo.outputPath(`list-${lang}-${light}-desktop.png`) });
    await row(b.page, renamed).click();
    await openPanel(b.page);
    await panel(b.page).getByRole("button", { name: T.unmute }).click();
    await expect(panel(b.page).getByTestId("mute-state")).toHaveText(T.notMuted);
    await closePanel(b.page, T);
    await expect(b.page.getByTestId("group-muted")).toHaveCount(0);

    // Anna adds Gleb: the conversation appears in his list; four members now.
    await openPanel(a.page);
    await panel(a.page).getByRole("button", { name: T.add }).click();
    await panel(a.page).getByTestId("pick-friend").filter({ hasText: gleb.lastName }).click();
    await panel(a.page).getByRole("button", { name: T.addOne }).click();
    await expect(panel(a.page).getByTestId("group-member")).toHaveCount(4);
    await expect(a.page.getByTestId("group-members-count")).toHaveText(T.members(4));
    await expect(eventLine(b.page, T.added)).toBeVisible();
    await expect(row(g.page, renamed)).toBeVisible();
    await g.page.screenshot({ path: testInfo.outputPath(`list-${lang}-${dark}-390.png`) });

    // Anna makes Boris an admin: his role in the panel, the line in Vera's window.
    const borisRow = panel(a.page).getByTestId("group-member").filter({ hasText: boris.lastName });
    await borisRow.getByRole("button", { name: T.memberActions(`${boris.firstName} ${boris.lastName}`) }).click();
    await borisRow.getByRole("button", { name: T.makeAdmin }).click();
    await expect(borisRow).toContainText(T.admin);
    await expect(eventLine(v.page, T.adminEvent)).toBeVisible();

    // Anna removes Vera (confirmed): Vera's phone says so instead of the composer.
    const veraRow = panel(a.page).getByTestId("group-member").filter({ hasText: vera.lastName });
    await veraRow.getByRole("button", { name: T.memberActions(`${vera.firstName} ${vera.lastName}`) }).click();
    await veraRow.getByRole("button", { name: T.remove }).click();
    await panel(a.page).getByTestId("group-confirm-button").click();
    await expect(panel(a.page).getByTestId("group-member")).toHaveCount(3);
    await expect(v.page.getByTestId("cannot-write")).toHaveText(T.removedLine);
    await expect(composer(v.page)).toHaveCount(0);
    await expect(eventLine(b.page, T.removedEvent)).toBeVisible();
    await v.page.screenshot({ path: testInfo.outputPath(`removed-${lang}-${light}-390.png`) });

    // Anna hands ownership on to Boris (confirmed): he is the owner, she an admin; his window says so.
    await borisRow.getByRole("button", { name: T.memberActions(`${boris.firstName} ${boris.lastName}`) }).click();
    await borisRow.getByRole("button", { name: T.makeOwner }).click();
    await expect(panel(a.page).getByTestId("group-confirm")).toContainText(`${boris.firstName} ${boris.lastName}`);
    await panel(a.page).getByRole("button", { name: T.handOver, exact: true }).click();
    await expect(borisRow).toHaveAttribute("data-role", "OWNER");
    await expect(borisRow).toContainText(T.owner);
    await expect(panel(a.page).getByTestId("group-member").filter({ hasText: anna.lastName })).toContainText(T.admin);
    await expect(eventLine(b.page, T.ownerEvent)).toBeVisible();
    await closePanel(a.page, T);

    // Gleb opens it on his phone and leaves (confirmed): «Вы вышли из беседы»; the others see the line.
    await row(g.page, renamed).click();
    await expect(eventLine(g.page, T.addedYou)).toBeVisible();
    await openPanel(g.page);
    await g.page.screenshot({ path: testInfo.outputPath(`members-${lang}-${dark}-390.png`) });
    await panel(g.page).getByRole("button", { name: T.leave }).click();
    await panel(g.page).getByRole("button", { name: T.leaveConfirm, exact: true }).click();
    await expect(panel(g.page)).toHaveCount(0);
    await expect(g.page.getByTestId("cannot-write")).toHaveText(T.leftLine);
    await expect(eventLine(a.page, T.leftEvent)).toBeVisible();
    await expect(a.page.getByTestId("group-members-count")).toHaveText(T.members(2));
    const overflow = await g.page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow).toBeLessThanOrEqual(0);

    for (const c of [a, b, v, g]) expect(c.failures).toEqual([]);
    await Promise.all([a.context.close(), b.context.close(), v.context.close(), g.context.close(), apiA.dispose()]);
  });
}
