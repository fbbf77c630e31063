import type { Metadata } from "next";
import { getTranslations } from "next-intl/server";
import Link from "@/components/ui/link";
import { notFound } from "next/navigation";
import { AdminPostView } from "@/components/admin/admin-post-view";
import ui from "@/components/admin/admin-ui.module.css";
import styles from "@/components/layout/admin.module.css";
import { NotFoundError, ValidationError } from "@/lib/server/http/errors";
import { getPost } from "@/lib/server/services/posts/write-posts";
import { adminCtx } from "../../admin-context";

export async function generateMetadata(): Promise<Metadata> {
  const [routes, t] = await Promise.all([getTranslations("routes"), getTranslations("admin")]);
  return { title: routes("adminTitle", { page: t("postView") }) };
}

/** /admin/publications/{id}: one post in the admin view (spec section 6), opened from the publications list. */
export default async function AdminPostPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const ctx = await adminCtx();
  const t = await getTranslations("admin");
  // Staff see every post, blocked ones too (docs/adr/0081).
  const post = await getPost({ ctx, input: { id } }).catch((err: unknown) => {
    if (err instanceof NotFoundError || err instanceof ValidationError) return null;
    throw err;
  });
  if (!post) notFound();
  return (
    <div className={ui.postView}>
      <Link href="/admin/publications" className={styles.muted}>
        {`← ${t("backToPublications")}`}
      </Link>
      <h1 className="visually-hidden">{t("postView")}</h1>
      {post.isBlocked ? (
        <p className={`${styles.pill} ${styles.pillDanger} ${ui.postBlockedNote}`} data-testid="admin-post-blocked">
          {t("postBlockedNote")}
        </p>
      ) : null}
      <AdminPostView post={post} viewerId={ctx.viewer!.id} />
    </div>
  );
}
