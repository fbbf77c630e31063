"use client";

import dynamic from "next/dynamic";
import { useTranslations } from "next-intl";
import { useState } from "react";
import styles from "./profile-communities.module.css";

const CommunitiesModal = dynamic(() => import("./profile-communities-modal").then((m) => m.CommunitiesModal), { ssr: false });

/** «Все» of another person's communities block: a dialog with all their open communities (loaded on the first press). */
export function ProfileCommunitiesDialog({ accountId, count, name }: { accountId: number; count: number; name: string }) {
  const t = useTranslations("profile");
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" className={styles.all} onClick={() => setOpen(true)} data-testid="profile-communities-all" aria-label={t("communitiesOf", { name })}>
        {t("communitiesAll")}
      </button>
      {open ? <CommunitiesModal accountId={accountId} title={t("communitiesTitle", { count })} onClose={() => setOpen(false)} /> : null}
    </>
  );
}
