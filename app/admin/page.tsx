import { getTranslations } from "next-intl/server";
import { Card, CardHeader } from "@/components/ui/card";
import { ChartIcon, UserPlusIcon, UsersIcon } from "@/components/ui/icons";
import { routeMetadata } from "@/lib/i18n/metadata";
import { getStatistics } from "@/lib/server/services/admin/statistics";
import { adminCtx } from "./admin-context";
import styles from "@/components/layout/admin.module.css";

export const generateMetadata = () => routeMetadata("AdminStatistics");

export default async function AdminStatisticsPage() {
  const stats = await getStatistics({ ctx: await adminCtx(), input: {} });
  const t = await getTranslations("admin");
  const routes = await getTranslations("routes");
  const tiles = [
    { label: t("accountsTotal"), value: stats.totals.accounts, Icon: UsersIcon, id: "accounts-total" },
    { label: t("newLastWeek"), value: stats.period.accounts, Icon: UserPlusIcon, id: "new-last-week" },
    { label: t("onlineNow"), value: stats.totals.posts, Icon: ChartIcon, id: "online-now" },
  ];
  return (
    <Card>
      <CardHeader as="h1" title={routes("AdminStatistics")} />
      <dl className={styles.tiles}>
        {tiles.map(({ label, value, Icon, id }) => (
          <div key={id} className={styles.tile} data-testid={id}>
            <dt className={styles.tileLabel}>
              <Icon size={18} />
              {label}
            </dt>
            <dd className={styles.tileValue}>{value}</dd>
          </div>
        ))}
      </dl>
    </Card>
  );
}
