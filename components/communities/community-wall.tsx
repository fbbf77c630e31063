"use client";

import { useTranslations } from "next-intl";
import { useState } from "react";
import { PostList } from "@/components/post/post-list";
import type { ComposerViewer } from "@/components/post/post-composer";
import listStyles from "@/components/post/post-list.module.css";
import { CardHeader } from "@/components/ui/card";
import cardStyles from "@/components/ui/card.module.css";
import { EmptyState } from "@/components/ui/empty-state";
import { FileTextIcon } from "@/components/ui/icons";
import type { CardPage } from "@/lib/client/posts";
import type { CommunityDto } from "@/lib/validation/communities-shared";
import { isAdminRole } from "./community-kind";

type Props = {
  community: CommunityDto;
  viewer: ComposerViewer;
  /** Page 0 of the wall, its cards rendered on the server (renderCardPage). */
  first: CardPage;
};

/**
 * A community's wall (issue 42), as a person's (components/post/profile-wall.tsx): the composer for those
 * who may post there — with «От имени сообщества» for its owner and admins, on at first on an ADMINS wall —
 * then its posts, 3 a page with "show more", and the "new posts" bar while it is open: a post of another
 * member or of the community appears as it does in the news feed (asked every 30 s and on focus; a wall of
 * 100,000 members sends no frame per post).
 */
export function CommunityWall({ community, viewer, first }: Props) {
  const t = useTranslations("communities");
  const tList = useTranslations("post.list");
  const [count, setCount] = useState(first.totalElements);
  const admin = isAdminRole(community.role);
  return (
    <section className={listStyles.wall} aria-labelledby="community-wall-title" data-testid="community-wall">
      <div className={cardStyles.card}>
        <CardHeader title={<span id="community-wall-title">{t("wallTitle")}</span>}>
          {count > 0 ? (
            <span className={listStyles.wallCount} data-testid="wall-count">
              {count}
            </span>
          ) : null}
        </CardHeader>
      </div>
      <PostList
        source={{ kind: "community", communityId: community.id }}
        first={first}
        viewer={viewer}
        composer={community.canPost}
        community={{ id: community.id, signAs: admin ? community.wall === "ADMINS" : null }}
        paging="more"
        watchNew
        label={tList("wall")}
        onTotal={setCount}
        empty={
          <div className={cardStyles.card}>
            <EmptyState
              icon={<FileTextIcon size={28} />}
              title={t("wallEmpty")}
              text={community.canPost ? t("wallEmptyCanPost") : t("wallEmptyText")}
            />
          </div>
        }
      />
    </section>
  );
}
