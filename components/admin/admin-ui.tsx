import { getTranslations } from "next-intl/server";
import Link from "@/components/ui/link";
import { Button } from "@/components/ui/button";
import type { ReactNode } from "react";
import styles from "./admin-ui.module.css";

export type SearchParams = Record<string, string | string[] | undefined>;

/** Query parameters of an admin page as plain strings (the last value wins), for the service's parser. */
export function plainParams(params: SearchParams): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(params)) {
    const value = Array.isArray(v) ? v[v.length - 1] : v;
    if (value !== undefined && value !== "") out[k] = value;
  }
  return out;
}

/** Runs a list with the page's parameters; parameters the service refuses fall back to the defaults. */
export async function withFallback<T>(params: Record<string, string>, run: (input: Record<string, string>) => Promise<T>): Promise<T> {
  try {
    return await run(params);
  } catch (err) {
    if ((err as { code?: string }).code === "validation_failed") return run({});
    throw err;
  }
}

/** A GET form of filters: the page re-renders on the server with them in the address. */
export async function FilterForm({ children, resetHref }: { children: ReactNode; resetHref: string }) {
  const t = await getTranslations("admin");
  return (
    <form method="get" className={styles.filters} role="search">
      {children}
      <div className={styles.filterButtons}>
        <Button type="submit">{t("apply")}</Button>
        <Link href={resetHref} className={styles.reset}>
          {t("reset")}
        </Link>
      </div>
    </form>
  );
}

export function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <label className={styles.field}>
      <span className={styles.fieldLabel}>{label}</span>
      {children}
    </label>
  );
}

/** A yes / no / any filter (blocked, deleted): "" is any, "true" and "false" the two answers. */
export function YesNoFilter(props: { name: string; label: string; value?: string; any: string; yes: string; no: string }) {
  return (
    <Field label={props.label}>
      <select name={props.name} defaultValue={props.value ?? ""} className={styles.select}>
        <option value="">{props.any}</option>
        <option value="true">{props.yes}</option>
        <option value="false">{props.no}</option>
      </select>
    </Field>
  );
}

/** Previous / next links keeping the other parameters. */
export async function Pager({
  path,
  params,
  page,
  totalPages,
}: {
  path: string;
  params: Record<string, string>;
  page: number;
  totalPages: number;
}) {
  const t = await getTranslations("admin");
  if (totalPages <= 1) return null;
  const href = (p: number) => `${path}?${new URLSearchParams({ ...params, page: String(p) }).toString()}`;
  return (
    <nav className={styles.pager} aria-label={t("pageOf", { page: page + 1, pages: totalPages })}>
      {page > 0 ? (
        <Link href={href(page - 1)} className={styles.pagerLink} rel="prev">
          {t("prev")}
        </Link>
      ) : (
        <span />
      )}
      <span className={styles.pagerText}>{t("pageOf", { page: page + 1, pages: totalPages })}</span>
      {page + 1 < totalPages ? (
        <Link href={href(page + 1)} className={styles.pagerLink} rel="next">
          {t("next")}
        </Link>
      ) : (
        <span />
      )}
    </nav>
  );
}
