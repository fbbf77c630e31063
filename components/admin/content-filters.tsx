import { getTranslations } from "next-intl/server";
import { Field, FilterForm, YesNoFilter } from "./admin-ui";
import ui from "./admin-ui.module.css";

/** The filters of the publications and comments lists: text, author, date range, blocked. */
export async function ContentFilters({ params, resetHref }: { params: Record<string, string>; resetHref: string }) {
  const t = await getTranslations("admin");
  return (
    <FilterForm resetHref={resetHref}>
      <Field label={t("searchText")}>
        <input type="search" name="text" defaultValue={params.text ?? ""} className={ui.input} maxLength={100} />
      </Field>
      <Field label={t("author")}>
        <input type="search" name="author" defaultValue={params.author ?? ""} className={ui.input} maxLength={100} />
      </Field>
      <Field label={t("dateFrom")}>
        <input type="date" name="dateFrom" defaultValue={params.dateFrom ?? ""} className={ui.input} />
      </Field>
      <Field label={t("dateTo")}>
        <input type="date" name="dateTo" defaultValue={params.dateTo ?? ""} className={ui.input} />
      </Field>
      <YesNoFilter name="blocked" label={t("blockedFilter")} value={params.blocked} any={t("any")} yes={t("onlyBlocked")} no={t("onlyActive")} />
    </FilterForm>
  );
}
