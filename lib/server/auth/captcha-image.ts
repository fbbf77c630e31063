import "server-only";
import { randomInt } from "node:crypto";
import sharp from "sharp";

/**
 * The registration captcha: a random code drawn as warped strokes of our own stroke font, rotated,
 * scaled, shifted and bent by a wave, crossed by noise curves in the same ink, then rasterised on the
 * server with pixel noise (rasterizeCaptcha). Only the PNG leaves the server: the drawing's markup would
 * let a script separate glyph paths from noise by their attributes (issue 7, item 2).
 */

/** Letters and digits nobody confuses once distorted (no 0/O/Q/D, 1/I/J, 2/Z, 5/S, 6/G, 8/B, U/V). */
export const CAPTCHA_ALPHABET = "ACEFHKLMNPRTUWXY3479";
export const CAPTCHA_LENGTH = 6;

type Point = [number, number];
type Stroke = Point[];

/** Points on an ellipse from one angle to another (degrees; 0 = right, 90 = down, as in SVG). */
function arc(cx: number, cy: number, rx: number, ry: number, from: number, to: number, steps = 12): Stroke {
  const out: Stroke = [];
  for (let i = 0; i <= steps; i++) {
    const a = ((from + ((to - from) * i) / steps) * Math.PI) / 180;
    out.push([cx + rx * Math.cos(a), cy + ry * Math.sin(a)]);
  }
  return out;
}

// A stroke font on a 10 × 14 box, y pointing down.
const GLYPHS: Record<string, Stroke[]> = {
  A: [[[0, 14], [5, 0], [10, 14]], [[2.2, 8.5], [7.8, 8.5]]],
  C: [arc(5.5, 7, 5, 7, -40, -320, 16)],
  E: [[[10, 0], [0, 0], [0, 14], [10, 14]], [[0, 7], [7, 7]]],
  F: [[[10, 0], [0, 0], [0, 14]], [[0, 7], [7, 7]]],
  H: [[[0, 0], [0, 14]], [[10, 0], [10, 14]], [[0, 7], [10, 7]]],
  K: [[[0, 0], [0, 14]], [[10, 0], [0, 8.5]], [[3.5, 5.5], [10, 14]]],
  L: [[[0, 0], [0, 14], [9, 14]]],
  M: [[[0, 14], [0, 0], [5, 8], [10, 0], [10, 14]]],
  N: [[[0, 14], [0, 0], [10, 14], [10, 0]]],
  P: [[[0, 14], [0, 0], [5, 0], ...arc(5, 3.75, 4.5, 3.75, -90, 90, 10), [0, 7.5]]],
  R: [[[0, 14], [0, 0], [5, 0], ...arc(5, 3.75, 4.5, 3.75, -90, 90, 10), [0, 7.5]], [[4.5, 7.5], [10, 14]]],
  T: [[[0, 0], [10, 0]], [[5, 0], [5, 14]]],
  U: [[[0, 0], [0, 9], ...arc(5, 9, 5, 5, 180, 0, 12), [10, 0]]],
  W: [[[0, 0], [2.5, 14], [5, 5], [7.5, 14], [10, 0]]],
  X: [[[0, 0], [10, 14]], [[10, 0], [0, 14]]],
  Y: [[[0, 0], [5, 7], [10, 0]], [[5, 7], [5, 14]]],
  "3": [[...arc(5, 3.6, 4.5, 3.6, -160, 90, 12), ...arc(5, 10.6, 5, 3.4, -90, 160, 12)]],
  "4": [[[7.5, 14], [7.5, 0], [0, 10], [10, 10]]],
  "7": [[[0, 0], [10, 0], [3.5, 14]], [[3, 7.5], [8, 7.5]]],
  "9": [arc(5, 4.6, 4.6, 4.6, 0, 360, 16), [[9.6, 4.6], [9.2, 9.5], [6.5, 14]]],
};

/** A code of CAPTCHA_LENGTH characters from the alphabet, from the crypto generator. */
export function randomCaptchaCode(length = CAPTCHA_LENGTH): string {
  let code = "";
  for (let i = 0; i < length; i++) code += CAPTCHA_ALPHABET[randomInt(CAPTCHA_ALPHABET.length)];
  return code;
}

export const CAPTCHA_WIDTH = 220;
export const CAPTCHA_HEIGHT = 70;

// Geometry jitter needs no cryptographic strength; the code itself comes from randomInt above.
const rnd = (min: number, max: number) => min + Math.random() * (max - min);
const pick = <T>(items: readonly T[]) => items[Math.floor(Math.random() * items.length)];
const fmt = (n: number) => (Math.round(n * 10) / 10).toString();

/** Splits every segment into short pieces so the wave bends straight strokes into curves. */
function subdivide(stroke: Stroke, step = 1.2): Stroke {
  const out: Stroke = [stroke[0]];
  for (let i = 1; i < stroke.length; i++) {
    const [x0, y0] = stroke[i - 1];
    const [x1, y1] = stroke[i];
    const n = Math.max(1, Math.ceil(Math.hypot(x1 - x0, y1 - y0) / step));
    for (let k = 1; k <= n; k++) out.push([x0 + ((x1 - x0) * k) / n, y0 + ((y1 - y0) * k) / n]);
  }
  return out;
}

function pathOf(points: Stroke): string {
  return points.map(([x, y], i) => `${i ? "L" : "M"}${fmt(x)} ${fmt(y)}`).join("");
}

const INKS = ["#1f3a93", "#2c3e50", "#7b241c", "#145a32", "#4a235a", "#6e2c00", "#1b2631"];

/** Draws a code as an SVG document (server-side only: the input of rasterizeCaptcha). */
export function renderCaptchaSvg(code: string): string {
  // One wave bends the whole line of glyphs, so neighbouring glyphs lean into each other.
  const wave = { ax: rnd(1.2, 2.4), ay: rnd(2.5, 4.5), fx: rnd(0.035, 0.06), fy: rnd(0.08, 0.14), px: rnd(0, 6.3), py: rnd(0, 6.3) };
  const warp = ([x, y]: Point): Point => [
    x + wave.ax * Math.sin(y * wave.fy + wave.px),
    y + wave.ay * Math.sin(x * wave.fx + wave.py),
  ];

  const parts: string[] = [];
  const slot = (CAPTCHA_WIDTH - 30) / code.length;
  Array.from(code).forEach((ch, i) => {
    const strokes = GLYPHS[ch];
    if (!strokes) throw new Error(`No glyph for ${JSON.stringify(ch)}`);
    const sx = rnd(1.9, 2.4);
    const sy = rnd(2.5, 3.1);
    const angle = (rnd(-24, 24) * Math.PI) / 180;
    const skew = rnd(-0.25, 0.25);
    const cx = 15 + slot * (i + 0.5) + rnd(-3, 3);
    const cy = CAPTCHA_HEIGHT / 2 + rnd(-6, 6);
    const place = ([gx, gy]: Point): Point => {
      // Centre the glyph box, scale and skew it, rotate it, then move it to its slot.
      const x = (gx - 5) * sx + (gy - 7) * sy * skew;
      const y = (gy - 7) * sy;
      return [cx + x * Math.cos(angle) - y * Math.sin(angle), cy + x * Math.sin(angle) + y * Math.cos(angle)];
    };
    const d = strokes.map((s) => pathOf(subdivide(s).map(place).map(warp))).join("");
    parts.push(`<path d="${d}" fill="none" stroke="${pick(INKS)}" stroke-width="${fmt(rnd(2.4, 3.4))}" stroke-linecap="round" stroke-linejoin="round"/>`);
  });

  const noise: string[] = [];
  // Curves in glyph ink and weight cross the whole code: they join glyphs for a segmenter.
  for (let i = 0, n = randomIntBetween(3, 4); i < n; i++) {
    const y = () => fmt(rnd(12, CAPTCHA_HEIGHT - 12));
    noise.push(
      `<path d="M${fmt(rnd(0, 20))} ${y()}C${fmt(rnd(40, 90))} ${fmt(rnd(-10, 80))} ${fmt(rnd(120, 170))} ${fmt(rnd(-10, 80))} ${fmt(rnd(195, CAPTCHA_WIDTH))} ${y()}" ` +
        `fill="none" stroke="${pick(INKS)}" stroke-width="${fmt(rnd(1.4, 2.6))}" stroke-linecap="round"/>`,
    );
  }
  // Short dashes that look like bits of glyphs.
  for (let i = 0, n = randomIntBetween(8, 12); i < n; i++) {
    const x = rnd(5, CAPTCHA_WIDTH - 5);
    const y = rnd(5, CAPTCHA_HEIGHT - 5);
    const len = rnd(5, 14);
    const a = rnd(0, Math.PI);
    noise.push(
      `<path d="M${fmt(x)} ${fmt(y)}L${fmt(x + len * Math.cos(a))} ${fmt(y + len * Math.sin(a))}" stroke="${pick(INKS)}" ` +
        `stroke-width="${fmt(rnd(1, 2.2))}" stroke-linecap="round" opacity="${fmt(rnd(0.5, 0.9))}"/>`,
    );
  }
  // Speckles.
  for (let i = 0; i < 40; i++) {
    noise.push(`<circle cx="${fmt(rnd(0, CAPTCHA_WIDTH))}" cy="${fmt(rnd(0, CAPTCHA_HEIGHT))}" r="${fmt(rnd(0.6, 1.6))}" fill="${pick(INKS)}" opacity="${fmt(rnd(0.3, 0.8))}"/>`);
  }
  // Glyphs and noise interleave in paint order, so the first and last paths are not always the code.
  const body = [...parts, ...noise].sort(() => Math.random() - 0.5).join("");
  const bg = `hsl(${Math.floor(rnd(30, 60))} ${Math.floor(rnd(30, 60))}% ${Math.floor(rnd(90, 96))}%)`;
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${CAPTCHA_WIDTH}" height="${CAPTCHA_HEIGHT}" viewBox="0 0 ${CAPTCHA_WIDTH} ${CAPTCHA_HEIGHT}">` +
    `<rect width="100%" height="100%" fill="${bg}"/>${body}</svg>`
  );
}

function randomIntBetween(min: number, max: number): number {
  return min + Math.floor(Math.random() * (max - min + 1));
}

/** Gaussian-ish noise from the sum of uniforms (Irwin–Hall), mean 0, roughly -1.5…1.5. */
function jitter(): number {
  return Math.random() + Math.random() + Math.random() - 1.5;
}

/**
 * Rasterises the drawing on the server and adds noise that survives thresholding: per-pixel grain in
 * every channel, ink-coloured speckles and holes punched into the strokes, then a slight blur that
 * melts the grain into the glyph edges. The client gets only pixels: no paths, no attributes, no
 * point counts to separate glyphs from noise (the markup attack of issue 7).
 */
export async function rasterizeCaptcha(svg: string): Promise<Buffer> {
  const { data, info } = await sharp(Buffer.from(svg)).flatten({ background: "#ffffff" }).raw().toBuffer({ resolveWithObject: true });
  const { width, height, channels } = info;
  const ink = [30, 40, 90];
  for (let p = 0; p < width * height; p++) {
    const o = p * channels;
    const r = Math.random();
    if (r < 0.035) {
      // Speckle in ink: looks like stroke to a thresholder.
      for (let c = 0; c < 3; c++) data[o + c] = Math.max(0, ink[c] + Math.round(jitter() * 30));
      continue;
    }
    if (r < 0.06) {
      // Hole in light: breaks strokes into pieces a contour tracer cannot follow.
      for (let c = 0; c < 3; c++) data[o + c] = Math.min(255, 225 + Math.round(jitter() * 20));
      continue;
    }
    const grain = Math.round(jitter() * 34);
    for (let c = 0; c < 3; c++) data[o + c] = Math.max(0, Math.min(255, data[o + c] + grain + Math.round(jitter() * 10)));
  }
  return sharp(data, { raw: { width, height, channels } }).blur(0.55).png({ compressionLevel: 9 }).toBuffer();
}

export function pngDataUrl(png: Buffer): string {
  return `data:image/png;base64,${png.toString("base64")}`;
}

/** A fresh code and its picture: a noisy PNG rendered on the server (never the drawing itself). */
export async function generateCaptcha(): Promise<{ code: string; image: string; png: Buffer }> {
  const code = randomCaptchaCode();
  const png = await rasterizeCaptcha(renderCaptchaSvg(code));
  return { code, png, image: pngDataUrl(png) };
}
