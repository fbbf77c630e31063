import type { Metadata } from "next";
import { getTranslations } from "next-intl/server";
import { Pager, plainParams, withFallback, type SearchParams } from "@/components/admin/admin-ui";
import { BlockButton } from "@/components/admin/admin-actions";
import { BlockServerForm } from "@/components/admin/fediverse-servers";
import { staffDates } from "@/components/admin/staff-dates";
import { Card, CardHeader } from "@/components/ui/card";
import { EmptyState } from "@/components/ui/empty-state";
import { ShieldIcon } from "@/components/ui/icons";
import { listBlockedServers } from "@/lib/server/services/admin/fediverse-servers";
import { adminCtx } from "../admin-context";
import styles from "@/components/layout/admin.module.css";

export async function generateMetadata(): Promise<Metadata> {
  const routes = await getTranslations("routes");
  return { title: routes("adminTitle", { page: (await getTranslations("admin"))("fediverseTitle") }) };
}

/** The fediverse servers the administrators blocked (issue 43): block one, lift a block; moderators only read why they cannot. */
export default async function AdminFediversePage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const ctx = await adminCtx();
  const t = await getTranslations("admin");
  const isAdmin = ctx.viewer!.role === "ADMIN";
  const params = plainParams(await searchParams);
  const page = isAdmin ? await withFallback(params, (input) => listBlockedServers({ ctx, input })) : null;
  const { dateTime } = await staffDates();
  return (
    <Card>
      <CardHeader as="h1" title={t("fediverseTitle")} />
      <p className={styles.lead}>{t("fediverseText")}</p>
      {!page ? (
        <p className={styles.lead}>{t("fediverseAdminsOnly")}</p>
      ) : (
        <>
          <BlockServerForm />
          {page.content.length === 0 ? (
            <EmptyState icon={<ShieldIcon size={28} />} title={t("serversEmptyTitle")} text={t("serversEmptyText")} />
          ) : (
            <div className={styles.tableWrap}>
              <table className={styles.table} data-testid="blocked-servers">
                <thead>
                  <tr>
                    <th scope="col">{t("colServer")}</th>
                    <th scope="col">{t("colReason")}</th>
                    <th scope="col">{t("colPeople")}</th>
                    <th scope="col">{t("colSince")}</th>
                    <th scope="col">{t("colActions")}</th>
                  </tr>
                </thead>
                <tbody>
                  {page.content.map((s) => (
                    <tr key={s.id}>
                      <td>{s.host}</td>
                      <td className={styles.muted}>{s.reason ?? "—"}</td>
                      <td>{s.accounts}</td>
                      <td className={styles.muted}>{dateTime.format(new Date(s.createdAt))}</td>
                      <td>
                        <BlockButton kind="servers" id={s.host} blocked withLabel />
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
          <Pager path="/admin/fediverse" params={params} page={page.number} totalPages={page.totalPages} />
        </>
      )}
    </Card>
  );
}
