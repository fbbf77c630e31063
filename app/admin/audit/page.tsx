import type { Metadata } from "next";
import { getTranslations } from "next-intl/server";
import { AuditTable } from "@/components/admin/audit-table";
import { Pager, plainParams, withFallback, type SearchParams } from "@/components/admin/admin-ui";
import { Card, CardHeader } from "@/components/ui/card";
import { EmptyState } from "@/components/ui/empty-state";
import { ShieldIcon } from "@/components/ui/icons";
import { listAudit } from "@/lib/server/services/admin/audit";
import { adminCtx } from "../admin-context";
import styles from "@/components/layout/admin.module.css";

export async function generateMetadata(): Promise<Metadata> {
  const routes = await getTranslations("routes");
  return { title: routes("adminTitle", { page: (await getTranslations("admin"))("auditTitle") }) };
}

/** The audit log of staff actions, newest first. */
export default async function AdminAuditPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const ctx = await adminCtx();
  const params = plainParams(await searchParams);
  const page = await withFallback(params, (input) => listAudit({ ctx, input }));
  const t = await getTranslations("admin");
  return (
    <Card>
      <CardHeader as="h1" title={t("auditTitle")} />
      <p className={styles.lead}>{t("auditText")}</p>
      {page.content.length === 0 ? (
        <EmptyState icon={<ShieldIcon size={28} />} title={t("auditEmptyTitle")} text={t("auditEmptyText")} />
      ) : (
        <AuditTable entries={page.content} />
      )}
      <Pager path="/admin/audit" params={params} page={page.number} totalPages={page.totalPages} />
    </Card>
  );
}
