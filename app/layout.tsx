import type { Metadata, Viewport } from "next";
import { getLocale, getTranslations } from "next-intl/server";
import { cookies, headers } from "next/headers";
import type { ReactNode } from "react";
import { ClientMessages } from "@/components/layout/client-messages";
import { Providers } from "@/components/layout/providers";
import { ServiceWorkerRegistration } from "@/components/layout/service-worker";
import { DEFAULT_LOCALE, isLocale } from "@/lib/i18n/config";
import { knownTimeZone, TIME_ZONE_COOKIE } from "@/lib/i18n/time-zone";
import { PWA_COLOURS } from "@/lib/pwa/colours";
import { manifestPath } from "@/lib/pwa/manifest";
import { GeistSans } from "./fonts";
import "./globals.css";

/**
 * The installable app's head (docs/adr/0119): the manifest in the page's language, the Apple touch icon
 * and home-screen title; Next writes `mobile-web-app-capable`, older iOS still reads the apple- name.
 */
export async function generateMetadata(): Promise<Metadata> {
  const locale = await getLocale();
  const t = await getTranslations("app");
  return {
    title: t("name"),
    description: t("tagline"),
    applicationName: t("name"),
    manifest: manifestPath(isLocale(locale) ? locale : DEFAULT_LOCALE),
    icons: { apple: "/icons/apple-touch-icon.png" },
    appleWebApp: { capable: true, title: t("name"), statusBarStyle: "default" },
    other: { "apple-mobile-web-app-capable": "yes" },
  };
}

export const viewport: Viewport = {
  width: "device-width",
  initialScale: 1,
  themeColor: [
    { media: "(prefers-color-scheme: light)", color: PWA_COLOURS.light.theme },
    { media: "(prefers-color-scheme: dark)", color: PWA_COLOURS.dark.theme },
  ],
};

/**
 * The document: <html lang> is the request's language (cookie, else the browser's, else Russian), so
 * the server-rendered page is already in the chosen language; next-themes sets data-theme before
 * paint, hence suppressHydrationWarning on <html> only. Only the sans font is loaded (not preloaded: app/fonts.ts):
 * no page uses a monospace face, so GeistMono is not shipped (issue 14 item 11). The client gets only
 * the messages its components translate: each layout and page below names its namespaces (docs/adr/0092).
 */
export default async function RootLayout({ children }: { children: ReactNode }) {
  const locale = await getLocale();
  // The page's CSP nonce (proxy.ts): next-themes' inline theme script must carry it.
  const nonce = (await headers()).get("x-nonce") ?? undefined;
  // The reader's zone, when the browser has told it: times render in it on the server (docs/adr/0102).
  const timeZone = knownTimeZone((await cookies()).get(TIME_ZONE_COOKIE)?.value);
  return (
    <html lang={locale} className={GeistSans.variable} suppressHydrationWarning>
      <body>
        <ClientMessages of="layout">
          <Providers nonce={nonce} timeZone={timeZone}>{children}</Providers>
        </ClientMessages>
        <ServiceWorkerRegistration />
      </body>
    </html>
  );
}
