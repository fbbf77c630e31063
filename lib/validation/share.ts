// What the phone's share sheet may bring into Krug (issue 44, docs/adr/0179). Pure and zod-free: the
// service worker (lib/pwa/worker/share-target.ts) checks a share with it before anything is kept, and
// the share page and the tests read the same numbers.
import { MESSAGE_IMAGES_MAX, MESSAGE_TEXT_MAX } from "./dialogs-shared";
import { POST_TITLE_MAX } from "./post-shared";
import { MAX_UPLOAD_BYTES } from "./storage-shared";

/** Where the manifest's share_target posts; the worker answers it (the page of a share is SHARE_PAGE). */
export const SHARE_ACTION = "/share/receive";
export const SHARE_PAGE = "/share";
/** The form fields of the manifest's share_target params. */
export const SHARE_FIELDS = { title: "title", text: "text", url: "url", photos: "photos" } as const;

/** At most as many photos as a message carries (a post takes the first). */
export const SHARE_PHOTOS_MAX = MESSAGE_IMAGES_MAX;
/** Each photo as large as an upload may be: the upload refuses larger ones anyway. */
export const SHARE_PHOTO_BYTES_MAX = MAX_UPLOAD_BYTES;
export const SHARE_TITLE_MAX = POST_TITLE_MAX;
/** A shared text becomes a post's text or a message: the shorter of the two limits (a message's). */
export const SHARE_TEXT_MAX = MESSAGE_TEXT_MAX;
export const SHARE_URL_MAX = 2000;
/** The image types the upload takes (the post photo picker's list). */
export const SHARE_PHOTO_TYPES = ["image/jpeg", "image/png", "image/webp", "image/gif", "image/avif"] as const;
/** How long a received share waits on the device to be used (a sign-in in between included). */
export const SHARE_KEEP_MS = 24 * 60 * 60 * 1000;

/** Why a share was refused; `failed`: it could not be kept on this device (no worker, no storage). */
export type ShareError = "tooManyPhotos" | "photoTooLarge" | "notAnImage" | "textTooLong" | "badLink" | "empty" | "failed";
export const SHARE_ERRORS: readonly ShareError[] = ["tooManyPhotos", "photoTooLarge", "notAnImage", "textTooLong", "badLink", "empty", "failed"];

export type SharedFile = { name: string; type: string; size: number };
export type ShareInput = { title: unknown; text: unknown; url: unknown; photos: readonly unknown[] };
export type Share<F extends SharedFile = SharedFile> = { title: string; text: string; url: string; photos: F[] };

function isFile(x: unknown): x is SharedFile {
  if (typeof x !== "object" || x === null) return false;
  const f = x as Record<string, unknown>;
  return typeof f.size === "number" && typeof f.type === "string" && typeof f.name === "string";
}

/** A shared link, only if it is an http(s) URL; "" for none; null for anything else (javascript:, data:, junk). */
export function sharedLink(raw: string): string | null {
  const value = raw.trim();
  if (value === "") return "";
  if (value.length > SHARE_URL_MAX) return null;
  try {
    const url = new URL(value);
    return url.protocol === "https:" || url.protocol === "http:" ? url.href : null;
  } catch {
    return null;
  }
}

/**
 * A share as the share sheet sent it, checked whole: one wrong part refuses all of it, so a hostile share
 * keeps nothing. A text field that is not text (a file under "text") counts as absent. Some apps put the
 * link into `text`; a text that is only an http(s) link becomes the link.
 */
export function checkShare<F extends SharedFile = SharedFile>(input: ShareInput): { ok: true; share: Share<F> } | { ok: false; error: ShareError } {
  const str = (v: unknown) => (typeof v === "string" ? v : "");
  const title = str(input.title).trim();
  let text = str(input.text).trim();
  let url = str(input.url).trim();
  // An empty file field arrives as "" or as a nameless empty file: no photo.
  const files = input.photos.filter((p) => !(p === "" || (isFile(p) && p.name === "" && p.size === 0)));
  if (files.length > SHARE_PHOTOS_MAX) return { ok: false, error: "tooManyPhotos" };
  if (!files.every(isFile)) return { ok: false, error: "notAnImage" };
  const photos = files as F[];
  if (photos.some((p) => !(SHARE_PHOTO_TYPES as readonly string[]).includes(p.type))) return { ok: false, error: "notAnImage" };
  if (photos.some((p) => p.size > SHARE_PHOTO_BYTES_MAX)) return { ok: false, error: "photoTooLarge" };
  if (title.length > SHARE_TITLE_MAX || text.length > SHARE_TEXT_MAX) return { ok: false, error: "textTooLong" };
  if (url === "" && /^https?:\/\/\S+$/i.test(text) && sharedLink(text)) {
    url = text;
    text = "";
  }
  const link = sharedLink(url);
  if (link === null) return { ok: false, error: "badLink" };
  if (title === "" && text === "" && link === "" && photos.length === 0) return { ok: false, error: "empty" };
  return { ok: true, share: { title, text, url: link, photos } };
}

/** The `?error=` of the share page, or null when it names no known refusal. */
export function shareErrorOf(raw: string | null | undefined): ShareError | null {
  return SHARE_ERRORS.find((e) => e === raw) ?? null;
}
