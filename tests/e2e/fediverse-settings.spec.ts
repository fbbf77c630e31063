import { createUser, expect, letters, signedInContext, test } from "./fixtures";

// Issue 43, part one (docs/adr/0172): a person switches «Мои открытые записи в федиверсе» on in
// «Приватность», sees their address id<N>@host, picks a short one; the profile then shows it, opens at
// /@name, and a fediverse server finds the person by WebFinger. Russian in the light theme on a desktop,
// English in the dark theme on a 390 px phone.

const TEXTS = {
  ru: { switch: "Мои открытые записи в федиверсе", address: "Ваш адрес в федиверсе:", name: "Короткий адрес", save: "Сохранить", saved: "Короткий адрес сохранён", taken: "Этот короткий адрес уже занят", profile: "В федиверсе:" },
  en: { switch: "My public posts in the fediverse", address: "Your fediverse address:", name: "Short address", save: "Save", saved: "Short address saved", taken: "This short address is taken", profile: "In the fediverse:" },
} as const;

for (const lang of ["ru", "en"] as const) {
  test(`the fediverse switch, the address and a short name, found by WebFinger (${lang})`, async ({ browser, baseURL }) => {
    test.setTimeout(60_000);
    const x = TEXTS[lang];
    const user = await createUser({ firstName: "Павел", lastName: `Федив${letters(4)}`, language: lang });
    const other = await createUser({ language: lang });
    const { context, page, failures } = await signedInContext(browser, user, { lang, theme: lang === "ru" ? "light" : "dark", phone: lang === "en" });
    const host = new URL(baseURL!).host;
    const short = `p${letters(6).toLowerCase().replace(/[^a-z]/g, "x")}_${lang}`;

    // Before: nobody out there knows the person.
    const before = await page.request.get(`/.well-known/webfinger?resource=acct:id${user.id}@${host}`);
    expect(before.status()).toBe(404);

    await page.goto("/settings");
    const privacy = page.getByTestId("privacy-settings");
    const toggle = privacy.getByRole("switch", { name: x.switch });
    await expect(toggle).toBeEnabled();
    await expect(toggle).not.toBeChecked();
    await toggle.click();
    await expect(toggle).toBeChecked();
    const address = page.getByTestId("fediverse-address");
    await expect(address).toContainText(`${x.address} id${user.id}@${host}`);

    // Someone else holds a name: said under the field, nothing saved.
    const otherApi = await browser.newContext();
    await otherApi.request.post("/api/v1/auth/login", { data: { email: other.email, password: other.password } });
    const held = `h${short}`.slice(0, 32);
    expect((await otherApi.request.put("/api/v1/account/privacy", { data: { fediverseName: held } })).status()).toBe(200);
    await otherApi.close();
    const field = address.getByLabel(x.name);
    await field.fill(held);
    await address.getByRole("button", { name: x.save }).click();
    await expect(address.getByText(x.taken)).toBeVisible();

    await field.fill(short);
    await address.getByRole("button", { name: x.save }).click();
    await expect(page.getByText(x.saved).first()).toBeVisible();
    await expect(address).toContainText(`${short}@${host}`);
    await address.screenshot({ path: test.info().outputPath(`fediverse-settings-${lang}.png`) });

    // The profile shows the address, and opens at /@name.
    await page.goto(`/@${short}`);
    await expect(page.getByRole("heading", { level: 1, name: `Павел ${user.lastName}` })).toBeVisible();
    await expect(page.getByTestId("profile-fediverse")).toHaveText(`${x.profile} @${short}@${host}`);
    await page.screenshot({ path: test.info().outputPath(`fediverse-profile-${lang}.png`) });

    // A fediverse server finds the person by either address and reads the actor.
    for (const name of [`id${user.id}`, short]) {
      const found = await page.request.get(`/.well-known/webfinger?resource=acct:${name}@${host}`);
      expect(found.status(), name).toBe(200);
      const self = (await found.json()).links.find((l: { rel: string }) => l.rel === "self");
      const actor = await page.request.get(new URL(self.href).pathname, { headers: { accept: "application/activity+json" } });
      expect(actor.status()).toBe(200);
      expect((await actor.json()).preferredUsername).toBe(short);
    }

    // Switched off: unknown again.
    await page.goto("/settings");
    await page.getByTestId("privacy-settings").getByRole("switch", { name: x.switch }).click();
    await expect(page.getByTestId("fediverse-address")).toHaveCount(0);
    await expect.poll(async () => (await page.request.get(`/.well-known/webfinger?resource=acct:id${user.id}@${host}`)).status()).toBe(404);
    expect(failures).toEqual([]);
    await context.close();
  });
}
