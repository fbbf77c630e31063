import type { Page } from "@playwright/test";
import { contextIn, createUser, expect, signIn, test } from "./fixtures";
import { apiAs, befriend, updateMe } from "./profile-support";
import { createPost, pngBytes } from "./posts-support";

// Issue 27 (ADR 0131): who reacted to a post — the summary opens a dialog with a tab per reaction type,
// the viewer's friends first; Escape closes it and gives focus back. The post's image opens in the
// lightbox (Escape closes it, focus returns); plain URLs in the post, a comment and a chat message are
// links with rel nofollow ugc noopener. Screenshots light/dark, desktop and 390 px, in both languages.

const TEXT = {
  ru: { position: "2 из 2", summary: "3 реакции", title: "Кто отреагировал", all: "Все", fire: "Огонь: 1", friend: "друг", open: /^Открыть изображение/, viewer: "Просмотр изображения" },
  en: { position: "2 of 2", summary: "3 reactions", title: "Who reacted", all: "All", fire: "Fire: 1", friend: "friend", open: /^Open the image/, viewer: "Image viewer" },
} as const;

async function shots(page: Page, name: string, lang: string, path: (file: string) => string) {
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: width > 600 ? 820 : 844 });
    for (const theme of ["light", "dark"] as const) {
      await page.evaluate((t) => (document.documentElement.dataset.theme = t), theme);
      await page.screenshot({ path: path(`${name}-${lang}-${theme}-${width}.png`) });
    }
  }
  await page.setViewportSize({ width: 1280, height: 820 });
  await page.evaluate(() => (document.documentElement.dataset.theme = "light"));
}

for (const lang of ["ru", "en"] as const) {
  test(`who reacted, the image viewer and links in a post, a comment and a message (${lang})`, async ({ browser, baseURL }, testInfo) => {
    test.setTimeout(120_000);
    const t = TEXT[lang];
    const en = lang === "en";
    const [me, author, friend, stranger] = await Promise.all([
      createUser({ firstName: en ? "Eva" : "Ева", lastName: en ? "Stone" : "Каменева", language: lang }),
      createUser({ firstName: en ? "Max" : "Макс", lastName: en ? "Reed" : "Рид", language: lang }),
      createUser({ firstName: en ? "Lena" : "Лена", lastName: en ? "Frost" : "Морозова", language: lang }),
      createUser({ firstName: en ? "Oleg" : "Олег", lastName: en ? "North" : "Северов", language: lang }),
    ]);
    const [meApi, authorApi, friendApi, strangerApi] = await Promise.all([apiAs(me), apiAs(author), apiAs(friend), apiAs(stranger)]);
    await befriend(meApi, me.id, friendApi, friend.id);
    const upload = await authorApi.post("/api/v1/storage?type=IMAGE", { multipart: { file: { name: "lake.png", mimeType: "image/png", buffer: await pngBytes("#4a7fb5", 1200, 800) } } });
    expect(upload.status(), await upload.text()).toBe(200);
    const cover = await authorApi.post("/api/v1/storage?type=IMAGE", { multipart: { file: { name: "cover.png", mimeType: "image/png", buffer: await pngBytes("#b5824a", 1500, 500) } } });
    expect(cover.status(), await cover.text()).toBe(200);
    const photoUrl: string = (await upload.json()).data;
    await updateMe(authorApi, { photo: photoUrl, profileCover: (await cover.json()).data });
    const post = await createPost(authorApi, {
      title: en ? "Morning at the lake" : "Утро на озере",
      postText: en ? "<p>The water was still, photos at https://example.org/lake.</p>" : "<p>Вода была тихой, фото тут: https://example.org/lake.</p>",
      imagePath: (await upload.json()).data,
    });
    const commented = await friendApi.post(`/api/v1/post/${post.id}/comment`, { data: { commentText: `${en ? "More" : "Ещё"}: https://example.org/comment` } });
    expect(commented.status(), await commented.text()).toBe(201);
    const chat = await (await authorApi.post("/api/v1/dialogs", { data: { recipientId: me.id } })).json();
    const sent = await authorApi.post(`/api/v1/dialogs/${chat.id}/messages`, { data: { messageText: `${en ? "Look" : "Смотри"} https://example.org/message!` } });
    expect(sent.status(), await sent.text()).toBe(201);
    // The friend reacted first (older), then two others: the friend still leads the list.
    for (const [api, type] of [[friendApi, "fire"], [strangerApi, "heart"], [authorApi, "heart"]] as const) {
      const res = await api.post(`/api/v1/post/${post.id}/like`, { data: { type: "POST", reactionType: type } });
      expect(res.status(), await res.text()).toBe(200);
    }

    const context = await contextIn(browser, lang, baseURL!);
    const page = await context.newPage();
    await page.setViewportSize({ width: 1280, height: 820 });
    await signIn(page, me);
    await page.goto(`/post/${post.id}`);
    const summary = page.getByTestId("who-reacted-open");
    await expect(summary).toHaveText(t.summary);
    await summary.click();
    const dialog = page.getByRole("dialog", { name: t.title });
    await expect(dialog).toBeVisible();
    const rows = dialog.getByTestId("who-reacted-list").getByRole("listitem");
    await expect(rows).toHaveCount(3);
    await expect(rows.first()).toContainText(`${friend.firstName} ${friend.lastName}`);
    await expect(rows.first()).toContainText(t.friend);
    await expect(rows.first().getByRole("link")).toHaveAttribute("href", `/profile/${friend.id}`);
    await expect(dialog.getByRole("tab", { name: new RegExp(`^${t.all}`) })).toHaveAttribute("aria-selected", "true");
    await shots(page, "who-reacted", lang, (f) => testInfo.outputPath(f));

    // One type's tab lists only those people.
    await dialog.getByRole("tab", { name: t.fire }).click();
    const fire = dialog.getByRole("tabpanel").getByTestId("who-reacted-list").getByRole("listitem");
    await expect(fire).toHaveCount(1);
    await expect(fire.first()).toContainText(friend.firstName);

    // Escape closes the dialog and focus returns to the summary.
    await page.keyboard.press("Escape");
    await expect(dialog).toBeHidden();
    await expect(summary).toBeFocused();

    // The post's image opens full-size; Escape closes the viewer and focus returns to the image.
    const image = page.getByTestId("post-card").getByRole("button", { name: t.open });
    await image.click();
    const viewer = page.getByRole("dialog", { name: t.viewer });
    await expect(viewer.getByRole("img")).toBeVisible();
    await shots(page, "lightbox", lang, (f) => testInfo.outputPath(f));
    await page.keyboard.press("Escape");
    await expect(viewer).toBeHidden();
    await expect(image).toBeFocused();

    // On a profile the photo and the cover are one gallery: → moves to the cover.
    await page.goto(`/profile/${author.id}`);
    // The head's photo (the wall below shows the same picture in the post: the first is the head's).
    const photo = page.getByRole("button", { name: t.open }).filter({ has: page.locator(`img[src="${photoUrl}"]`) }).first();
    await expect(photo).toBeVisible();
    await shots(page, "profile", lang, (f) => testInfo.outputPath(f));
    await photo.click();
    await page.keyboard.press("ArrowRight");
    await expect(viewer.getByText(t.position)).toBeVisible();
    await shots(page, "gallery", lang, (f) => testInfo.outputPath(f));
    await page.keyboard.press("Escape");
    await expect(viewer).toBeHidden();
    await expect(photo).toBeFocused();
    await page.goto(`/post/${post.id}`);

    // Plain URLs are links: in the post (the sanitiser's rel), in a comment and in a chat message (new tab).
    const rel = async (link: ReturnType<Page["locator"]>) => new Set((await link.getAttribute("rel"))!.split(/\s+/));
    const inPost = page.getByTestId("post-text").getByRole("link", { name: "https://example.org/lake" });
    await expect(inPost).toHaveAttribute("href", "https://example.org/lake");
    expect([...(await rel(inPost))]).toEqual(expect.arrayContaining(["nofollow", "ugc", "noopener"]));
    const inComment = page.getByTestId("comment-text").getByRole("link", { name: "https://example.org/comment" });
    await expect(inComment).toHaveAttribute("target", "_blank");
    expect([...(await rel(inComment))]).toEqual(expect.arrayContaining(["nofollow", "ugc", "noopener"]));
    await page.goto(`/im/${chat.id}`);
    const inMessage = page.getByRole("link", { name: "https://example.org/message" });
    await expect(inMessage).toHaveAttribute("href", "https://example.org/message");
    await expect(inMessage).toHaveAttribute("target", "_blank");
    expect([...(await rel(inMessage))]).toEqual(expect.arrayContaining(["nofollow", "ugc", "noopener"]));
    await shots(page, "message-link", lang, (f) => testInfo.outputPath(f));
    await context.close();
    await Promise.all([meApi, authorApi, friendApi, strangerApi].map((a) => a.dispose()));
  });
}
