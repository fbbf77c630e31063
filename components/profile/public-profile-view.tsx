import { getLocale, getTranslations } from "next-intl/server";
import { Avatar } from "@/components/ui/avatar";
import { ButtonLink } from "@/components/ui/button";
import { Card, CardHeader } from "@/components/ui/card";
import { EmptyState } from "@/components/ui/empty-state";
import { LockIcon } from "@/components/ui/icons-more";
import { personArgs } from "@/lib/i18n/person-name";
import { loginHref, routeByName } from "@/lib/routes";
import type { PublicProfile } from "@/lib/server/services/profiles/public-profile";
import styles from "./profile.module.css";

/**
 * The public shell of /profile/{id} for a signed-out visitor or a crawler (docs/adr/0014): name, photo,
 * city and about, and a way in whose sign-in link returns to this very profile. Nothing else of the
 * account is read, so nothing else can be shown. A closed page (docs/adr/0125) says so and shows no city or about.
 */
export async function PublicProfileView({ profile }: { profile: PublicProfile }) {
  const t = await getTranslations("profile");
  const common = await getTranslations("common");
  const signIn = loginHref({ route: routeByName("ProfileId")!, params: { id: String(profile.id) } });
  return (
    <>
      <Card className={styles.head} data-testid="public-profile">
        <div className={styles.cover} />
        <div className={styles.identity}>
          <div className={styles.photo}>
            <Avatar {...profile} size={128} alt={common("avatarAlt", { name: profile.fullName })} />
          </div>
          <div className={styles.names}>
            <h1 className={styles.name}>{profile.fullName}</h1>
            {profile.city ? <p className={styles.facts}>{profile.city}</p> : null}
          </div>
        </div>
      </Card>
      {profile.about ? (
        <Card>
          <CardHeader title={t("about")} />
          <p className={styles.publicAbout}>{profile.about}</p>
        </Card>
      ) : null}
      <Card>
        <EmptyState
          icon={<LockIcon size={28} />}
          title={profile.isClosed ? t("closedTitle") : t("publicPromptTitle")}
          text={t("publicPromptText", personArgs(profile, await getLocale()))}
        >
          <ButtonLink href={signIn}>{common("signIn")}</ButtonLink>
          <ButtonLink href="/registration" variant="secondary">
            {common("register")}
          </ButtonLink>
        </EmptyState>
      </Card>
    </>
  );
}
