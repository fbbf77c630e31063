import { getTranslations } from "next-intl/server";
import Link from "@/components/ui/link";
import { plainParams, withFallback, type SearchParams } from "@/components/admin/admin-ui";
import ui from "@/components/admin/admin-ui.module.css";
import { ModerationList } from "@/components/admin/moderation-list";
import { FileTextIcon } from "@/components/ui/icons";
import { routeMetadata } from "@/lib/i18n/metadata";
import { listAdminPosts } from "@/lib/server/services/admin/content";
import { adminCtx } from "../admin-context";

export const generateMetadata = () => routeMetadata("AdminPublications");

/** Publications for moderation: search and filters, block and unblock. */
export default async function AdminPublicationsPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const ctx = await adminCtx();
  const params = plainParams(await searchParams);
  const page = await withFallback(params, (input) => listAdminPosts({ ctx, input }));
  const t = await getTranslations("admin");
  const routes = await getTranslations("routes");
  const rows = page.content.map((p) => ({
    ...p,
    content: (
      <div className={ui.stack}>
        <Link href={`/admin/publications/${p.id}`} title={t("viewPost")} data-testid={`open-post-${p.id}`}>
          <strong>{p.title}</strong>
        </Link>
        <span className={ui.excerpt}>{p.excerpt}</span>
      </div>
    ),
  }));
  return (
    <ModerationList
      kind="posts"
      title={routes("AdminPublications")}
      path="/admin/publications"
      params={params}
      page={{ ...page, content: rows }}
      contentHeader={t("colTitle")}
      emptyIcon={<FileTextIcon size={28} />}
    />
  );
}
