import type { Page } from "@playwright/test";
import { createUser, expect, signedInContext, test } from "./fixtures";
import { apiAs, befriend } from "./profile-support";
import { createPost, pngBytes } from "./posts-support";

// Issue 44 item 8: every interactive element a newcomer can reach at 390 px is at least 24 × 24 px, the
// WCAG 2.2 target size (2.5.8), measured on the screens of the first day: the feed with a post, its
// comments, reactions, tags and the phone's «Погода» link, the post's page, the composer with a tag,
// the dialog with its message menu, the profile, and a toast. The one exception WCAG makes is kept: a
// link inside a sentence. Russian in the dark theme, English in the light one (pairwise, as the other
// phone journeys).

test.describe.configure({ timeout: 180_000 });

const MIN = 24;

/** Every visible interactive element under `MIN` in either dimension, described for the failure. */
async function smallTargets(page: Page): Promise<string[]> {
  return page.evaluate((min) => {
    const selector = [
      "a[href]",
      "button",
      "input:not([type=hidden])",
      "select",
      "textarea",
      "summary",
      "[role=button]",
      "[role=link]",
      "[role=menuitem]",
      "[role=menuitemradio]",
      "[role=tab]",
      "[role=switch]",
      "[role=checkbox]",
      "[role=radio]",
      "[role=option]",
      "[role=gridcell]",
    ].join(",");
    const out: string[] = [];
    for (const el of document.querySelectorAll<HTMLElement>(selector)) {
      if (!el.checkVisibility({ opacityProperty: true, visibilityProperty: true })) continue;
      if (el.closest("[inert], [aria-hidden=true]")) continue;
      const r = el.getBoundingClientRect();
      // A checkbox, a radio or a switch is pressed through its label too: a label of the size will do.
      const toggles = el instanceof HTMLInputElement && (el.type === "checkbox" || el.type === "radio") && el.labels ? [...el.labels] : [];
      const big = (b: DOMRect) => b.width >= min - 0.5 && b.height >= min - 0.5;
      if (toggles.some((l) => big(l.getBoundingClientRect()))) continue;
      // Visually hidden (the file input behind a button, a skip link until focused): not a target.
      if (r.width <= 2 || r.height <= 2 || r.right <= 0 || r.left >= window.innerWidth || r.bottom <= 0 || r.top >= window.innerHeight * 6) continue;
      const style = getComputedStyle(el);
      if (style.clipPath !== "none" && style.clipPath !== "") continue;
      // WCAG's inline exception: a link within a sentence of text.
      if (style.display === "inline" && el.parentElement && [...el.parentElement.childNodes].some((n) => n !== el && n.nodeType === Node.TEXT_NODE && n.textContent!.trim())) continue;
      if (r.width < min - 0.5 || r.height < min - 0.5) {
        const name = el.getAttribute("aria-label") ?? el.getAttribute("title") ?? el.textContent?.trim().slice(0, 30) ?? "";
        out.push(`${el.tagName.toLowerCase()}${el.dataset.testid ? `[${el.dataset.testid}]` : ""} «${name}» ${Math.round(r.width)}×${Math.round(r.height)}`);
      }
    }
    return out;
  }, MIN);
}

async function check(page: Page, what: string, lang: string, theme: string): Promise<void> {
  expect.soft(await smallTargets(page), `${what}: targets under ${MIN}×${MIN} px`).toEqual([]);
  await page.screenshot({ path: test.info().outputPath(`targets-${what}-${lang}-${theme}.png`) });
}

for (const [lang, theme] of [["ru", "dark"], ["en", "light"]] as const) {
  test(`every interactive element at 390 px is at least 24 × 24 px (${lang}, ${theme})`, async ({ browser, baseURL }) => {
    const en = lang === "en";
    const me = await createUser({ language: lang, firstName: en ? "Nora" : "Нина", lastName: en ? "Finch" : "Зорина" });
    const friend = await createUser({ language: lang, firstName: en ? "Oliver" : "Олег", lastName: en ? "Grant" : "Гранин" });
    const [meApi, friendApi] = await Promise.all([apiAs(me), apiAs(friend)]);
    await befriend(meApi, me.id, friendApi, friend.id);
    const upload = await friendApi.post("/api/v1/storage?type=IMAGE", { multipart: { file: { name: "sea.png", mimeType: "image/png", buffer: await pngBytes("#4a7fb5", 900, 600) } } });
    const post = await createPost(friendApi, {
      title: en ? "A walk to the lighthouse" : "Прогулка к маяку",
      postText: `<p>${en ? "We walked to the old lighthouse; see https://example.com/walk for the map." : "Мы дошли до старого маяка; карта на https://example.com/walk."}</p>`,
      tags: [{ name: en ? "sea" : "море" }, { name: en ? "walks" : "прогулки" }],
      imagePath: (await upload.json()).data,
    });
    await meApi.post(`/api/v1/post/${post.id}/like`, { data: { type: "POST", reactionType: "heart" } });
    const comment = await (await friendApi.post(`/api/v1/post/${post.id}/comment`, { data: { commentText: en ? "The wind was strong." : "Ветер был сильный." } })).json();
    await friendApi.post(`/api/v1/post/${post.id}/comment/${comment.id}`, { data: { commentText: en ? "It was, yes." : "Да, очень." } });
    const dialog = await (await friendApi.post("/api/v1/dialogs", { data: { recipientId: me.id } })).json();
    await friendApi.post(`/api/v1/dialogs/${dialog.id}/messages`, { data: { messageText: en ? "Hello! How are you?" : "Привет! Как дела?" } });

    const { context, page } = await signedInContext(browser, me, { lang, theme, phone: true });
    await context.addInitScript((id) => localStorage.setItem(`krug.postHints.${id}`, "done"), me.id);
    await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: baseURL });

    // The feed: a post with a photo, tags, reactions; its comments opened with the thread of replies.
    await page.goto("/");
    const card = page.getByTestId("post-card").filter({ hasText: post.title }).first();
    await expect(card).toBeVisible();
    await check(page, "feed", lang, theme);

    // The post's page with the comments and the replies' thread open.
    await page.goto(`/post/${post.id}`);
    await expect(page.getByTestId("comment").first()).toBeVisible();
    const thread = page.getByTestId("comment").first().getByRole("button", { name: en ? /repl/i : /ответ/i }).last();
    if (await thread.isVisible()) await thread.click();
    await check(page, "post", lang, theme);

    // The composer with a tag chosen.
    await page.goto("/");
    await page.getByRole("button", { name: en ? "What's new?" : "Что у вас нового?" }).click();
    const form = page.getByRole("form", { name: en ? "New post" : "Новая запись" });
    const tags = form.getByRole("combobox", { name: en ? "Tags" : "Тэги" });
    await tags.fill(en ? "sea" : "море");
    await tags.press("Enter");
    await expect(form.getByRole("button", { name: en ? /Remove tag/ : /Убрать тэг|Удалить тэг/ })).toBeVisible();
    await check(page, "composer", lang, theme);

    // The dialogs, one dialog, and a message's menu open.
    await page.goto("/im");
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    await check(page, "dialogs", lang, theme);
    await page.goto(`/im/${dialog.id}`);
    await expect(page.getByTestId("message").first()).toBeVisible();
    await check(page, "dialog", lang, theme);
    await page.getByTestId("message").first().getByRole("button").first().click();
    await expect(page.getByRole("menuitem").first()).toBeVisible();
    await check(page, "message-menu", lang, theme);
    await page.keyboard.press("Escape");

    // The bottom bar's «Ещё» menu, the bell's panel, friends, communities, search, settings.
    await page.goto("/friends");
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    await check(page, "friends", lang, theme);
    await page.getByRole("navigation", { name: en ? "Navigation" : "Навигация" }).getByRole("button", { name: en ? "More" : "Ещё" }).click();
    await expect(page.getByRole("menuitem").first()).toBeVisible();
    await check(page, "more-menu", lang, theme);
    await page.keyboard.press("Escape");
    await page.getByRole("button", { name: en ? "Notifications" : "Уведомления" }).click();
    await expect(page.getByRole("dialog").or(page.getByRole("region", { name: en ? /Notifications/ : /Уведомления/ })).first()).toBeVisible();
    await check(page, "bell", lang, theme);
    await page.keyboard.press("Escape");
    for (const path of ["/communities", `/search?q=${en ? "Oliver" : "Олег"}`, "/settings", "/weather"]) {
      await page.goto(path);
      await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
      await check(page, path.slice(1).replace(/\W.*$/, ""), lang, theme);
    }

    // The profile, own and a friend's.
    await page.goto("/profile");
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    await check(page, "profile", lang, theme);
    await page.goto(`/profile/${friend.id}`);
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    await check(page, "friend", lang, theme);

    // A toast, with its close button.
    await page.goto("/calculator");
    await expect(page.getByTestId("calculator")).toHaveAttribute("data-ready", "true");
    await page.getByRole("button", { name: "7", exact: true }).click();
    await page.getByRole("button", { name: en ? "Copy the result" : "Скопировать результат" }).click();
    const toast = page.locator("[data-sonner-toast]");
    await expect(toast).toBeVisible();
    await toast.hover();
    await expect(toast.getByRole("button", { name: en ? "Close" : "Закрыть" })).toBeVisible();
    await check(page, "toast", lang, theme);
    await context.close();
  });
}
