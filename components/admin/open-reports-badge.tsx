"use client";

import { useTranslations } from "next-intl";
import useSWR from "swr";
import { api } from "@/lib/client/api";
import { useRealtimeEvent } from "@/lib/client/use-realtime";
import { REPORTS_CHANGED_EVENT } from "@/lib/validation/reports-shared";
import styles from "@/components/layout/friend-requests-badge.module.css";

/** The SWR key of the open-reports count; the queue's actions revalidate it too. */
export const OPEN_REPORTS_COUNT_KEY = "admin/reports/count";

/**
 * The admin sidebar's count of open reported targets (issue 26), live: every report that opens a group and
 * every resolution sends REPORTS_CHANGED with the new count to all staff (through the outbox), so the
 * number changes without a reload. Nothing shows when it is zero.
 */
export function OpenReportsBadge() {
  const t = useTranslations("reports");
  const { data, mutate } = useSWR<{ count: number }>(OPEN_REPORTS_COUNT_KEY, (path: string) => api<{ count: number }>(path), {
    revalidateOnFocus: true,
  });
  useRealtimeEvent(REPORTS_CHANGED_EVENT, (event) => {
    const open = (event.data as { open?: unknown } | null)?.open;
    if (typeof open === "number") void mutate({ count: open }, { revalidate: false });
    else void mutate();
  });
  const count = data?.count ?? 0;
  if (count <= 0) return null;
  return (
    <span className={`${styles.badge} ${styles.sidebar}`} data-testid="open-reports-badge">
      <span aria-hidden="true">{count > 99 ? "99+" : count}</span>
      <span className="visually-hidden">{t("openCount", { count })}</span>
    </span>
  );
}
