import { getTranslations } from "next-intl/server";
import Link from "@/components/ui/link";
import { plainParams, withFallback, type SearchParams } from "@/components/admin/admin-ui";
import ui from "@/components/admin/admin-ui.module.css";
import { ModerationList } from "@/components/admin/moderation-list";
import { CommentIcon } from "@/components/ui/icons";
import { routeMetadata } from "@/lib/i18n/metadata";
import { listAdminComments } from "@/lib/server/services/admin/content";
import { adminCtx } from "../admin-context";

export const generateMetadata = () => routeMetadata("AdminComments");

/** Comments for moderation: search and filters, block and unblock. */
export default async function AdminCommentsPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const ctx = await adminCtx();
  const params = plainParams(await searchParams);
  const page = await withFallback(params, (input) => listAdminComments({ ctx, input }));
  const t = await getTranslations("admin");
  const routes = await getTranslations("routes");
  // Each comment links to the admin view of its publication, where it is read in its thread.
  const rows = page.content.map((c) => ({
    ...c,
    content: (
      <div className={ui.stack}>
        <span className={ui.excerpt}>{c.commentText}</span>
        <Link href={`/admin/publications/${c.postId}`} data-testid={`open-comment-post-${c.id}`}>
          {t("viewPost")}
        </Link>
      </div>
    ),
  }));
  return (
    <ModerationList
      kind="comments"
      title={routes("AdminComments")}
      path="/admin/comments"
      params={params}
      page={{ ...page, content: rows }}
      contentHeader={t("colComment")}
      emptyIcon={<CommentIcon size={28} />}
    />
  );
}
