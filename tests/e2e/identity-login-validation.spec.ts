import { expect, test } from "./fixtures";

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
