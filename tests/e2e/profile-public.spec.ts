import { createUser, expect, test } from "./fixtures";
import { apiAs, updateMe } from "./profile-support";

// Issue 4, "public profile shells": a signed-out visitor or crawler gets name, photo, city and about with
// title, description, Open Graph and canonical tags, and a way in; nothing else. Plus robots.txt and
// the sitemaps that list the shells.

/** A crawler that does not run scripts: Next renders the metadata into <head> before anything else for it. */
const CRAWLER = "Mozilla/5.0 (compatible; YandexBot/3.0; +http://yandex.com/bots)";

function headOf(html: string): string {
  const head = /<head>([\s\S]*?)<\/head>/.exec(html);
  expect(head, "the answer has a <head>").not.toBeNull();
  return head![1];
}

const escapeRe = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** `<meta property="og:title" content="…"/>` (or name=, or a link's href) with exactly this value. */
function tagPattern(selector: string, value: string): RegExp {
  const [, tag, attr, key] = /^(\w+)\[(\w+)="([^"]+)"\]$/.exec(selector)!;
  const valueAttr = tag === "link" ? "href" : "content";
  return new RegExp(`<${tag} ${attr}="${escapeRe(key)}" ${valueAttr}="${escapeRe(value)}"/?>`);
}

const PRIVATE = { phone: "+7 911 222-33-44", birthDate: "1979-11-02", country: "RU", emojiStatus: "love" };

test("a signed-out visitor gets the public shell with its head tags and no private data", async ({ page, baseURL }) => {
  const lena = await createUser({ firstName: "Елена", lastName: "Воронина" });
  const friend = await createUser({ firstName: "Пётр", lastName: "Скрытый" });
  const lenaApi = await apiAs(lena);
  const about = "Пеку хлеб и хожу в походы. Ищу попутчиков на Алтай.";
  await updateMe(lenaApi, { city: "Новосибирск", about, ...PRIVATE });
  const friendApi = await apiAs(friend);
  await friendApi.post(`/api/v1/friends/${lena.id}/request`);
  await lenaApi.put(`/api/v1/friends/${friend.id}/approve`);

  const res = await page.goto(`/profile/${lena.id}`);
  expect(res?.status()).toBe(200);
  await expect(page).toHaveURL(`/profile/${lena.id}`);
  const shell = page.getByTestId("public-profile");
  await expect(shell.getByRole("heading", { level: 1, name: "Елена Воронина" })).toBeVisible();
  await expect(shell).toContainText("Новосибирск");
  await expect(page.getByRole("main")).toContainText(about);

  // Head tags, all built from PUBLIC_URL and the shell's own data. A browser gets them streamed (Next
  // streams metadata to clients that run scripts) ...
  const url = `${baseURL}/profile/${lena.id}`;
  const expected: [string, string][] = [
    ['meta[name="description"]', about],
    ['link[rel="canonical"]', url],
    ['meta[property="og:url"]', url],
    ['meta[property="og:type"]', "profile"],
    ['meta[property="og:title"]', "Елена Воронина | Круг"],
    ['meta[property="og:description"]', about],
    ['meta[property="og:image"]', `${baseURL}/og-profile.png`],
  ];
  await expect(page).toHaveTitle("Елена Воронина | Круг");
  for (const [selector, value] of expected) {
    await expect(page.locator(selector), selector).toHaveAttribute(selector.startsWith("link") ? "href" : "content", value);
  }
  // ... and a crawler that reads HTML only finds every one of them in <head> of the server's answer.
  const crawled = await page.request.get(`/profile/${lena.id}`, { headers: { "user-agent": CRAWLER } });
  expect(crawled.status()).toBe(200);
  const head = headOf(await crawled.text());
  expect(head).toContain("<title>Елена Воронина | Круг</title>");
  for (const [selector, value] of expected) expect(head, selector).toMatch(tagPattern(selector, value));
  const image = await page.request.get(`${baseURL}/og-profile.png`);
  expect(image.status()).toBe(200);
  expect(image.headers()["content-type"]).toBe("image/png");

  // Nothing else of the account: not in the page, not in the HTML (RSC payload included).
  const html = await (await page.request.get(`/profile/${lena.id}`)).text();
  for (const secret of [PRIVATE.phone, PRIVATE.birthDate, "1979", "Россия", "❤️", lena.email, "Пётр", "Скрытый"]) {
    expect(html, secret).not.toContain(secret);
  }
  await expect(page.getByRole("main")).not.toContainText("Информация");
  await expect(page.getByRole("button", { name: "Добавить в друзья" })).toHaveCount(0);

  // The way in: registration, or sign-in that comes back here.
  const main = page.getByRole("main");
  await expect(main.getByRole("heading", { name: "Войдите, чтобы увидеть всю страницу" })).toBeVisible();
  await expect(main.getByRole("link", { name: "Зарегистрироваться" })).toHaveAttribute("href", "/registration");
  await expect(main.getByRole("link", { name: "Войти" })).toHaveAttribute("href", `/login?redirect=ProfileId&id=${lena.id}`);
  await Promise.all([lenaApi.dispose(), friendApi.dispose()]);
});

test("a shell without about describes the person by name and city; the photo becomes og:image", async ({ page, baseURL }) => {
  const ivan = await createUser({ firstName: "Иван", lastName: "Тихонов" });
  const api = await apiAs(ivan);
  const upload = await api.post("/api/v1/storage?type=IMAGE", {
    multipart: { file: { name: "me.png", mimeType: "image/png", buffer: await (await api.get(`${baseURL}/og-profile.png`)).body() } },
  });
  expect(upload.status(), await upload.text()).toBeLessThan(300);
  const photo = (await upload.json()).data as string;
  await updateMe(api, { city: "Тверь", photo });

  await page.goto(`/profile/${ivan.id}`);
  await expect(page.getByTestId("public-profile").getByRole("img", { name: "Фото: Иван Тихонов" })).toHaveAttribute("src", photo);
  await expect(page.locator('meta[name="description"]')).toHaveAttribute("content", "Иван Тихонов, Тверь — страница в Круге, социальной сети для друзей.");
  await expect(page.locator('meta[property="og:image"]')).toHaveAttribute("content", new URL(photo, baseURL).toString());
  await api.dispose();
});

test("a deleted or unknown account answers 404 to a signed-out visitor, telling neither apart", async ({ page }) => {
  const gone = await createUser({ firstName: "Олег", lastName: "Удалённый" });
  const api = await apiAs(gone);
  expect((await api.delete("/api/v1/account/me")).status()).toBeLessThan(300);
  for (const id of [gone.id, 987654321]) {
    const res = await page.goto(`/profile/${id}`);
    expect(res?.status(), String(id)).toBe(404);
    await expect(page.getByRole("heading", { level: 1, name: "Пользователь не найден" })).toBeVisible();
    await expect(page.locator('meta[name="robots"]').first()).toHaveAttribute("content", /noindex/);
    await expect(page.getByRole("main")).not.toContainText("Удалённый");
    const crawled = await page.request.get(`/profile/${id}`, { headers: { "user-agent": CRAWLER } });
    expect(crawled.status(), `crawler ${id}`).toBe(404);
    expect(headOf(await crawled.text())).toMatch(/<meta name="robots" content="noindex/);
  }
  await api.dispose();
});

test("robots.txt keeps private pages out and names the sitemap index, which lists the shells", async ({ page, baseURL }) => {
  const robots = await page.request.get("/robots.txt");
  expect(robots.status()).toBe(200);
  const text = await robots.text();
  expect(text).toMatch(/^User-Agent: \*$/m);
  expect(text).toMatch(/^Allow: \/profile\/$/m);
  for (const path of ["/api/", "/settings", "/im", "/admin", "/login", "/registration", "/forgot", "/friends", "/search", "/profile$"]) {
    expect(text, path).toContain(`\nDisallow: ${path}\n`);
  }
  expect(text).toContain(`Sitemap: ${baseURL}/sitemap.xml`);

  const alive = await createUser({ firstName: "Живой", lastName: "Человек" });
  const gone = await createUser({ firstName: "Ушёл", lastName: "Совсем" });
  const api = await apiAs(gone);
  expect((await api.delete("/api/v1/account/me")).status()).toBeLessThan(300);
  await api.dispose();
  // A closed page (friends only) is not offered to search engines: not in the sitemap, and its shell says noindex.
  const closed = await createUser({ firstName: "Закрытый", lastName: "Профиль" });
  const closedApi = await apiAs(closed);
  expect((await closedApi.put("/api/v1/account/privacy", { data: { profileVisibility: "FRIENDS" } })).status()).toBe(200);
  await closedApi.dispose();
  const closedShell = await page.request.get(`/profile/${closed.id}`, { headers: { "user-agent": CRAWLER } });
  expect(closedShell.status()).toBe(200);
  expect(headOf(await closedShell.text())).toMatch(/<meta name="robots" content="noindex/);
  expect(headOf(await (await page.request.get(`/profile/${alive.id}`, { headers: { "user-agent": CRAWLER } })).text())).not.toMatch(/noindex/);

  const index = await page.request.get("/sitemap.xml");
  expect(index.status()).toBe(200);
  expect(index.headers()["content-type"]).toContain("xml");
  const indexXml = await index.text();
  expect(indexXml).toContain('<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">');
  const files = [...indexXml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1]);
  expect(files[0]).toBe(`${baseURL}/profile/sitemap/0.xml`);

  const listed: string[] = [];
  for (const file of files) {
    const res = await page.request.get(file);
    expect(res.status(), file).toBe(200);
    const xml = await res.text();
    expect(xml).toContain("<urlset");
    listed.push(...[...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1]));
  }
  expect(listed).toContain(`${baseURL}/profile/${alive.id}`);
  expect(listed).not.toContain(`${baseURL}/profile/${gone.id}`);
  expect(listed).not.toContain(`${baseURL}/profile/${closed.id}`);
  // Profiles, and (issue 42) open communities' public pages.
  expect(listed.every((u) => /^http:\/\/[^/]+\/(profile|community)\/\d+$/.test(u))).toBe(true);
  expect(new Set(listed).size).toBe(listed.length);
  // A file that is not in the index does not exist.
  expect((await page.request.get("/profile/sitemap/abc.xml")).status()).toBe(404);
});
