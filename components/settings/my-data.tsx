"use client";

import { useLocale, useTranslations } from "next-intl";
import { useEffect, useState } from "react";
import { useReaderTimeZone } from "@/components/layout/time-zone";
import { useHydrated } from "@/components/layout/use-hydrated";
import { Button } from "@/components/ui/button";
import buttonStyles from "@/components/ui/button.module.css";
import spinnerStyles from "@/components/ui/spinner.module.css";
import { api, ApiError } from "@/lib/client/api";
import { dateTimeFormat } from "@/lib/client/date-format";
import type { AccountExportDto } from "@/lib/validation/account-export";
import styles from "./my-data.module.css";

/** How often a pending archive is asked about while the page is open (the bell also says when it is ready). */
const POLL_MS = 4000;

/**
 * «Мои данные»: request an archive of one's data (docs/adr/0127), see it being prepared, download it
 * while it is kept, and when the next one may be asked for.
 */
export function MyData({ initial }: { initial: AccountExportDto }) {
  const t = useTranslations("settings");
  const locale = useLocale();
  const hydrated = useHydrated();
  const [state, setState] = useState(initial);
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const [now, setNow] = useState(() => Date.now());

  const pending = state.state === "PENDING";
  useEffect(() => {
    if (!pending) return;
    const timer = window.setInterval(() => {
      if (document.visibilityState !== "visible") return;
      api<AccountExportDto>("account/export")
        .then(setState)
        .catch(() => {});
    }, POLL_MS);
    return () => window.clearInterval(timer);
  }, [pending]);

  // The once-a-day wait ends while the page is open: the button comes back then.
  const nextAt = state.nextRequestAt ? Date.parse(state.nextRequestAt) : null;
  useEffect(() => {
    if (nextAt === null || nextAt <= now) return;
    const timer = window.setTimeout(() => setNow(Date.now()), Math.min(nextAt - now + 500, 2 ** 31 - 1));
    return () => window.clearTimeout(timer);
  }, [nextAt, now]);
  const waiting = nextAt !== null && nextAt > now;

  async function request() {
    setBusy(true);
    setFailure(null);
    try {
      setState(await api<AccountExportDto>("account/export", { method: "POST" }));
    } catch (err) {
      setFailure(err instanceof ApiError && err.message ? err.message : t("myDataRequestFailed"));
    } finally {
      setBusy(false);
    }
  }

  const size = (bytes: number) =>
    bytes >= 1024 * 1024
      ? t("myDataMb", { size: new Intl.NumberFormat(locale, { maximumFractionDigits: 1 }).format(bytes / (1024 * 1024)) })
      : t("myDataKb", { size: new Intl.NumberFormat(locale, { maximumFractionDigits: 0 }).format(Math.max(1, bytes / 1024)) });
  // As LocalDateTime shows a moment: the reader's zone, named while it is only the server's guess.
  const { zone, named } = useReaderTimeZone();
  const date = (iso: string | null) =>
    iso
      ? dateTimeFormat(
          locale,
          named
            ? { year: "numeric", month: "long", day: "numeric", hour: "2-digit", minute: "2-digit", timeZone: zone, timeZoneName: "short" }
            : { dateStyle: "long", timeStyle: "short", timeZone: zone },
        ).format(new Date(iso))
      : "";

  return (
    <div className={styles.myData} data-state={state.state}>
      <p className={styles.text}>{t("myDataText")}</p>
      <div role="status" aria-live="polite" className={styles.status}>
        {state.state === "PENDING" && (
          <p className={styles.line}>
            <span className={`${spinnerStyles.spinner} ${styles.spinner}`} aria-hidden="true" />
            <span>{t("myDataPending", { date: date(state.requestedAt) })}</span>
          </p>
        )}
        {state.state === "READY" && state.size !== null && (
          <p className={styles.line}>{t("myDataReady", { size: size(state.size), date: date(state.expiresAt) })}</p>
        )}
        {state.state === "FAILED" && <p className={`${styles.line} ${styles.bad}`}>{t("myDataFailed")}</p>}
        {state.state === "EXPIRED" && <p className={styles.line}>{t("myDataExpired")}</p>}
        {failure && <p className={`${styles.line} ${styles.bad}`}>{failure}</p>}
      </div>
      <div className={styles.actions}>
        {state.state === "READY" && state.url && (
          // A plain link: the browser downloads the file (the answer says attachment); no client navigation.
          <a href={state.url} download className={`${buttonStyles.button} ${buttonStyles.primary}`}>
            {t("myDataDownload")}
          </a>
        )}
        {!pending && !waiting && (
          <Button variant={state.state === "READY" ? "secondary" : "primary"} disabled={!hydrated || busy} onClick={() => void request()}>
            {busy ? t("myDataRequesting") : t("myDataRequest")}
          </Button>
        )}
      </div>
      {waiting && !pending && <p className={styles.hint}>{t("myDataNext", { date: date(state.nextRequestAt) })}</p>}
    </div>
  );
}
