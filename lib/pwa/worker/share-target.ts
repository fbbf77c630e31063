/**
 * The manifest's share_target (issue 44, docs/adr/0179): the share sheet posts a multipart form to
 * SHARE_ACTION; the worker checks it whole (lib/validation/share.ts), keeps an accepted share on the
 * device (krug-share) and sends the page to the share page, where the person chooses what to do with it.
 * Photos reach the server only from there, through the upload every photo takes. A refused share keeps
 * nothing: the share page says why.
 */
import { keepShare } from "@/lib/pwa/device/share-store";
import { checkShare, SHARE_ACTION, SHARE_FIELDS, SHARE_PAGE, SHARE_PHOTOS_MAX, SHARE_PHOTO_BYTES_MAX, SHARE_TEXT_MAX, type ShareError } from "@/lib/validation/share";

/** More than this many bytes in the whole form is refused before it is read (ten photos and the texts). */
const FORM_BYTES_MAX = SHARE_PHOTOS_MAX * SHARE_PHOTO_BYTES_MAX + 4 * SHARE_TEXT_MAX + 64 * 1024;

function redirect(scope: ServiceWorkerGlobalScope, query: string): Response {
  return Response.redirect(new URL(`${SHARE_PAGE}?${query}`, scope.location.origin).href, 303);
}

/** What the worker answers a share: where the page goes next. `keep` stores an accepted one (the device's store). */
export async function receiveShare(scope: ServiceWorkerGlobalScope, request: Request, keep: typeof keepShare = keepShare): Promise<Response> {
  const refuse = (error: ShareError) => redirect(scope, `error=${error}`);
  const length = Number(request.headers.get("content-length") ?? "0");
  if (length > FORM_BYTES_MAX) return refuse("photoTooLarge");
  let form: FormData;
  try {
    form = await request.formData();
  } catch {
    return refuse("empty");
  }
  const checked = checkShare<File>({
    title: form.get(SHARE_FIELDS.title),
    text: form.get(SHARE_FIELDS.text),
    url: form.get(SHARE_FIELDS.url),
    photos: form.getAll(SHARE_FIELDS.photos),
  });
  if (!checked.ok) return refuse(checked.error);
  try {
    await keep(checked.share);
  } catch {
    return refuse("failed");
  }
  return redirect(scope, "received=1");
}

/** A navigation that posts to SHARE_ACTION; everything else is left to Serwist's routes and the network. */
export function isShareRequest(request: Request, origin: string): boolean {
  if (request.method !== "POST") return false;
  const url = new URL(request.url);
  return url.origin === origin && url.pathname === SHARE_ACTION;
}

export function registerShareTarget(scope: ServiceWorkerGlobalScope): void {
  scope.addEventListener("fetch", (event) => {
    if (isShareRequest(event.request, scope.location.origin)) event.respondWith(receiveShare(scope, event.request));
  });
}
