import { getLocale, getTranslations } from "next-intl/server";
import Link from "@/components/ui/link";
import { Avatar } from "@/components/ui/avatar";
import { ButtonLink } from "@/components/ui/button";
import { Card, CardHeader } from "@/components/ui/card";
import { EmptyState } from "@/components/ui/empty-state";
import { UsersIcon } from "@/components/ui/icons";
import { personArgs } from "@/lib/i18n/person-name";
import type { ProfileFriends } from "@/lib/server/services/profiles/profile-friends";
import styles from "./profile.module.css";

/** The friends block of a profile: the count and a few of the newest friends, each linking to their page. */
export async function ProfileFriendsBlock({ friends, own, firstName }: { friends: ProfileFriends; own: boolean; firstName: string }) {
  const t = await getTranslations("profile");
  return (
    <Card aria-labelledby="profile-friends-title" data-testid="profile-friends">
      <CardHeader title={<span id="profile-friends-title">{t("friendsTitle")}</span>}>
        {own && friends.count > 0 ? (
          <Link href="/friends" className={styles.friendsLink}>
            {t("friendsCount", { count: friends.count })}
          </Link>
        ) : (
          <span className={styles.friendsCount}>{t("friendsCount", { count: friends.count })}</span>
        )}
      </CardHeader>
      {friends.friends.length > 0 ? (
        <ul className={styles.friendGrid}>
          {friends.friends.map((f) => (
            <li key={f.id}>
              <Link href={`/profile/${f.id}`} className={styles.friend}>
                <Avatar id={f.id} firstName={f.firstName} lastName={f.lastName} photo={f.photo} size={56} alt="" />
                <span className={styles.friendName}>{f.firstName}</span>
                <span className="visually-hidden">{` ${f.lastName}`}</span>
              </Link>
            </li>
          ))}
        </ul>
      ) : own ? (
        <EmptyState compact icon={<UsersIcon size={24} />} title={t("friendsEmptyOwn")} text={t("friendsEmptyOwnText")} headingLevel={3}>
          <ButtonLink href="/friends/find" variant="secondary">
            {t("friendsFind")}
          </ButtonLink>
        </EmptyState>
      ) : (
        <EmptyState compact icon={<UsersIcon size={24} />} title={t("friendsEmpty")} text={t("friendsEmptyText", personArgs({ firstName }, await getLocale()))} headingLevel={3} />
      )}
    </Card>
  );
}
