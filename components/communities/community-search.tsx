"use client";

import { useTranslations } from "next-intl";
import { useEffect, useId, useState } from "react";
import { SearchIcon } from "@/components/ui/icons-more";
import { Spinner } from "@/components/ui/spinner";
import { api } from "@/lib/client/api";
import { COMMUNITY_QUERY_MAX, COMMUNITY_QUERY_MIN, type CommunityDto } from "@/lib/validation/communities-shared";
import type { Paged } from "@/lib/validation/friends-shared";
import { CommunityRow } from "./community-row";
import { useFailureText } from "./community-text";
import styles from "./communities.module.css";

const DELAY_MS = 300;

/** Search over communities by name (GET communities?query=), from COMMUNITY_QUERY_MIN letters, as one types. */
export function CommunitySearch() {
  const t = useTranslations("communities");
  const failureText = useFailureText();
  const id = useId();
  const [query, setQuery] = useState("");
  const [answer, setAnswer] = useState<{ query: string; page: Paged<CommunityDto> } | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const trimmed = query.trim();
  const active = [...trimmed].length >= COMMUNITY_QUERY_MIN;

  useEffect(() => {
    if (!active) return;
    const controller = new AbortController();
    const timer = setTimeout(() => {
      api<Paged<CommunityDto>>(`communities?${new URLSearchParams({ query: trimmed, size: "20" })}`, { signal: controller.signal })
        .then((page) => {
          setAnswer({ query: trimmed, page });
          setFailure(null);
        })
        .catch((err: unknown) => {
          if (controller.signal.aborted) return;
          setFailure(failureText(err));
        });
    }, DELAY_MS);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
    // failureText is a new function each render; the search depends on the text only.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [trimmed, active]);

  const current = active && answer?.query === trimmed ? answer.page : null;
  return (
    <div className={styles.search} role="search">
      <label htmlFor={id} className="visually-hidden">
        {t("searchLabel")}
      </label>
      <div className={styles.searchBox}>
        <SearchIcon size={18} />
        <input
          id={id}
          type="search"
          className={styles.searchInput}
          value={query}
          maxLength={COMMUNITY_QUERY_MAX}
          placeholder={t("searchPlaceholder")}
          onChange={(e) => setQuery(e.target.value)}
          autoComplete="off"
          data-testid="community-search"
        />
      </div>
      {!active ? (
        trimmed ? <p className={styles.searchNote}>{t("searchMin", { count: COMMUNITY_QUERY_MIN })}</p> : null
      ) : failure ? (
        <p className={styles.searchNote} role="alert">
          {failure}
        </p>
      ) : current === null ? (
        <div className={styles.searchNote}>
          <Spinner label={t("searching")} />
        </div>
      ) : current.content.length === 0 ? (
        <p className={styles.searchNote} aria-live="polite">
          {t("searchNothing")}
        </p>
      ) : (
        <>
          <p className={styles.searchNote} aria-live="polite">
            {t("searchFound", { count: current.totalElements })}
          </p>
          <ul className={styles.list} data-testid="community-search-results">
            {current.content.map((c) => (
              <CommunityRow key={c.id} community={c} />
            ))}
          </ul>
        </>
      )}
    </div>
  );
}
