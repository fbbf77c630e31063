import "server-only";
import type { Metadata } from "next";
import { getLocale, getTranslations } from "next-intl/server";
import { notFound } from "next/navigation";
import { cache } from "react";
import { ButtonLink } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { EmptyState } from "@/components/ui/empty-state";
import { LockIcon } from "@/components/ui/icons-more";
import { getDb } from "@/db/client";
import { routeMetadata } from "@/lib/i18n/metadata";
import { loginHref, pathOf, routeByName } from "@/lib/routes";
import { env } from "@/lib/server/env";
import { publicCommunity, type PublicCommunity } from "@/lib/server/services/communities/public";
import { CommunityAvatar } from "./community-avatar";
import styles from "./communities.module.css";

/** Search engines show about 160 characters of a description. */
const DESCRIPTION_MAX = 160;

function clip(text: string): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length <= DESCRIPTION_MAX ? flat : `${flat.slice(0, DESCRIPTION_MAX - 1).trimEnd()}…`;
}

/** The canonical address of a community: PUBLIC_URL, never the address the request happened to use. */
export function communityUrl(id: number): string {
  return `${env().PUBLIC_URL}/community/${id}`;
}

/** The public shell's data, shared by the metadata and the page of one request; null when there is none. */
const loadPublicCommunity = cache(async (id: string) => (pathOf("CommunityId", { id }) ? publicCommunity(getDb(), id) : null));

/**
 * <title>, description, canonical link and Open Graph tags of /community/{id} for a signed-out visitor or a
 * crawler, made only of what the shell shows; a closed community's ask not to be indexed.
 */
export async function publicCommunityMetadata(id: string): Promise<Metadata> {
  const community = await loadPublicCommunity(id);
  if (!community) return { ...(await routeMetadata("NotFound")), robots: { index: false, follow: false } };
  const t = await getTranslations("communityPublic");
  const members = (await getTranslations("communities"))("membersCount", { count: community.membersCount });
  const product = (await getTranslations("app"))("name");
  const locale = await getLocale();
  const url = communityUrl(community.id);
  const title = t("title", { name: community.name, product });
  const description = community.description.trim() ? clip(community.description) : t("description", { name: community.name, product, members });
  const image = new URL(community.photo ?? "/og-profile.png", `${env().PUBLIC_URL}/`).toString();
  return {
    title,
    description,
    alternates: { canonical: url },
    openGraph: { type: "website", title, description, url, siteName: product, locale: locale === "en" ? "en_US" : "ru_RU", images: [{ url: image, alt: community.name }] },
    twitter: { card: "summary", title, description, images: [image] },
    ...(community.type === "CLOSED" ? { robots: { index: false, follow: true } } : {}),
  };
}

/**
 * The public shell of /community/{id} for a signed-out visitor or a crawler (issue 42, as the profile's,
 * docs/adr/0014): an open community's cover, photo, name, members count and description; a closed one's
 * name, description and count; and a way in whose sign-in link returns here. Nothing else is read.
 */
export async function PublicCommunityView({ community, signIn }: { community: PublicCommunity; signIn: string }) {
  const t = await getTranslations("communityPublic");
  const c = await getTranslations("communities");
  const common = await getTranslations("common");
  const closed = community.type === "CLOSED";
  return (
    <div className={styles.stack}>
      <Card className={styles.head} data-testid="public-community">
        <div className={styles.cover}>
          {community.cover ? (
            // Covers come from our own storage in any size (as the community page's).
            // eslint-disable-next-line @next/next/no-img-element
            <img src={community.cover} alt={c("coverAlt")} className={styles.coverImage} />
          ) : null}
        </div>
        <div className={styles.identity}>
          <div className={styles.photo}>
            <CommunityAvatar id={community.id} name={community.name} photo={community.photo} size={104} alt={c("photoAlt", { name: community.name })} />
          </div>
          <div className={styles.names}>
            <h1 className={styles.name}>{community.name}</h1>
            <p className={styles.facts}>
              {closed ? `${c("kind.CLOSED")} · ` : null}
              <span data-testid="public-community-members">{c("membersCount", { count: community.membersCount })}</span>
            </p>
          </div>
        </div>
        {community.description ? <p className={styles.description}>{community.description}</p> : null}
      </Card>
      <Card>
        <EmptyState
          icon={<LockIcon size={28} />}
          title={closed ? t("closedPromptTitle") : t("promptTitle")}
          text={closed ? t("closedPromptText") : t("promptText", { name: community.name })}
        >
          <ButtonLink href={signIn}>{common("signIn")}</ButtonLink>
          <ButtonLink href="/registration" variant="secondary">
            {common("register")}
          </ButtonLink>
        </EmptyState>
      </Card>
    </div>
  );
}

/** The page for a signed-out visitor: the shell, or the not-found page (the proxy has set the 404 status). */
export async function SignedOutCommunity({ id }: { id: string }) {
  const community = await loadPublicCommunity(id);
  if (!community) notFound();
  const signIn = loginHref({ route: routeByName("CommunityId")!, params: { id: String(community.id) } });
  return <PublicCommunityView community={community} signIn={signIn} />;
}
