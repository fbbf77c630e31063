import type { Browser, Page } from "@playwright/test";
import sharp from "sharp";
import { createUser, letters, expect as baseExpect, signedInContext, test, type TestUser } from "./fixtures";
import { apiAs, befriend } from "./profile-support";

// Issue 27 (docs/adr/0134), in both languages: two people in two browsers — one on a desktop, one on a
// 390 px phone, one light and one dark (swapped in the other language). Alice attaches two photos (a
// text file beside them is refused on its preview), sends them without text; Boris sees them arrive live
// as a grid and opens them in the image viewer (→ to the second, Escape closes, focus back). Alice puts
// an emoji from the picker between two letters (the picker's data is ours: every request to another host
// is blocked and none is made), and the dialog list says «2 фотографии» / "2 photos".

const expect = baseExpect.configure({ timeout: 30_000 });

const TEXT = {
  ru: {
    a: "Алиса",
    b: "Борис",
    attach: "Прикрепить фотографии",
    send: "Отправить",
    emoji: "Смайлики",
    search: "Поиск смайликов",
    query: "улыбка",
    notImage: "Это не изображение",
    count: "Фотографий: 2 из 10",
    remove: "Убрать фотографию 3",
    open: "Открыть фотографию 1 из 2",
    viewer: "Просмотр изображения",
    second: "2 из 2",
    preview: "2 фотографии",
  },
  en: {
    a: "Alice",
    b: "Boris",
    attach: "Attach photos",
    send: "Send",
    emoji: "Emoji",
    search: "Search emoji",
    query: "smile",
    notImage: "Not an image",
    count: "Photos: 2 of 10",
    remove: "Remove photo 3",
    open: "Open photo 1 of 2",
    viewer: "Image viewer",
    second: "2 of 2",
    preview: "2 photos",
  },
} as const;
type Lang = keyof typeof TEXT;

const signedIn = (browser: Browser, user: TestUser, lang: Lang, theme: "light" | "dark", phone: boolean) => signedInContext(browser, user, { lang, theme, phone });
const composer = (page: Page) => page.locator("#chat-composer");
const history = (page: Page) => page.getByTestId("chat-history");

/** A photo-like PNG (a gradient of two colours), so the grid and the viewer show something. */
async function photo(width: number, height: number, from: [number, number, number], to: [number, number, number]): Promise<Buffer> {
  const raw = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      const t = (x + y) / (width + height);
      for (let c = 0; c < 3; c++) raw[(y * width + x) * 3 + c] = Math.round(from[c] * (1 - t) + to[c] * t);
    }
  return sharp(raw, { raw: { width, height, channels: 3 } }).png().toBuffer();
}

/** Blocks every request to a host other than the app's and records it: the picker must need none. */
async function onlyOurHost(page: Page): Promise<string[]> {
  const foreign: string[] = [];
  const ours = new URL(page.url()).host;
  await page.context().route(
    (url) => url.host !== ours && (url.protocol === "http:" || url.protocol === "https:"),
    (route) => {
      foreign.push(route.request().url());
      return route.abort();
    },
  );
  return foreign;
}

test.describe.configure({ timeout: 300_000 });

for (const lang of ["ru", "en"] as const) {
  test(`photos arrive live and open in the viewer; an emoji goes in at the caret (${lang})`, async ({ browser }, testInfo) => {
    const T = TEXT[lang];
    const [alice, boris] = await Promise.all([
      createUser({ firstName: T.a, lastName: `Фото${letters()}`, language: lang }),
      createUser({ firstName: T.b, lastName: `Фото${letters()}`, language: lang }),
    ]);
    const [apiA, apiB] = await Promise.all([apiAs(alice), apiAs(boris)]);
    await befriend(apiA, alice.id, apiB, boris.id);
    const dialog = await (await apiA.post("/api/v1/dialogs", { data: { recipientId: boris.id } })).json();

    // Russian: Alice light on a desktop, Boris dark on a phone; English the other way round.
    const aTheme = lang === "ru" ? "light" : "dark";
    const bTheme = lang === "ru" ? "dark" : "light";
    const a = await signedIn(browser, alice, lang, aTheme, false);
    const b = await signedIn(browser, boris, lang, bTheme, true);
    await Promise.all([a.page.goto(`/im/${dialog.id}`), b.page.goto(`/im/${dialog.id}`)]);
    await expect(a.page.locator("html")).toHaveAttribute("data-theme", aTheme);
    await expect(b.page.locator("html")).toHaveAttribute("data-theme", bTheme);
    const foreign = await onlyOurHost(a.page);

    // Alice picks two photos and a text file: the photos upload, the file is refused on its preview.
    await expect(a.page.getByRole("button", { name: T.attach })).toBeEnabled();
    await a.page.getByTestId("composer-file").setInputFiles([
      { name: "sea.png", mimeType: "image/png", buffer: await photo(640, 420, [20, 90, 200], [120, 210, 240]) },
      { name: "forest.png", mimeType: "image/png", buffer: await photo(420, 640, [30, 120, 40], [230, 200, 60]) },
      { name: "notes.txt", mimeType: "text/plain", buffer: Buffer.from("not a photo") },
    ]);
    const attachments = a.page.getByTestId("composer-attachment");
    await expect(attachments).toHaveCount(3);
    await expect(attachments.nth(2)).toHaveAttribute("data-state", "failed");
    await expect(a.page.getByRole("alert").filter({ hasText: T.notImage })).toBeVisible();
    await expect(attachments.nth(0)).toHaveAttribute("data-state", "done");
    await expect(attachments.nth(1)).toHaveAttribute("data-state", "done");
    await a.page.screenshot({ path: testInfo.outputPath(`composer-photos-${lang}-${aTheme}-desktop.png`) });
    await a.page.getByRole("button", { name: T.remove }).click();
    await expect(attachments).toHaveCount(2);
    await expect(a.page.getByTestId("composer-attachments").locator("..")).toContainText(T.count);

    // Sent without text: Boris's phone shows the two photos live, as a grid.
    await a.page.getByRole("button", { name: T.send, exact: true }).click();
    await expect(attachments).toHaveCount(0);
    const gridOnB = history(b.page).getByTestId("message-images");
    await expect(gridOnB.locator("img")).toHaveCount(2);
    await expect(gridOnB.locator("img").first()).toHaveJSProperty("complete", true);
    await expect(history(a.page).getByTestId("message-images").locator("img")).toHaveCount(2);
    await b.page.screenshot({ path: testInfo.outputPath(`photos-${lang}-${bTheme}-390.png`) });

    // Boris opens the first in the viewer, moves to the second, and Escape brings him back to the thumbnail.
    const first = gridOnB.getByRole("button", { name: T.open });
    await first.click();
    const viewer = b.page.getByRole("dialog", { name: T.viewer });
    await expect(viewer).toBeVisible();
    await expect(viewer.locator("img")).toHaveJSProperty("complete", true);
    await b.page.keyboard.press("ArrowRight");
    await expect(viewer).toContainText(T.second);
    await b.page.screenshot({ path: testInfo.outputPath(`viewer-${lang}-${bTheme}-390.png`) });
    await b.page.keyboard.press("Escape");
    await expect(viewer).toHaveCount(0);
    await expect(first).toBeFocused();

    // Alice writes "ab", puts the caret between the letters and picks an emoji found by its name.
    await composer(a.page).fill("ab");
    await composer(a.page).press("ArrowLeft");
    await a.page.getByRole("button", { name: T.emoji }).click();
    const picker = a.page.getByTestId("emoji-picker");
    const search = picker.getByRole("searchbox", { name: T.search }).or(picker.getByRole("textbox", { name: T.search }));
    await expect(search).toBeVisible();
    await expect(search).toBeFocused();
    await a.page.screenshot({ path: testInfo.outputPath(`emoji-picker-${lang}-${aTheme}-desktop.png`) });
    await search.fill(T.query);
    const found = picker.getByRole("gridcell").first();
    await expect(found).toBeVisible();
    const name = (await found.getAttribute("aria-label")) ?? (await found.textContent()) ?? "";
    await found.click();
    const value = await composer(a.page).inputValue();
    expect(value.startsWith("a") && value.endsWith("b") && value.length > 2, `"${value}" after picking ${name}`).toBe(true);
    const emoji = value.slice(1, -1);
    expect(emoji).toMatch(/\p{Extended_Pictographic}/u);
    // Escape clears the search first (the picker's own), then closes the picker; the field keeps the text.
    await a.page.keyboard.press("Escape");
    if (await picker.isVisible()) await a.page.keyboard.press("Escape");
    await expect(picker).toHaveCount(0);
    await expect(composer(a.page)).toHaveValue(value);
    await composer(a.page).press("Enter");
    await expect(history(b.page).getByTestId("message").filter({ hasText: value })).toBeVisible();
    expect(foreign, "requests to other hosts").toEqual([]);

    await a.page.screenshot({ path: testInfo.outputPath(`chat-${lang}-${aTheme}-desktop.png`) });
    await b.page.screenshot({ path: testInfo.outputPath(`chat-${lang}-${bTheme}-390.png`) });
    const overflow = await b.page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow).toBeLessThanOrEqual(0);

    // Boris answers with an emoji from the picker on his phone: in his theme, within 390 px.
    await b.page.getByRole("button", { name: T.emoji }).click();
    const phoneCell = b.page.getByTestId("emoji-picker").getByRole("gridcell").first();
    await expect(phoneCell).toBeVisible();
    await b.page.screenshot({ path: testInfo.outputPath(`emoji-picker-${lang}-${bTheme}-390.png`) });
    const phoneOverflow = await b.page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(phoneOverflow).toBeLessThanOrEqual(0);
    await phoneCell.click();
    await expect(composer(b.page)).toHaveValue(/\p{Extended_Pictographic}/u);
    await b.page.keyboard.press("Escape");
    await expect(b.page.getByTestId("emoji-picker")).toHaveCount(0);
    const reply = await composer(b.page).inputValue();
    const withReply = history(a.page).getByTestId("message").filter({ hasText: reply });
    const seen = await withReply.count();
    await b.page.getByRole("button", { name: T.send, exact: true }).click();
    await expect(withReply).toHaveCount(seen + 1);

    expect(a.failures).toEqual([]);
    expect(b.failures).toEqual([]);
    await Promise.all([a.context.close(), b.context.close(), apiA.dispose(), apiB.dispose()]);
  });

  test(`the dialog list names a photo-only message by its photos (${lang})`, async ({ browser }) => {
    const T = TEXT[lang];
    const [alice, boris] = await Promise.all([
      createUser({ firstName: T.a, lastName: `Фото${letters()}`, language: lang }),
      createUser({ firstName: T.b, lastName: `Фото${letters()}`, language: lang }),
    ]);
    const [apiA, apiB] = await Promise.all([apiAs(alice), apiAs(boris)]);
    await befriend(apiA, alice.id, apiB, boris.id);
    const dialog = await (await apiA.post("/api/v1/dialogs", { data: { recipientId: boris.id } })).json();
    const images: string[] = [];
    for (const color of [[200, 40, 40], [40, 40, 200]] as [number, number, number][]) {
      const res = await apiA.post("/api/v1/storage?type=IMAGE", { multipart: { file: { name: "p.png", mimeType: "image/png", buffer: await photo(80, 60, color, [250, 250, 250]) } } });
      expect(res.status()).toBe(200);
      images.push((await res.json()).data);
    }
    expect((await apiA.post(`/api/v1/dialogs/${dialog.id}/messages`, { data: { messageText: "", images } })).status()).toBe(201);
    const b = await signedIn(browser, boris, lang, lang === "ru" ? "dark" : "light", true);
    await b.page.goto("/im");
    await expect(b.page.getByTestId("dialog-preview")).toContainText(T.preview);
    expect(b.failures).toEqual([]);
    await Promise.all([b.context.close(), apiA.dispose(), apiB.dispose()]);
  });
}
