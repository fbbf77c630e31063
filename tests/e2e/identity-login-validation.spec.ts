import { createUser, expect, test } from "./fixtures";

// ADR 103: the sign-in form loads its zod schema on first use; its checks still run in the browser,
// in the page's language, before anything is sent.

const TEXTS = {
  ru: { password: "Пароль", submit: "Войти", required: "Обязательное поле", email: "Неверный формат e-mail.", refused: "Неверный e-mail или пароль" },
  en: { password: "Password", submit: "Sign in", required: "Required field", email: "Invalid Email format.", refused: "Wrong e-mail or password" },
} as const;

for (const lang of ["ru", "en"] as const) {
  test(`the sign-in form checks its fields in the browser before it sends anything (${lang})`, async ({ page, context, baseURL }) => {
    if (lang === "en") await context.addCookies([{ name: "NEXT_LOCALE", value: "en", url: baseURL! }]);
    const x = TEXTS[lang];
    const sent: string[] = [];
    page.on("request", (req) => {
      if (req.url().includes("/api/v1/auth/login")) sent.push(req.method());
    });
    await page.goto("/login");

    // Submitted empty, before a single keystroke: the schema loads now and marks both fields.
    await page.getByRole("button", { name: x.submit, exact: true }).click();
    await expect(page.getByText(x.email)).toBeVisible();
    await expect(page.getByText(x.required)).toHaveCount(1);

    // A malformed address stays refused as the user types; a good one clears the message.
    const email = page.getByLabel("E-mail", { exact: true });
    await email.fill("anna@");
    await expect(page.getByText(x.email)).toBeVisible();
    await email.fill("anna@example.com");
    await expect(page.getByText(x.email)).toHaveCount(0);
    await expect(page.getByText(x.required)).toHaveCount(1);
    expect(sent).toEqual([]);

    // With both fields filled the form does send, and the server's refusal is shown.
    await page.getByLabel(x.password, { exact: true }).fill("Not-the-password1!");
    await page.getByRole("button", { name: x.submit, exact: true }).click();
    await expect.poll(() => sent).toEqual(["POST"]);
    await expect(page.getByRole("alert").filter({ hasText: x.refused })).toBeVisible();
  });
}

// Before the page's script has run, the form cannot be sent: a native submit would have put the
// password in the address (a journey once caught `/login?email=…&password=…`). What is typed then
// is kept through hydration and sent once the page is ready.
for (const lang of ["ru", "en"] as const) {
  test(`a sign-in typed before the page's script has run is kept and never sent in the address (${lang})`, async ({ page, context, baseURL }) => {
    if (lang === "en") await context.addCookies([{ name: "NEXT_LOCALE", value: "en", url: baseURL! }]);
    const x = TEXTS[lang];
    const user = await createUser({ language: lang });
    let release!: () => void;
    const scriptsHeld = new Promise<void>((resolve) => (release = resolve));
    await page.route("**/_next/static/chunks/*.js", async (route) => {
      await scriptsHeld;
      await route.continue();
    });
    const addresses: string[] = [];
    page.on("framenavigated", (frame) => {
      if (frame === page.mainFrame()) addresses.push(frame.url());
    });
    // The HTML arrives; its scripts (some of them parser-blocking) wait.
    await page.goto("/login", { waitUntil: "commit" });

    const submit = page.getByRole("button", { name: x.submit, exact: true });
    await page.getByLabel("E-mail", { exact: true }).fill(user.email);
    await page.getByLabel(x.password, { exact: true }).fill(user.password);
    await expect(submit).toBeDisabled();
    // Enter in a field would submit natively if the button allowed it.
    await page.getByLabel(x.password, { exact: true }).press("Enter");
    await page.waitForTimeout(300);
    expect(page.url()).toBe(`${baseURL}/login`);

    release();
    await expect(submit).toBeEnabled();
    await expect(page.getByLabel("E-mail", { exact: true })).toHaveValue(user.email);
    await submit.click();
    await expect(page).not.toHaveURL(/\/login/);
    expect(addresses.filter((a) => a.includes("password") || a.includes(encodeURIComponent(user.email)))).toEqual([]);
  });
}
