import { cookies, headers } from "next/headers";
import { getRequestConfig } from "next-intl/server";
import { LOCALE_COOKIE, localeOf, type Locale } from "./config";

/** The language of a request: the saved choice (cookie), else the browser's, else Russian. */
export async function requestLocale(): Promise<Locale> {
  return localeOf((await cookies()).get(LOCALE_COOKIE)?.value, (await headers()).get("accept-language") ?? undefined);
}

export default getRequestConfig(async () => {
  const locale = await requestLocale();
  return { locale, messages: (await import(`../../messages/${locale}.json`)).default };
});
