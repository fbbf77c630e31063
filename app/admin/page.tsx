import { getLocale, getTranslations } from "next-intl/server";
import { FilterForm, Field, plainParams, withFallback, type SearchParams } from "@/components/admin/admin-ui";
import { LazyStatisticsChart } from "@/components/admin/statistics-chart-lazy";
import ui from "@/components/admin/admin-ui.module.css";
import { Card, CardHeader } from "@/components/ui/card";
import { ChartIcon, CommentIcon, CommunitiesIcon, FileTextIcon, UsersIcon } from "@/components/ui/icons";
import { routeMetadata } from "@/lib/i18n/metadata";
import { getStatistics } from "@/lib/server/services/admin/statistics";
import { getHealthOverview } from "@/lib/server/services/admin/health";
import { HealthPanel } from "@/components/admin/health-panel";
import { adminCtx } from "./admin-context";
import styles from "@/components/layout/admin.module.css";

export const generateMetadata = () => routeMetadata("AdminStatistics");

/** Statistics (issue 13): totals, the change against the previous period, and charts over a chosen range. */
export default async function AdminStatisticsPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const ctx = await adminCtx();
  const params = plainParams(await searchParams);
  const [stats, health] = await Promise.all([withFallback(params, (input) => getStatistics({ ctx, input })), getHealthOverview({ ctx })]);
  const t = await getTranslations("admin");
  const routes = await getTranslations("routes");
  const locale = await getLocale();
  const number = new Intl.NumberFormat(locale);
  const labels = { accounts: t("seriesAccounts"), posts: t("seriesPosts"), comments: t("seriesComments"), reactions: t("seriesReactions"), communities: t("seriesCommunities") };
  const icons = { accounts: UsersIcon, posts: FileTextIcon, comments: CommentIcon, reactions: ChartIcon, communities: CommunitiesIcon };
  const kinds = ["accounts", "posts", "comments", "reactions", "communities"] as const;
  function change(now: number, before: number) {
    if (now === before) return { text: t("noChange"), cls: "" };
    if (before === 0) return { text: t("changeNew"), cls: ui.changeUp };
    const percent = Math.round(((now - before) / before) * 100);
    return { text: t("change", { sign: percent > 0 ? "+" : "", percent }), cls: percent >= 0 ? ui.changeUp : ui.changeDown };
  }
  return (
    <Card>
      <CardHeader as="h1" title={routes("AdminStatistics")} />
      <FilterForm resetHref="/admin">
        <Field label={t("interval")}>
          <select name="interval" defaultValue={stats.interval} className={ui.select}>
            <option value="day">{t("intervalDay")}</option>
            <option value="month">{t("intervalMonth")}</option>
          </select>
        </Field>
        <Field label={t("dateFrom")}>
          <input type="date" name="from" defaultValue={stats.from} className={ui.input} />
        </Field>
        <Field label={t("dateTo")}>
          <input type="date" name="to" defaultValue={stats.to} className={ui.input} />
        </Field>
      </FilterForm>
      <dl className={styles.tiles}>
        {kinds.map((k) => {
          const Icon = icons[k];
          const c = change(stats.period[k], stats.previousPeriod[k]);
          return (
            <div key={k} className={styles.tile} data-testid={`stat-${k}`}>
              <dt className={styles.tileLabel}>
                <Icon size={18} />
                {labels[k]}
              </dt>
              <dd className={styles.tileValue} data-testid="period">
                {stats.period[k]}
              </dd>
              <dd className={`${ui.change} ${c.cls}`}>{c.text}</dd>
              <dd className={ui.change} data-testid="total" data-count={stats.totals[k]}>
                {t("totalAll", { count: number.format(stats.totals[k]) })}
              </dd>
            </div>
          );
        })}
      </dl>
      <section className={ui.chart} aria-label={t("chartTitle")}>
        <LazyStatisticsChart series={stats.series} labels={labels} locale={locale} />
      </section>
      <HealthPanel health={health} />
    </Card>
  );
}
