import type { Metadata } from "next";
import { getTranslations } from "next-intl/server";
import { routeByName, type RouteName } from "@/lib/routes";

export type AdminRouteName = "AdminStatistics" | "AdminUsers" | "AdminPublications" | "AdminComments" | "AdminModerators" | "AdminReports";

/**
 * The <title> of a named route in the request's language (spec section 2): auth pages carry the
 * product-name prefix ("Круг | Вход"), the other pages their own name.
 */
export async function routeMetadata(name: RouteName | AdminRouteName | "NotFound"): Promise<Metadata> {
  const t = await getTranslations("routes");
  const page = t(name);
  if (name.startsWith("Admin")) return { title: t("adminTitle", { page }) };
  const product = (await getTranslations("app"))("name");
  return { title: routeByName(name)?.auth ? t("authTitle", { product, page }) : page };
}
