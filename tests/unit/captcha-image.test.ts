import { describe, expect, it } from "vitest";
import sharp from "sharp";
import {
  CAPTCHA_ALPHABET,
  CAPTCHA_LENGTH,
  generateCaptcha,
  randomCaptchaCode,
  renderCaptchaSvg,
} from "@/lib/server/auth/captcha-image";
import { normalizeCaptchaCode } from "@/lib/server/services/auth/captcha";

describe("captcha generator", () => {
  it("makes codes of 6 characters from the unambiguous alphabet", () => {
    const seen = new Set<string>();
    for (let i = 0; i < 500; i++) {
      const code = randomCaptchaCode();
      expect(code).toHaveLength(CAPTCHA_LENGTH);
      for (const ch of code) {
        expect(CAPTCHA_ALPHABET).toContain(ch);
        seen.add(ch);
      }
    }
    // Every character of the alphabet turns up: none is dead weight.
    expect(seen.size).toBe(CAPTCHA_ALPHABET.length);
    expect(CAPTCHA_ALPHABET).not.toMatch(/[0O1IJ2Z5S6G8BQDV]/);
  });

  it("draws the code as paths: no <text>, no font, and the code is nowhere in the markup", async () => {
    for (let i = 0; i < 50; i++) {
      const code = randomCaptchaCode();
      const svg = renderCaptchaSvg(code);
      expect(svg).not.toMatch(/<text|<tspan|font|<image|<script|<foreignObject/i);
      expect(svg).not.toContain(code);
      expect(svg.toLowerCase()).not.toContain(code.toLowerCase());
      expect(svg.match(/<path /g)!.length).toBeGreaterThanOrEqual(CAPTCHA_LENGTH);
    }
    const { image, png } = await generateCaptcha();
    expect(image).toBe(`data:image/png;base64,${png.toString("base64")}`);
  });

  it("has a glyph for every character and renders a valid image", async () => {
    const svg = renderCaptchaSvg(CAPTCHA_ALPHABET.slice(0, 10));
    expect(() => renderCaptchaSvg(CAPTCHA_ALPHABET.slice(10))).not.toThrow();
    expect(() => renderCaptchaSvg("O")).toThrow();
    const meta = await sharp((await generateCaptcha()).png).metadata();
    expect(meta.format).toBe("png");
    expect(meta.width).toBeGreaterThan(100);
    const png = await sharp(Buffer.from(svg)).png().toBuffer();
    expect(png.length).toBeGreaterThan(1000);
  });

  it("reads a typed code case-insensitively and with Cyrillic look-alikes", () => {
    expect(normalizeCaptchaCode(" ace347 ")).toBe("ACE347");
    expect(normalizeCaptchaCode("АСЕНКМ")).toBe("ACEHKM");
    expect(normalizeCaptchaCode("рху")).toBe("PXY");
  });
});
