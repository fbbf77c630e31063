"use client";

import { useTranslations } from "next-intl";
import { useState } from "react";
import { CardHeader } from "@/components/ui/card";
import cardStyles from "@/components/ui/card.module.css";
import { EmptyState } from "@/components/ui/empty-state";
import { FileTextIcon } from "@/components/ui/icons";
import type { CardPage } from "@/lib/client/posts";
import type { ComposerViewer } from "./post-composer";
import { PostList } from "./post-list";
import styles from "./post-list.module.css";

type Props = {
  accountId: number;
  firstName: string;
  own: boolean;
  viewer: ComposerViewer;
  /** Page 0 of the wall, its cards rendered on the server (renderCardPage). */
  first: CardPage;
  className?: string;
};

/**
 * The wall of /profile and /profile/{id} (issue 9): 3 posts a page with "show more"; on the own wall
 * the composer comes first and scheduled posts show with their "will be published" line.
 */
export function ProfileWall({ accountId, firstName, own, viewer, first, className }: Props) {
  const t = useTranslations("profile");
  const tList = useTranslations("post.list");
  // Follows the list: deleting or publishing a post changes it without a reload (issue 24 item 18).
  const [count, setCount] = useState(first.totalElements);
  return (
    <section className={`${styles.wall} ${className ?? ""}`} aria-labelledby="profile-wall-title" data-testid="profile-wall">
      <div className={cardStyles.card}>
        <CardHeader title={<span id="profile-wall-title">{t("wallTitle")}</span>}>
          {count > 0 ? (
            <span className={styles.wallCount} data-testid="wall-count">
              {count}
            </span>
          ) : null}
        </CardHeader>
      </div>
      <PostList
        source={{ kind: "wall", accountId }}
        first={first}
        viewer={viewer}
        composer={own}
        paging="more"
        label={tList("wall")}
        onTotal={setCount}
        empty={
          <div className={cardStyles.card}>
            {own ? (
              <EmptyState icon={<FileTextIcon size={28} />} title={t("wallEmptyOwn")} text={t("wallEmptyOwnText")} />
            ) : (
              <EmptyState icon={<FileTextIcon size={28} />} title={t("wallEmpty")} text={t("wallEmptyText", { name: firstName })} />
            )}
          </div>
        }
      />
    </section>
  );
}
