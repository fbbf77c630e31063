import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";
import { createInterface } from "node:readline";
import { test as base, expect, type Browser, type Page } from "@playwright/test";
import { baseURL as serverURL } from "../../playwright.config";

export type TestUser = { id: number; email: string; password: string; firstName: string; lastName: string };

/** Where the e2e server put its database and data (written by scripts/e2e-server.ts). */
export function e2eServerInfo(): { databaseUrl: string | null; dataDir: string } {
  return JSON.parse(readFileSync(path.resolve(process.env.E2E_DATA_DIR ?? ".data-e2e", "e2e.json"), "utf8"));
}

type Factory = { send(account: object): Promise<{ id: number }> };
let factory: Factory | undefined;

/**
 * This worker's account factory (scripts/e2e-accounts.ts): one process that stays up for the worker's
 * life, so an account costs a password hash and an insert, not a Node start-up and a migration check.
 */
function accountFactory(): Factory {
  if (factory) return factory;
  const info = e2eServerInfo();
  const env = { ...process.env, DATA_DIR: info.dataDir, LOG_LEVEL: "silent" } as NodeJS.ProcessEnv;
  if (info.databaseUrl) env.DATABASE_URL = info.databaseUrl;
  else delete env.DATABASE_URL;
  const child = spawn(process.execPath, ["--conditions=react-server", "--import", "tsx", "scripts/e2e-accounts.ts"], {
    env,
    stdio: ["pipe", "pipe", "inherit"],
  });
  // The worker must be free to exit: the factory ends when its stdin closes.
  child.unref();
  for (const stream of [child.stdin, child.stdout] as unknown as { unref?: () => void }[]) stream.unref?.();
  const waiting = new Map<number, { resolve: (a: { id: number }) => void; reject: (e: Error) => void }>();
  let seq = 0;
  let failure: Error | undefined;
  const failAll = (err: Error) => {
    failure = err;
    for (const w of waiting.values()) w.reject(err);
    waiting.clear();
    factory = undefined;
  };
  createInterface({ input: child.stdout! }).on("line", (line) => {
    if (!line.startsWith("{")) return;
    const answer = JSON.parse(line) as { seq?: number; account?: { id: number }; error?: string };
    if (answer.seq === undefined) return;
    const w = waiting.get(answer.seq);
    waiting.delete(answer.seq);
    if (answer.account) w?.resolve(answer.account);
    else w?.reject(new Error(`account factory: ${answer.error}`));
  });
  child.on("exit", (code) => failAll(new Error(`account factory exited with ${code}`)));
  child.on("error", failAll);
  factory = {
    send(account) {
      if (failure) return Promise.reject(failure);
      const n = ++seq;
      return new Promise((resolve, reject) => {
        waiting.set(n, { resolve, reject });
        child.stdin!.write(`${JSON.stringify({ seq: n, account })}\n`);
      });
    },
  };
  return factory;
}

/** A real account in the e2e database, made the operators' way (no captcha involved). */
/** n random Cyrillic letters: names and titles unique to one journey (the database is shared by the workers). */
export function letters(n = 6): string {
  const abc = "абвгдежзиклмнопрстуфхцчшэюя";
  return Array.from({ length: n }, () => abc[Math.floor(Math.random() * abc.length)]).join("");
}

export async function createUser(overrides: Partial<Omit<TestUser, "id">> & { role?: "USER" | "ADMIN" | "MODERATOR"; language?: "ru" | "en" } = {}): Promise<TestUser> {
  const user = {
    email: overrides.email ?? `e2e-${randomBytes(5).toString("hex")}@example.com`,
    password: overrides.password ?? "Secret-pass1!",
    firstName: overrides.firstName ?? "Анна",
    lastName: overrides.lastName ?? "Смирнова",
  };
  const created = await accountFactory().send({ ...user, role: overrides.role ?? "USER", language: overrides.language ?? "ru" });
  return { id: created.id, ...user };
}

/** A fresh browser context in `lang`: English sets the language cookie and the stored choice; Russian is the default. */
export async function contextIn(browser: Browser, lang: "ru" | "en", baseURL: string) {
  const context = await browser.newContext();
  if (lang === "en") {
    await context.addCookies([{ name: "NEXT_LOCALE", value: "en", url: baseURL }]);
    await context.addInitScript(() => localStorage.setItem("selectedLanguage", "en"));
  }
  return context;
}

/** Signs the page's browser context in through the API, as the login form would. */
export async function signIn(page: Page, user: Pick<TestUser, "email" | "password">): Promise<void> {
  const res = await page.request.post("/api/v1/auth/login", { data: { email: user.email, password: user.password } });
  expect(res.status(), await res.text()).toBe(200);
}

/**
 * A signed-in browser context of its own for a journey with two people: language, theme (stored as the
 * theme switch stores it) and a 390 px touch phone when asked; `failures` collects every 5xx its page gets
 * (the fixtures' guard covers only the default page).
 */
export async function signedInContext(browser: Browser, user: TestUser, opts: { lang: "ru" | "en"; theme?: "light" | "dark"; phone?: boolean }) {
  const context = await browser.newContext({
    locale: opts.lang === "en" ? "en-US" : "ru-RU",
    ...(opts.theme ? { colorScheme: opts.theme } : {}),
    ...(opts.phone ? { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true } : {}),
  });
  if (opts.theme) await context.addInitScript((t) => localStorage.setItem("theme", t), opts.theme);
  if (opts.lang === "en") await context.addCookies([{ name: "NEXT_LOCALE", value: "en", url: serverURL }]);
  const page = await context.newPage();
  const failures: string[] = [];
  page.on("response", (res) => {
    if (res.status() >= 500) failures.push(`${res.status()} ${res.request().method()} ${res.url()}`);
  });
  await signIn(page, user);
  return { context, page, failures };
}

/**
 * Every journey fails when the server answers 5xx to anything the page loads (the document, RSC
 * payloads, API calls): no state the product has may answer 500 (issue 14 item 2). A page that still
 * renders in the browser after a server error is caught here, not only one that shows an error screen.
 */
export const test = base.extend<{ noServerErrors: void }>({
  noServerErrors: [
    async ({ page }, use) => {
      const failures: string[] = [];
      page.on("response", (res) => {
        if (res.status() >= 500) failures.push(`${res.status()} ${res.request().method()} ${res.url()}`);
      });
      await use();
      expect(failures, "server errors answered to the page").toEqual([]);
    },
    { auto: true },
  ],
});
export { expect };
