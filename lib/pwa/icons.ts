import "server-only";
import { readFile } from "node:fs/promises";
import path from "node:path";
import sharp from "sharp";
import { PWA_ICONS, type PwaIconName } from "./manifest";

/** The logo's own blue (app/icon.svg): the maskable icon's bleed, so any mask shape shows the logo's colour. */
const LOGO_BLUE = "#2a6fd1";
/** The share of a maskable icon the logo takes: inside the 80 % safe circle with room to spare. */
const MASKABLE_LOGO_SHARE = 0.6;

/**
 * One PNG icon rendered from app/icon.svg with sharp. The plain icons are the logo itself (its rounded
 * square); the maskable one puts the logo in the middle of a full-bleed square of the logo's blue, so
 * a launcher's circle or squircle cuts nothing of it; the Apple touch icon is the plain logo at 180 px.
 */
export async function renderIcon(name: PwaIconName): Promise<Buffer> {
  const { size, maskable } = PWA_ICONS[name];
  const svg = await readFile(path.join(process.cwd(), "app", "icon.svg"));
  const logoSize = maskable ? Math.round(size * MASKABLE_LOGO_SHARE) : size;
  // Rasterised at the target size (density scales the 32-unit viewBox), so edges stay sharp.
  const logo = await sharp(svg, { density: (72 * logoSize) / 32 }).resize(logoSize, logoSize).png().toBuffer();
  if (!maskable) return logo;
  const offset = Math.round((size - logoSize) / 2);
  return sharp({ create: { width: size, height: size, channels: 4, background: LOGO_BLUE } })
    .composite([{ input: logo, left: offset, top: offset }])
    .png()
    .toBuffer();
}
