import en from "@/messages/en.json";
import ru from "@/messages/ru.json";
import { type Locale } from "@/lib/i18n/config";
import { SHARE_ACTION, SHARE_FIELDS, SHARE_PHOTO_TYPES } from "@/lib/validation/share";
import { PWA_COLOURS } from "./colours";
import { MESSAGES_URL, NEW_POST_URL } from "./manifest-urls";


/** The icons made from app/icon.svg at build time (app/icons/[file]/route.ts), by file name. */
export const PWA_ICONS = {
  "icon-192.png": { size: 192, maskable: false },
  "icon-512.png": { size: 512, maskable: false },
  "maskable-512.png": { size: 512, maskable: true },
  "apple-touch-icon.png": { size: 180, maskable: false },
} as const;
export type PwaIconName = keyof typeof PWA_ICONS;

/** Where a language's manifest is served: one static file per language (docs/adr/0119). */
export function manifestPath(locale: Locale): string {
  return `/manifest/${locale}.webmanifest`;
}

type WebManifest = {
  id: string;
  name: string;
  short_name: string;
  description: string;
  lang: Locale;
  dir: "ltr";
  start_url: string;
  scope: string;
  display: "standalone";
  theme_color: string;
  background_color: string;
  icons: { src: string; sizes: string; type: "image/png"; purpose: "any" | "maskable" }[];
  share_target: {
    action: string;
    method: "POST";
    enctype: "multipart/form-data";
    params: { title: string; text: string; url: string; files: { name: string; accept: string[] }[] };
  };
  shortcuts: { name: string; short_name: string; url: string; icons: { src: string; sizes: string; type: "image/png" }[] }[];
};

/**
 * The web app manifest in one language. The id, start URL and scope are the same in both, so an
 * installed Krug stays one app when its reader switches languages. A manifest names one theme and one
 * background colour: the light ones; the dark theme colour reaches the browser through the page's
 * theme-color meta tags (app/layout.tsx).
 */
export function webManifest(locale: Locale): WebManifest {
  const app = (locale === "en" ? en : ru).app;
  return {
    id: "/",
    name: app.name,
    short_name: app.name,
    description: app.tagline,
    lang: locale,
    dir: "ltr",
    start_url: "/",
    scope: "/",
    display: "standalone",
    theme_color: PWA_COLOURS.light.theme,
    background_color: PWA_COLOURS.light.background,
    icons: (Object.keys(PWA_ICONS) as PwaIconName[])
      .filter((name) => name !== "apple-touch-icon.png")
      .map((name) => ({
        src: `/icons/${name}`,
        sizes: `${PWA_ICONS[name].size}x${PWA_ICONS[name].size}`,
        type: "image/png",
        purpose: PWA_ICONS[name].maskable ? "maskable" : "any",
      })),
    // The share sheet (docs/adr/0179): photos need a multipart POST, which the service worker receives
    // (lib/pwa/worker/share-target.ts).
    share_target: {
      action: SHARE_ACTION,
      method: "POST",
      enctype: "multipart/form-data",
      params: { title: SHARE_FIELDS.title, text: SHARE_FIELDS.text, url: SHARE_FIELDS.url, files: [{ name: SHARE_FIELDS.photos, accept: [...SHARE_PHOTO_TYPES] }] },
    },
    shortcuts: [
      { name: app.shortcuts.messages, short_name: app.shortcuts.messages, url: MESSAGES_URL, icons: [{ src: "/icons/icon-192.png", sizes: "192x192", type: "image/png" }] },
      { name: app.shortcuts.newPost, short_name: app.shortcuts.newPost, url: NEW_POST_URL, icons: [{ src: "/icons/icon-192.png", sizes: "192x192", type: "image/png" }] },
    ],
  };
}
