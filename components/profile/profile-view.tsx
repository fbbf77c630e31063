import { getFormatter, getLocale, getTranslations } from "next-intl/server";
import { BirthdayMark } from "@/components/friends/birthday-mark";
import { Avatar } from "@/components/ui/avatar";
import { Lightbox, type LightboxImage } from "@/components/ui/lightbox";
import { ButtonLink } from "@/components/ui/button";
import { Card, CardHeader } from "@/components/ui/card";
import { EmptyState } from "@/components/ui/empty-state";
import { GlobeIcon, SettingsIcon } from "@/components/ui/icons";
import { ExternalLinkIcon, LockIcon } from "@/components/ui/icons-more";
import type { ComposerViewer } from "@/components/post/post-composer";
import { renderCardPage } from "@/components/post/card-page";
import { ProfileWall } from "@/components/post/profile-wall";
import { DEFAULT_LOCALE, isLocale } from "@/lib/i18n/config";
import { personArgs } from "@/lib/i18n/person-name";
import type { AccountDto } from "@/lib/server/services/accounts/account-dto";
import type { AccountSummary } from "@/lib/server/services/accounts/viewer-summary";
import type { ProfileFriends } from "@/lib/server/services/profiles/profile-friends";
import { EMOJI_STATUS_PRESETS, type EmojiStatus } from "@/lib/validation/account";
import type { PostPage } from "@/lib/validation/post";
import { placeOf } from "./place";
import { ProfileFriendsBlock } from "./profile-friends";
import { ProfileCommunitiesBlock } from "./profile-communities";
import { ProfileRelation } from "./profile-relation";
import { ReportButton } from "@/components/report/report-menu";
import report from "@/components/report/report.module.css";
import styles from "./profile.module.css";

type Props = {
  account: AccountDto;
  role: AccountSummary["role"];
  own: boolean;
  /** The friends block and page 0 of the wall; null for a page closed to the viewer (docs/adr/0125). */
  friends: ProfileFriends | null;
  /** Page 0 of the account's wall and the signed-in viewer (for the composer on the own wall). */
  wall: PostPage | null;
  viewer: ComposerViewer;
};

const isEmojiStatus = (value: string | null): value is EmojiStatus => value !== null && value in EMOJI_STATUS_PRESETS;

/**
 * A signed-in viewer's profile page (own or another user's): cover, photo, name with the emoji status,
 * online or last seen, age and place, the relation actions, the information card, the wall and the
 * friends block. Everything comes from the services; nothing here is fetched in the browser. A page closed
 * to the viewer (docs/adr/0125) shows the head (name, photo, actions) and the "private profile" card only.
 */
export async function ProfileView({ account, role, own, friends, wall, viewer }: Props) {
  const t = await getTranslations("profile");
  const common = await getTranslations("common");
  const format = await getFormatter();
  const locale = await getLocale();
  const place = placeOf(account, isLocale(locale) ? locale : DEFAULT_LOCALE);
  const emoji = isEmojiStatus(account.emojiStatus) ? account.emojiStatus : null;
  // Russian sentences decline the name and take the verb in the person's gender (ADR 0051).
  const person = personArgs(account, locale);
  // The owner is looking at the page, so they are online whatever the socket last reported. Across a
  // block (either way) the page shows no presence at all (issue 24 item 20).
  const online = own || account.isOnline;
  // A page closed to the viewer shows no presence either (docs/adr/0125): the API sends none.
  // A person of another server (issue 43): their address there and their page; no presence (we know none).
  const remote = account.remoteUrl && account.fediverseAddress ? { url: account.remoteUrl, address: account.fediverseAddress, host: account.fediverseAddress.split("@").pop()! } : null;
  const remoteCounts = (
    [
      ["remoteCountFollowers", account.remoteCounts?.followers],
      ["remoteCountFollowing", account.remoteCounts?.following],
      ["remoteCountPosts", account.remoteCounts?.posts],
    ] as const
  ).filter((entry): entry is readonly [(typeof entry)[0], number] => typeof entry[1] === "number");
  const showPresence = !remote && (own || (!account.isClosed && account.statusCode !== "REJECTING" && account.statusCode !== "BLOCKED"));
  const presence = online
    ? t("online")
    : account.lastOnlineTime
      ? t("lastSeen", { ...person, time: format.relativeTime(new Date(account.lastOnlineTime), new Date()) })
      : t("offline");
  const facts = [account.age !== null ? t("age", { age: account.age }) : "", place].filter(Boolean);
  const birthday = account.birthDate
    ? format.dateTime(new Date(`${account.birthDate}T00:00:00Z`), { day: "numeric", month: "long", year: "numeric", timeZone: "UTC" })
    : null;

  // The photo and the cover open full-size, one after the other (issue 27).
  const gallery: LightboxImage[] = [
    ...(account.photo ? [{ src: account.photo, alt: common("avatarAlt", { name: account.fullName }) }] : []),
    ...(account.profileCover ? [{ src: account.profileCover, alt: t("coverAlt") }] : []),
  ];

  return (
    <>
      <Card className={styles.head}>
        <div className={styles.cover}>
          {account.profileCover ? (
            <Lightbox images={gallery} start={gallery.length - 1} className={styles.coverButton}>
              {/* Covers come from our own storage in any size (see Avatar). */}
              {/* eslint-disable-next-line @next/next/no-img-element */}
              <img src={account.profileCover} alt={t("coverAlt")} className={styles.coverImage} />
            </Lightbox>
          ) : null}
        </div>
        <div className={styles.identity}>
          <div className={styles.photo}>
            {account.photo ? (
              <Lightbox images={gallery} start={0} className={styles.photoButton}>
                <Avatar {...account} size={128} alt={common("avatarAlt", { name: account.fullName })} />
              </Lightbox>
            ) : (
              <Avatar {...account} size={128} alt={common("avatarAlt", { name: account.fullName })} />
            )}
          </div>
          <div className={styles.names}>
            <div className={styles.nameRow}>
              <h1 className={styles.name}>{account.fullName}</h1>
              {emoji ? (
                <span className={styles.emoji} role="img" aria-label={t("emojiStatus", { status: t(`emoji.${emoji}`, person) })} title={t(`emoji.${emoji}`, person)}>
                  {EMOJI_STATUS_PRESETS[emoji]}
                </span>
              ) : null}
              {remote ? (
                <span className={styles.remoteBadge} title={t("remoteBadgeTitle")} data-testid="profile-remote-badge">
                  <GlobeIcon size={14} />
                  {t("remoteBadge")}
                </span>
              ) : null}
            </div>
            {account.statusCode === "FRIEND" && account.birthDate ? <BirthdayMark birthday={account.birthDate.slice(5)} /> : null}
            {showPresence ? (
              <p className={styles.presence} data-testid="presence">
                {online ? <span className={styles.onlineDot} aria-hidden="true" /> : null}
                {presence}
              </p>
            ) : null}
            {facts.length > 0 ? (
              <p className={styles.facts} data-testid="profile-facts">
                {facts.join(" · ")}
              </p>
            ) : null}
            {remote ? (
              <p className={styles.remoteLine} data-testid="profile-remote">
                <span className="visually-hidden">{t("remoteAddress")} </span>
                <span className={styles.remoteAddress} translate="no">
                  @{remote.address}
                </span>
                <a href={remote.url} target="_blank" rel="noopener nofollow ugc" className={styles.remoteOpen} data-testid="profile-remote-open">
                  {t("remoteOpen")}
                  <ExternalLinkIcon size={14} />
                </a>
              </p>
            ) : account.fediverseAddress ? (
              <p className={styles.facts} data-testid="profile-fediverse" title={t("fediverseTitle")}>
                {t("fediverse")} <span translate="no">@{account.fediverseAddress}</span>
              </p>
            ) : null}
            {role !== "USER" ? <p className={styles.role}>{role === "ADMIN" ? t("roleAdmin") : t("roleModerator")}</p> : null}
          </div>
          <div className={styles.actions}>
            {own ? (
              <ButtonLink href="/settings" variant="secondary" className={styles.edit}>
                <SettingsIcon size={18} />
                {t("edit")}
              </ButtonLink>
            ) : (
              <ProfileRelation
                accountId={account.id}
                firstName={account.firstName}
                statusCode={account.statusCode}
                privacy={{ canMessage: account.canMessage, canRequestFriend: account.canRequestFriend ?? true }}
                remote={remote !== null}
              />
            )}
          </div>
          {own ? null : <ReportButton target={{ type: "ACCOUNT", id: account.id }} className={report.textAction} withIcon />}
        </div>
      </Card>

      {account.isClosed || !friends || !wall ? (
        <Card data-testid="profile-closed">
          <EmptyState
            icon={<LockIcon size={28} />}
            title={t("closedTitle")}
            // The invitation only where "add friend" is offered: no relation or a subscription either way.
            text={account.canRequestFriend !== false && [null, "SUBSCRIBED", "WATCHING"].includes(account.statusCode) ? t("closedText") : t("closedTextNoRequest")}
          />
        </Card>
      ) : (
        <div className={styles.columns}>
          <Card className={styles.infoArea} aria-labelledby="profile-info-title">
            <CardHeader title={<span id="profile-info-title">{t("infoTitle")}</span>} />
            {birthday || place || account.about ? (
              <dl className={styles.info}>
                {birthday ? (
                  <div className={styles.infoRow}>
                    <dt>{t("birthday")}</dt>
                    <dd>{birthday}</dd>
                  </div>
                ) : null}
                {place ? (
                  <div className={styles.infoRow}>
                    <dt>{t("place")}</dt>
                    <dd>{place}</dd>
                  </div>
                ) : null}
                {account.about ? (
                  <div className={styles.infoRow}>
                    <dt>{t("about")}</dt>
                    <dd className={styles.about}>{account.about}</dd>
                  </div>
                ) : null}
              </dl>
            ) : (
              <p className={styles.infoEmpty}>{own ? t("infoEmptyOwn") : t("infoEmpty", person)}</p>
            )}
          </Card>
          <ProfileWall className={styles.wallArea} accountId={account.id} firstName={account.firstName} own={own} viewer={viewer} first={renderCardPage(wall, viewer.id)} />
          <aside className={styles.side}>
            {remote ? (
              // Their friends and communities live on their own server: the side says where, and links there.
              <Card aria-labelledby="profile-remote-title" data-testid="profile-remote-side">
                <CardHeader title={<span id="profile-remote-title">{t("remoteSideTitle")}</span>} />
                <div className={styles.remoteSide}>
                  <p>{t("remoteSideText", { name: account.fullName, host: remote.host })}</p>
                  {remoteCounts.length > 0 ? (
                    // Their counts as their server states them: what a profile shows, read when they were first met.
                    <ul className={styles.remoteCounts} data-testid="profile-remote-counts">
                      {remoteCounts.map(([key, count]) => (
                        <li key={key}>{t(key, { count })}</li>
                      ))}
                    </ul>
                  ) : null}
                  <ButtonLink href={remote.url} target="_blank" rel="noopener nofollow ugc" variant="secondary" className={styles.remoteSideButton}>
                    {t("remoteOpen")}
                    <ExternalLinkIcon size={16} />
                  </ButtonLink>
                </div>
              </Card>
            ) : (
              <>
                <ProfileFriendsBlock friends={friends} own={own} firstName={account.firstName} />
                <ProfileCommunitiesBlock accountId={account.id} own={own} name={`${account.firstName} ${account.lastName}`} />
              </>
            )}
          </aside>
        </div>
      )}
    </>
  );
}
