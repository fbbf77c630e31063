import type { Metadata } from "next";
import { getTranslations } from "next-intl/server";
import { notFound } from "next/navigation";
import { requireViewer } from "@/components/layout/current-viewer";
import { SinglePost } from "@/components/notifications/single-post";
import styles from "@/components/post/post-page.module.css";
import { getDb } from "@/db/client";
import { NotFoundError, ValidationError } from "@/lib/server/http/errors";
import { getPost } from "@/lib/server/services/posts/write-posts";
import { ownBlocksOnPost } from "@/lib/server/services/reports/own-blocks";
import { withClientMessages } from "@/components/layout/client-messages";

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations("notifications.postPage");
  return { title: t("title") };
}

/** /post/{id}: one post with its comments — where a notification about a post or a comment on it leads. */
async function PostPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const { viewer } = await requireViewer("Post", { id });
  if (viewer.isDeleted) return null;
  const t = await getTranslations("notifications.postPage");
  const ctx = { viewer, db: getDb(), requestId: "post-page" };
  const post = await getPost({ ctx, input: { id } }).catch((err: unknown) => {
    if (err instanceof NotFoundError || err instanceof ValidationError) return null;
    throw err;
  });
  if (!post) notFound();
  // The viewer's own blocked post or comments here, and why (issue 26).
  const blocks = await ownBlocksOnPost({ ctx, postId: post.id });
  const tb = await getTranslations("report");
  return (
    <>
      <h1 className={styles.pageTitle}>{t("title")}</h1>
      {blocks.map((b) => (
        <p key={`${b.targetType}-${b.targetId}`} className={styles.blockReason} role="note" data-testid="block-reason">
          {b.targetType === "POST" ? tb("postBlockedWhy") : tb("commentBlockedWhy", { excerpt: b.excerpt })} {tb("blockReason", { reason: b.reason ?? "—" })}
        </p>
      ))}
      <SinglePost post={post} viewerId={viewer.id} />
    </>
  );
}

export default withClientMessages("(main)/post/[id]/page", PostPage);
