import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import * as iconRoute from "@/app/icons/[file]/route";
import * as manifestRoute from "@/app/manifest/[file]/route";
import en from "@/messages/en.json";
import ru from "@/messages/ru.json";
import { buildServiceWorker } from "@/lib/pwa/build-service-worker";
import { PWA_ICONS } from "@/lib/pwa/manifest";
import { offlinePageHtml, readerLocale } from "@/lib/pwa/worker/offline-page";

// Issue 25 section 1 (docs/adr/0119): the manifest in each language, the icons drawn from app/icon.svg,
// the offline page's language and the service worker bundle of a build.

const params = (file: string) => ({ params: Promise.resolve({ file }) });

describe("the web app manifest", () => {
  it("is built for both languages and nothing else", () => {
    expect(manifestRoute.generateStaticParams()).toEqual([{ file: "ru.webmanifest" }, { file: "en.webmanifest" }]);
    expect(manifestRoute.dynamicParams).toBe(false);
  });

  for (const [locale, messages] of [["ru", ru], ["en", en]] as const) {
    it(`names Krug in ${locale} and is installable as a standalone app`, async () => {
      const res = await manifestRoute.GET(new Request(`http://x/manifest/${locale}.webmanifest`), params(`${locale}.webmanifest`));
      expect(res.headers.get("content-type")).toContain("application/manifest+json");
      const manifest = await res.json();
      expect(manifest).toMatchObject({
        id: "/",
        name: messages.app.name,
        short_name: messages.app.name,
        description: messages.app.tagline,
        lang: locale,
        start_url: "/",
        scope: "/",
        display: "standalone",
        theme_color: "#ffffff",
        background_color: "#edeef0",
      });
      expect(manifest.icons).toEqual([
        { src: "/icons/icon-192.png", sizes: "192x192", type: "image/png", purpose: "any" },
        { src: "/icons/icon-512.png", sizes: "512x512", type: "image/png", purpose: "any" },
        { src: "/icons/maskable-512.png", sizes: "512x512", type: "image/png", purpose: "maskable" },
      ]);
    });
  }
});

describe("the icons", () => {
  it("are the four files the manifest and the head name", () => {
    expect(iconRoute.generateStaticParams().map((p) => p.file)).toEqual(["icon-192.png", "icon-512.png", "maskable-512.png", "apple-touch-icon.png"]);
  });

  for (const [file, { size, maskable }] of Object.entries(PWA_ICONS)) {
    it(`${file} is a ${size} px PNG drawn from the logo`, async () => {
      const res = await iconRoute.GET(new Request(`http://x/icons/${file}`), params(file));
      expect(res.headers.get("content-type")).toBe("image/png");
      const image = sharp(Buffer.from(await res.arrayBuffer()));
      expect(await image.metadata()).toMatchObject({ format: "png", width: size, height: size });
      const { data, info } = await image.ensureAlpha().raw().toBuffer({ resolveWithObject: true });
      const pixel = (x: number, y: number) => [...data.subarray((y * info.width + x) * 4, (y * info.width + x) * 4 + 4)];
      // The middle of the ring's dot at the top: white in every variant (the logo is drawn, not blank).
      const dotY = maskable ? Math.round(size * (0.2 + 0.6 * (7.8 / 32))) : Math.round(size * (7.8 / 32));
      expect(pixel(Math.round(size / 2), dotY)).toEqual([255, 255, 255, 255]);
      if (maskable) {
        // Full bleed: a launcher's mask may cut anywhere outside the safe circle and still shows the logo's blue.
        expect(pixel(0, 0)).toEqual([0x2a, 0x6f, 0xd1, 255]);
        expect(pixel(Math.round(size * 0.1), Math.round(size / 2))).toEqual([0x2a, 0x6f, 0xd1, 255]);
      } else {
        // The logo's own rounded corner: transparent.
        expect(pixel(0, 0)[3]).toBe(0);
      }
    });
  }
});

describe("the offline page", () => {
  it("speaks the reader's language with the texts of messages/*.json", () => {
    const ruPage = offlinePageHtml("ru", "http://x/im?a=<b>");
    expect(ruPage).toContain('<html lang="ru">');
    expect(ruPage).toContain(ru.offline.title);
    expect(ruPage).toContain(ru.offline.retry);
    expect(ruPage).toContain('href="http://x/im?a=&lt;b&gt;"');
    const enPage = offlinePageHtml("en", "http://x/");
    expect(enPage).toContain(en.offline.title);
    expect(enPage).toContain(en.offline.body);
    expect(enPage).not.toContain("<script");
  });

  it("takes the language as the app does: the saved cookie, else the browser's, else Russian", async () => {
    const cookie = (value: string | null) => ({ get: async () => (value === null ? null : { value }) });
    expect(await readerLocale({ cookieStore: cookie("en"), navigator: { language: "ru-RU" } })).toBe("en");
    expect(await readerLocale({ cookieStore: cookie(null), navigator: { language: "en-GB" } })).toBe("en");
    expect(await readerLocale({ navigator: { language: "de-DE" } })).toBe("ru");
  });
});

describe("the service worker bundle", () => {
  it("precaches exactly the build's static files, under their public URLs", async () => {
    const dist = await mkdtemp(path.join(tmpdir(), "krug-sw-"));
    try {
      await mkdir(path.join(dist, "static", "chunks"), { recursive: true });
      await writeFile(path.join(dist, "static", "chunks", "app-abc123.js"), "console.log(1)");
      await writeFile(path.join(dist, "static", "chunks", "app-abc123.js.map"), "{}");
      await mkdir(path.join(dist, "server"), { recursive: true });
      await writeFile(path.join(dist, "server", "page.js"), "secret");
      await buildServiceWorker({ projectDir: process.cwd(), distDir: dist });
      const sw = await readFile(path.join(dist, "sw.js"), "utf8");
      // The precache list the build put in place of self.__SW_MANIFEST.
      const urls = [...sw.matchAll(/\{url:"([^"]*)",revision:null\}/g)].map((m) => m[1]);
      expect(urls).toEqual(["/_next/static/chunks/app-abc123.js"]);
      expect(sw).not.toContain("__SW_MANIFEST");
    } finally {
      await rm(dist, { recursive: true, force: true });
    }
  });
});
