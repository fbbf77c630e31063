import { readFile } from "node:fs/promises";
import { unzip } from "../support/zip";
import { createUser, expect, signIn, test } from "./fixtures";
import { mailedLink } from "./identity-mail";
import { useLanguage } from "./language-support";

// Issue 26 section 4 (docs/adr/0127): «Мои данные» in the settings — request an archive, the job makes it,
// the bell and a mail say so, the bell leads to the settings, the download is a ZIP in the person's language.

const TEXT = {
  ru: {
    section: "Мои данные",
    request: "Запросить архив",
    pending: "Готовим архив",
    ready: "Архив готов",
    download: "Скачать архив",
    next: "Следующий архив можно запросить после",
    bell: "Архив с вашими данными готов",
    index: "Мои данные в Круге",
  },
  en: {
    section: "My data",
    request: "Request an archive",
    pending: "Preparing your archive",
    ready: "Your archive is ready",
    download: "Download the archive",
    next: "You can request the next archive after",
    bell: "Your data archive is ready",
    index: "My data on Krug",
  },
} as const;

for (const lang of ["ru", "en"] as const) {
  test.describe(`download my data (${lang})`, () => {
    useLanguage(lang);

    test(`request → the bell → download, and the mailed link (${lang})`, async ({ page }) => {
      // A real job runs between the request and the bell; on a loaded machine that takes a while.
      test.setTimeout(120_000);
      const text = TEXT[lang];
      const user = await createUser({ language: lang });
      await signIn(page, user);
      const post = await page.request.post("/api/v1/post", { data: { title: "Запись для архива", postText: "<p>Текст записи для архива</p>" } });
      expect(post.status(), await post.text()).toBeLessThan(300);

      await page.goto("/settings");
      const section = page.locator("#my-data");
      await expect(section.getByRole("heading", { level: 2, name: text.section })).toBeVisible();
      await section.getByRole("button", { name: text.request }).click();
      // The answer to the request says PENDING; the section asks again only after 4 s.
      await expect(section.getByRole("status")).toContainText(text.pending, { timeout: 20_000 });
      await expect(section.getByRole("button", { name: text.request })).toHaveCount(0);

      // The job makes it; the bell rings and its entry leads back here.
      await expect(page.getByTestId("bell-badge")).toHaveText("1", { timeout: 60_000 });
      await page.goto("/");
      await page.getByTestId("bell").click();
      const entry = page.getByTestId("bell-panel").getByTestId("notification").first();
      await expect(entry).toHaveAttribute("data-type", "EXPORT_READY");
      await expect(entry).toContainText(text.bell);
      await entry.click();
      await expect(page).toHaveURL(/\/settings#my-data$/);
      await expect(section.getByRole("status")).toContainText(text.ready, { timeout: 20_000 });
      await expect(section).toContainText(text.next);

      const downloading = page.waitForEvent("download");
      await section.getByRole("link", { name: text.download }).click();
      const download = await downloading;
      expect(download.suggestedFilename()).toMatch(/^krug-data-\d{4}-\d{2}-\d{2}\.zip$/);
      const zip = await unzip(await readFile((await download.path())!));
      expect([...zip.keys()]).toEqual(expect.arrayContaining(["profile.json", "posts.json", "dialogs.json", "index.html"]));
      const index = zip.get("index.html")!.toString("utf8");
      expect(index).toContain(`<html lang="${lang}">`);
      expect(index).toContain(text.index);
      expect(JSON.parse(zip.get("posts.json")!.toString("utf8"))[0].title).toBe("Запись для архива");

      // The mailed link is the same download, for this signed-in person.
      const link = await mailedLink(user.email, "/api/v1/account/export/archive/");
      const viaMail = await page.request.get(new URL(link).pathname);
      expect(viaMail.status()).toBe(200);
      expect(viaMail.headers()["content-type"]).toBe("application/zip");
    });
  });
}
