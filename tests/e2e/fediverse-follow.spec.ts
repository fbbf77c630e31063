import { spawn, type ChildProcess } from "node:child_process";
import { createWriteStream, mkdirSync } from "node:fs";
import path from "node:path";
import postgres from "postgres";
import type { Page } from "@playwright/test";
import { createUser, e2eServerInfo, expect, letters, signedInContext, test as base } from "./fixtures";

// Issue 43: a person of this Krug follows a person of another Krug from the browser. The other Krug is a
// stand-in (scripts/fediverse-peer.ts, one per worker on 127.0.0.1:3310+worker): people search finds its
// person by their profile's URL (and says plainly when an address finds nobody), their profile shows where
// they live, a follow refused until one's own fediverse switch is on leads to the switch, and once followed
// their new post arrives in «Новости»; unfollowing ends it on both sides. Russian in the dark theme on a
// desktop, English in the light theme on a 390 px phone.

type StandIn = { origin: string; control<T>(path: string, data?: object): Promise<T> };

const TEXTS = {
  ru: {
    query: "Поисковый запрос",
    submit: "Найти",
    notFound: "не найден",
    badge: "Другой сервер",
    open: "Открыть на их сервере",
    noFollowers: "0 подписчиков",
    follow: "Подписаться",
    unfollow: "Отписаться",
    followBack: "Подписаться в ответ",
    mutual: "Вы подписаны друг на друга",
    add: "Добавить в друзья",
    message: "Написать сообщение",
    needsSwitch: "включите «Мои открытые записи в федиверсе»",
    settingsLink: "Открыть настройки приватности",
    switch: "Мои открытые записи в федиверсе",
    side: "С другого сервера",
  },
  en: {
    query: "Search query",
    submit: "Search",
    notFound: "not found",
    badge: "Another server",
    open: "Open on their server",
    noFollowers: "0 followers",
    follow: "Follow",
    unfollow: "Unfollow",
    followBack: "Follow back",
    mutual: "You follow each other",
    add: "Add friend",
    message: "Send a message",
    needsSwitch: "switch on «My public posts in the fediverse»",
    settingsLink: "Open privacy settings",
    switch: "My public posts in the fediverse",
    side: "From another server",
  },
} as const;

const test = base.extend<object, { standIn: StandIn }>({
  standIn: [
    async ({}, provide, workerInfo) => {
      const port = 3310 + workerInfo.workerIndex;
      const serverUrl = e2eServerInfo().databaseUrl ?? process.env.DATABASE_URL;
      if (!serverUrl) throw new Error("the stand-in needs the e2e database's server (DATABASE_URL)");
      const child: ChildProcess = spawn(
        process.execPath,
        ["--conditions=react-server", "--import", "tsx", "scripts/fediverse-peer.ts", "--port", String(port), "--stop-with-stdin"],
        { stdio: ["pipe", "pipe", "pipe"], env: { ...process.env, DATABASE_URL: serverUrl } },
      );
      // Its log, for a failure's post-mortem: test-results/fediverse-peer-<port>.log.
      mkdirSync(workerInfo.project.outputDir, { recursive: true });
      const log = createWriteStream(path.join(workerInfo.project.outputDir, `fediverse-peer-${port}.log`));
      child.stdout!.pipe(log);
      child.stderr!.pipe(log);
      let output = "";
      const ready = new Promise<string>((resolve, reject) => {
        child.stdout!.on("data", (chunk: Buffer) => {
          output += chunk.toString();
          const line = output.split("\n").find((l) => l.startsWith("FEDIVERSE_PEER "));
          if (line) resolve((JSON.parse(line.slice("FEDIVERSE_PEER ".length)) as { origin: string }).origin);
        });
        child.stderr!.on("data", (chunk: Buffer) => void (output += chunk.toString()));
        child.on("exit", (code) => reject(new Error(`the stand-in exited (${code}): ${output}`)));
        setTimeout(() => reject(new Error(`the stand-in did not start: ${output}`)), 90_000);
      });
      const exited = new Promise<void>((resolve) => child.on("exit", () => resolve()));
      try {
        const origin = await ready;
        await provide({
          origin,
          async control<T>(path: string, data?: object) {
            const res = await fetch(`${origin}/__control/${path}`, data ? { method: "POST", body: JSON.stringify(data) } : undefined);
            if (!res.ok) throw new Error(`stand-in ${path}: ${res.status} ${await res.text()}`);
            return (await res.json()) as T;
          },
        });
      } finally {
        // It drops its database on SIGTERM; a stand-in that does not stop in time is killed and its database dropped here.
        child.kill("SIGTERM");
        const stopped = await Promise.race([exited.then(() => true), new Promise<boolean>((r) => setTimeout(() => r(false), 15_000))]);
        if (!stopped) {
          child.kill("SIGKILL");
          const admin = new URL(serverUrl);
          admin.pathname = "/postgres";
          const sql = postgres(admin.toString(), { max: 1, onnotice: () => {} });
          await sql.unsafe(`drop database if exists krug_fedipeer_${port} with (force)`);
          await sql.end();
        }
      }
    },
    { scope: "worker", timeout: 120_000 },
  ],
});

async function search(page: Page, query: string, x: (typeof TEXTS)["ru" | "en"]) {
  await page.goto("/search?tab=people");
  await page.getByLabel(x.query).fill(query);
  await page.getByRole("button", { name: x.submit, exact: true }).click();
}

for (const [lang, theme, phone] of [
  ["ru", "dark", false],
  ["en", "light", true],
] as const) {
  test(`follows a person of another Krug and reads their post in the news (${lang}, ${theme}${phone ? ", 390 px" : ""})`, async ({ browser, standIn }) => {
    test.setTimeout(120_000);
    const x = TEXTS[lang];
    const shot = (name: string) => test.info().outputPath(`fediverse-follow-${lang}-${name}.png`);
    const remote = await standIn.control<{ id: number; profileUrl: string; name: string }>("person", { firstName: lang === "ru" ? "Вера" : "Vera", lastName: `${lang === "ru" ? "Соседова" : "Neighbour"}${letters(3)}` });
    const handle = `id${remote.id}@${new URL(standIn.origin).host}`;
    const user = await createUser({ firstName: "Олег", lastName: `Читатель${letters(4)}`, language: lang });
    const { context, page, failures } = await signedInContext(browser, user, { lang, theme, phone });

    // An address that finds nobody says so plainly.
    await search(page, `${standIn.origin}/profile/99999`, x);
    await expect(page.getByText(x.notFound)).toBeVisible({ timeout: 20_000 });

    // The profile's URL finds the person: their address on the result card, and following is all it offers.
    // (Bundled once per server layer, Fedify made this fail in the web worker whose federation the job runner
    // had created: next.config.ts keeps @fedify/* external, one copy per process.)
    await search(page, remote.profileUrl, x);
    const row = page.getByTestId("person-row");
    await expect(row).toHaveCount(1, { timeout: 20_000 });
    await expect(row.getByTestId("person-fediverse")).toContainText(`@${handle}`);
    await expect(row.getByRole("button", { name: x.add })).toHaveCount(0);
    await expect(row.getByRole("button", { name: x.follow })).toBeVisible();
    await page.screenshot({ path: shot("search") });

    // Their profile: name, marker, address and their page there; no writing, no friendship.
    await row.getByRole("link", { name: remote.name }).click();
    await expect(page.getByRole("heading", { level: 1, name: remote.name })).toBeVisible();
    await expect(page.getByTestId("profile-remote-badge")).toHaveText(x.badge);
    await expect(page.getByTestId("profile-remote")).toContainText(`@${handle}`);
    const open = page.getByTestId("profile-remote-open");
    await expect(open).toHaveText(x.open);
    await expect(open).toHaveAttribute("href", remote.profileUrl);
    await expect(open).toHaveAttribute("rel", "noopener nofollow ugc");
    await expect(open).toHaveAttribute("target", "_blank");
    await expect(page.getByTestId("profile-remote-side")).toContainText(x.side);
    // Their counts as their server states them, read in the background when they were first met.
    await expect(async () => {
      await page.reload();
      await expect(page.getByTestId("profile-remote-counts")).toContainText(x.noFollowers, { timeout: 1_000 });
    }).toPass({ timeout: 20_000 });
    await expect(page.getByRole("button", { name: x.add })).toHaveCount(0);
    await expect(page.getByRole("link", { name: x.message })).toHaveCount(0);
    const profileUrl = page.url();

    // Following needs one's own switch: the page says so and leads to it.
    await page.getByRole("button", { name: x.follow }).click();
    const refusal = page.getByTestId("fediverse-follow-refusal");
    await expect(refusal).toContainText(x.needsSwitch);
    await page.screenshot({ path: shot("needs-switch") });
    await refusal.getByRole("link", { name: x.settingsLink }).click();
    await expect(page).toHaveURL(/\/settings#privacy$/);
    const toggle = page.getByTestId("privacy-settings").getByRole("switch", { name: x.switch });
    await toggle.click();
    await expect(toggle).toBeChecked();

    // Now the follow goes out, and the stand-in counts its new follower.
    await page.goto(profileUrl);
    await page.getByRole("button", { name: x.follow }).click();
    await expect(page.getByRole("button", { name: x.unfollow })).toBeVisible();
    await expect.poll(async () => (await standIn.control<{ count: number }>(`followers?personId=${remote.id}`)).count, { timeout: 30_000 }).toBe(1);
    await page.screenshot({ path: shot("profile"), fullPage: true });

    // Their new post arrives in the news, under their name with their address.
    const text = `${lang === "ru" ? "Привет из соседнего Круга" : "Hello from the Krug next door"} ${letters(8)}`;
    await standIn.control("post", { personId: remote.id, title: "Соседи", text });
    await page.goto("/");
    const card = page.getByTestId("post-card").filter({ hasText: text });
    await expect(async () => {
      await page.reload();
      await expect(card).toBeVisible({ timeout: 2_000 });
    }).toPass({ timeout: 45_000 });
    await expect(card.getByTestId("post-author")).toHaveText(remote.name);
    await expect(card.getByTestId("post-author-address")).toHaveText(`@${handle}`);
    await card.scrollIntoViewIfNeeded();
    await card.screenshot({ path: shot("feed-card") });

    // The post shows on their wall too, and unfollowing ends the follow there as well.
    await page.goto(profileUrl);
    await expect(page.getByTestId("post-card").filter({ hasText: text })).toBeVisible();
    await page.getByRole("button", { name: x.unfollow }).click();
    await expect(page.getByRole("button", { name: x.follow })).toBeVisible();
    await expect.poll(async () => (await standIn.control<{ count: number }>(`followers?personId=${remote.id}`)).count, { timeout: 30_000 }).toBe(0);

    // They follow the reader: the reader follows back, and the two follow each other; no message button.
    await standIn.control("follow", { personId: remote.id, profileUrl: `${new URL(page.url()).origin}/profile/${user.id}` });
    const followBack = page.getByRole("button", { name: x.followBack });
    await expect(async () => {
      await page.reload();
      await expect(followBack).toBeVisible({ timeout: 2_000 });
    }).toPass({ timeout: 45_000 });
    await followBack.click();
    await expect(page.getByTestId("fediverse-mutual")).toHaveText(x.mutual);
    await expect(page.getByRole("button", { name: x.unfollow })).toBeVisible();
    await expect(page.getByRole("link", { name: x.message })).toHaveCount(0);
    await expect.poll(async () => (await standIn.control<{ count: number }>(`followers?personId=${remote.id}`)).count, { timeout: 30_000 }).toBe(1);
    await page.screenshot({ path: shot("mutual"), fullPage: true });

    expect(failures).toEqual([]);
    await context.close();
  });
}
