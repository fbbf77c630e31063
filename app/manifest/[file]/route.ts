// GET /manifest/{ru,en}.webmanifest — the web app manifest in the page's language (docs/adr/0119).
import { LOCALES, type Locale } from "@/lib/i18n/config";
import { webManifest } from "@/lib/pwa/manifest";

// Rendered once at build time: a manifest reads nothing of the request (the language is in the path,
// because browsers fetch a manifest without cookies).
export const dynamic = "force-static";
export const dynamicParams = false;

export function generateStaticParams(): { file: string }[] {
  return LOCALES.map((locale) => ({ file: `${locale}.webmanifest` }));
}

export async function GET(_request: Request, { params }: RouteContext<"/manifest/[file]">): Promise<Response> {
  const locale = (await params).file.replace(/\.webmanifest$/, "") as Locale;
  return new Response(JSON.stringify(webManifest(locale)), { headers: { "content-type": "application/manifest+json; charset=utf-8" } });
}
