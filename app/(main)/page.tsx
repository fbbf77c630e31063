import { getTranslations } from "next-intl/server";
import Link from "@/components/ui/link";
import { requireViewer } from "@/components/layout/current-viewer";
import { renderCardPage } from "@/components/post/card-page";
import { PostList } from "@/components/post/post-list";
import styles from "@/components/post/post-page.module.css";
import { ButtonLink } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { EmptyState } from "@/components/ui/empty-state";
import { NewsIcon } from "@/components/ui/icons";
import { FeedWeather } from "@/components/weather/feed-weather";
import weather from "@/components/weather/weather.module.css";
import { getDb } from "@/db/client";
import { routeMetadata } from "@/lib/i18n/metadata";
import { listNewsPosts } from "@/lib/server/services/posts/list-posts";
import { FEED_PAGE_SIZE } from "@/lib/validation/post";
import { withClientMessages } from "@/components/layout/client-messages";

export const generateMetadata = () => routeMetadata("News");

/**
 * The news feed (spec section 2): the composer, then the viewer's own posts, friends' posts and posts of
 * accounts they follow, newest first. Page 0 is rendered here through the service; SWR pages on. The weather
 * card (issue 13) sits in a side column and loads in the browser, so the feed never waits on the provider.
 */
async function NewsPage() {
  const { viewer, summary } = await requireViewer("News");
  // A deleted viewer sees the deleted-account screen from the layout; this page renders nothing (its services refuse them).
  if (viewer.isDeleted) return null;
  const t = await getTranslations("news");
  const tList = await getTranslations("post.list");
  const ctx = { viewer, db: getDb(), requestId: "news-page" };
  const first = await listNewsPosts({ ctx, input: { withFriends: "true", page: "0", size: String(FEED_PAGE_SIZE) } });
  const tWeather = await getTranslations("weather");
  return (
    <div className={weather.feedLayout}>
      <div className={weather.feedColumn}>
      <h1 className={styles.pageTitle}>{t("heading")}</h1>
      <Link href="/weather" className={weather.phoneLink}>
        {tWeather("title")}
      </Link>
      {/* The cards' titles are h3: this keeps the outline h1 → h2 → h3 (the weather card's h2 follows). */}
      <h2 className="visually-hidden">{tList("feed")}</h2>
      <PostList
        source={{ kind: "feed" }}
        first={renderCardPage(first, viewer.id)}
        viewer={{ id: summary.id, firstName: summary.firstName, lastName: summary.lastName, photo: summary.photo }}
        composer
        paging="scroll"
        watchNew
        label={tList("feed")}
        empty={
          <Card>
            <EmptyState icon={<NewsIcon size={28} />} title={t("emptyTitle")} text={t("emptyText")}>
              <ButtonLink href="/friends/find">{t("findFriends")}</ButtonLink>
            </EmptyState>
          </Card>
        }
      />
      </div>
      <aside className={weather.aside} aria-label={tWeather("cardLabel")}>
        <FeedWeather />
      </aside>
    </div>
  );
}

export default withClientMessages("(main)/page", NewsPage);
