// GET /icons/{icon-192,icon-512,maskable-512,apple-touch-icon}.png — the app's icons, drawn from
// app/icon.svg with sharp when the app is built (docs/adr/0119); no PNG is checked in.
import { PWA_ICONS, type PwaIconName } from "@/lib/pwa/manifest";
import { renderIcon } from "@/lib/pwa/icons";

export const dynamic = "force-static";
export const dynamicParams = false;

export function generateStaticParams(): { file: string }[] {
  return Object.keys(PWA_ICONS).map((file) => ({ file }));
}

export async function GET(_request: Request, { params }: RouteContext<"/icons/[file]">): Promise<Response> {
  const png = await renderIcon((await params).file as PwaIconName);
  return new Response(new Uint8Array(png), { headers: { "content-type": "image/png" } });
}
