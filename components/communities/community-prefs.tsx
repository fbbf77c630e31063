"use client";

import { useTranslations } from "next-intl";
import { useState } from "react";
import { FormAlert } from "@/components/ui/text-field";
import { api } from "@/lib/client/api";
import type { CommunityDto } from "@/lib/validation/communities-shared";
import { useFailureText } from "./community-text";
import styles from "./communities.module.css";

type Pref = "inFeed" | "notifyPosts";

/**
 * A member's two switches on a community's page (issue 42): its posts in their news feed
 * (PUT communities/{id}/feed {inFeed}) and a notification of each new post (PUT …/notifications {posts}).
 * A switch moves at once and goes back if the server refuses.
 */
export function CommunityPrefs({ community }: { community: CommunityDto }) {
  const t = useTranslations("communities");
  const failureText = useFailureText();
  const [values, setValues] = useState({ inFeed: community.inFeed, notifyPosts: community.notifyPosts });
  const [pending, setPending] = useState<Pref | null>(null);
  const [failure, setFailure] = useState<string | null>(null);

  async function flip(pref: Pref, next: boolean) {
    setValues((v) => ({ ...v, [pref]: next }));
    setPending(pref);
    setFailure(null);
    try {
      if (pref === "inFeed") await api(`communities/${community.id}/feed`, { method: "PUT", body: { inFeed: next } });
      else await api(`communities/${community.id}/notifications`, { method: "PUT", body: { posts: next } });
    } catch (err) {
      setValues((v) => ({ ...v, [pref]: !next }));
      setFailure(failureText(err));
    } finally {
      setPending(null);
    }
  }

  const rows: { pref: Pref; label: string }[] = [
    { pref: "inFeed", label: t("prefInFeed") },
    { pref: "notifyPosts", label: t("prefNotifyPosts") },
  ];
  return (
    <section className={styles.prefs} aria-label={t("prefsLabel")} data-testid="community-prefs">
      <ul className={styles.prefList}>
        {rows.map(({ pref, label }) => (
          <li key={pref} className={styles.prefRow}>
            <label htmlFor={`community-${pref}`} className={styles.prefLabel}>
              {label}
            </label>
            <input
              id={`community-${pref}`}
              type="checkbox"
              role="switch"
              className={styles.switch}
              checked={values[pref]}
              aria-busy={pending === pref}
              disabled={pending === pref}
              onChange={(e) => void flip(pref, e.target.checked)}
              data-testid={`community-pref-${pref}`}
            />
          </li>
        ))}
      </ul>
      {failure ? <FormAlert>{failure}</FormAlert> : null}
    </section>
  );
}
