import { getTranslations } from "next-intl/server";
import Link from "@/components/ui/link";
import { ButtonLink } from "@/components/ui/button";
import { ChevronRightIcon, GlobeIcon } from "@/components/ui/icons";
import { ImageIcon, UserPlusIcon } from "@/components/ui/icons-more";
import styles from "./registration-success.module.css";

/** The first step after sign-up: a photo, the city, friends; then the news. */
export async function RegistrationSuccessPanel() {
  const t = await getTranslations("auth");
  const steps = [
    { href: "/settings#profile-settings", icon: <ImageIcon size={20} />, title: t("firstStepPhoto"), text: t("firstStepPhotoText") },
    { href: "/settings#profile-settings", icon: <GlobeIcon size={20} />, title: t("firstStepCity"), text: t("firstStepCityText") },
    { href: "/friends/find", icon: <UserPlusIcon size={20} />, title: t("firstStepFriends"), text: t("firstStepFriendsText") },
  ];
  return (
    <nav aria-label={t("firstStepLabel")}>
      <ul className={styles.steps}>
        {steps.map((s) => (
          <li key={s.title}>
            <Link href={s.href} className={styles.step}>
              <span className={styles.icon} aria-hidden="true">
                {s.icon}
              </span>
              <span className={styles.body}>
                <span className={styles.title}>{s.title}</span>
                <span className={styles.text}>{s.text}</span>
              </span>
              <ChevronRightIcon size={18} aria-hidden="true" />
            </Link>
          </li>
        ))}
      </ul>
      <ButtonLink href="/" block large variant="secondary">
        {t("firstStepNews")}
      </ButtonLink>
    </nav>
  );
}
