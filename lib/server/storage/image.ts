import "server-only";
import sharp from "sharp";
import { ServiceError, ValidationError } from "@/lib/server/http/errors";

/** Long side of a stored image; larger images are scaled down, smaller ones are kept as they are. */
export const MAX_IMAGE_SIDE = 2048;

// Decompression bombs: a 3 MB PNG can claim 30 000 × 30 000 pixels. 40 MP covers any camera.
const MAX_INPUT_PIXELS = 40_000_000;

const DECODE_OPTIONS = { limitInputPixels: MAX_INPUT_PIXELS, failOn: "error", animated: false } as const;

/** Formats sharp decodes that we accept; SVG (scriptable) and anything else are refused. */
const ACCEPTED_FORMATS = new Set(["jpeg", "png", "webp", "gif", "heif"]);

/** Magic numbers of the accepted formats: a file is judged by its bytes, never its name or Content-Type. */
export function hasImageSignature(b: Uint8Array): boolean {
  const ascii = (from: number, to: number) => String.fromCharCode(...b.subarray(from, to));
  if (b.length < 12) return false;
  if (b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) return true; // JPEG
  if (b[0] === 0x89 && ascii(1, 8) === "PNG\r\n\x1a\n") return true; // PNG
  if (ascii(0, 6) === "GIF87a" || ascii(0, 6) === "GIF89a") return true; // GIF
  if (ascii(0, 4) === "RIFF" && ascii(8, 12) === "WEBP") return true; // WebP
  if (ascii(4, 8) === "ftyp" && ["avif", "avis"].includes(ascii(8, 12))) return true; // AVIF
  return false;
}

const notAnImage = () => new ServiceError("unsupported_media_type", "uploadErrors.notAnImage");

/**
 * Checks an upload really is an image and re-encodes it: turned upright by its EXIF orientation,
 * scaled to at most MAX_IMAGE_SIDE, written as WebP. sharp writes no metadata unless asked, so EXIF
 * (GPS position, camera serial …), XMP and comments are gone from what is stored.
 */
export async function reencodeImage(input: Uint8Array): Promise<{ data: Buffer; width: number; height: number }> {
  if (!hasImageSignature(input)) throw notAnImage();
  let format: string | undefined;
  try {
    const meta = await sharp(input, DECODE_OPTIONS).metadata();
    format = meta.format;
    if (meta.format === "heif" && meta.compression !== "av1") format = undefined; // HEIC: not decodable here
  } catch (err) {
    throw decodeError(err);
  }
  if (!format || !ACCEPTED_FORMATS.has(format)) throw notAnImage();
  try {
    const { data, info } = await sharp(input, DECODE_OPTIONS)
      .autoOrient()
      .resize({ width: MAX_IMAGE_SIDE, height: MAX_IMAGE_SIDE, fit: "inside", withoutEnlargement: true })
      .webp({ quality: 82 })
      .toBuffer({ resolveWithObject: true });
    return { data, width: info.width, height: info.height };
  } catch (err) {
    throw decodeError(err);
  }
}

function decodeError(err: unknown): ServiceError {
  if (err instanceof Error && /pixel limit/i.test(err.message)) return new ValidationError("uploadErrors.dimensionsTooLarge");
  return notAnImage();
}
