import "server-only";
import type { Metadata } from "next";
import { getLocale, getTranslations } from "next-intl/server";
import { env } from "@/lib/server/env";
import type { PublicProfile } from "@/lib/server/services/profiles/public-profile";

/** Search engines show about 160 characters of a description. */
const DESCRIPTION_MAX = 160;

function clip(text: string): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length <= DESCRIPTION_MAX ? flat : `${flat.slice(0, DESCRIPTION_MAX - 1).trimEnd()}…`;
}

/** The canonical address of a profile: PUBLIC_URL, never the address the request happened to use. */
export function profileUrl(id: number): string {
  return `${env().PUBLIC_URL}/profile/${id}`;
}

/**
 * <title>, meta description, canonical link and Open Graph tags of /profile/{id}, made only of what the
 * public shell shows (name, photo, city, about), so no tag can carry more than the page.
 */
export async function publicProfileMetadata(profile: PublicProfile): Promise<Metadata> {
  const t = await getTranslations("profile");
  const product = (await getTranslations("app"))("name");
  const locale = await getLocale();
  const url = profileUrl(profile.id);
  const title = t("publicTitle", { name: profile.fullName, product });
  const description = profile.about?.trim()
    ? clip(profile.about)
    : profile.city
      ? t("publicDescriptionCity", { name: profile.fullName, city: profile.city })
      : t("publicDescription", { name: profile.fullName });
  const image = new URL(profile.photo ?? "/og-profile.png", `${env().PUBLIC_URL}/`).toString();
  return {
    title,
    description,
    alternates: { canonical: url },
    openGraph: {
      type: "profile",
      title,
      description,
      url,
      siteName: product,
      locale: locale === "en" ? "en_US" : "ru_RU",
      firstName: profile.firstName,
      lastName: profile.lastName,
      images: [{ url: image, alt: profile.fullName }],
    },
    twitter: { card: "summary", title, description, images: [image] },
    // A closed page is left out of the sitemap and asks search engines not to index it (its owner chose so).
    ...(profile.isClosed ? { robots: { index: false, follow: false } } : {}),
  };
}
