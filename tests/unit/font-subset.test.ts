// The preloaded face (docs/adr/0156): app/fonts.ts declares as its unicode-range exactly the characters
// `npm run fonts:build` cut app/fonts/geist-subset.woff2 to, and the committed file is that cut.
import { readFileSync } from "node:fs";
import path from "node:path";
import subsetFont from "subset-font";
import { describe, expect, it } from "vitest";
import { GEIST_SUBSET_RANGES, unicodeRangeOf } from "@/lib/font-subset";

const root = process.cwd();

describe("the Geist subset", () => {
  it("is declared with the unicode-range it was cut to", () => {
    const fonts = readFileSync(path.join(root, "app", "fonts.ts"), "utf8");
    const declared = /prop: "unicode-range",\s*value: "([^"]+)"/.exec(fonts)?.[1];
    expect(declared).toBe(unicodeRangeOf());
    expect(unicodeRangeOf([[0x20, 0x7e], [0x2116, 0x2116]])).toBe("U+0020-007E, U+2116");
  });

  it("covers Russian and English text and names across Europe, and nothing is listed twice", () => {
    const covered = (c: string) => GEIST_SUBSET_RANGES.some(([a, b]) => c.codePointAt(0)! >= a && c.codePointAt(0)! <= b);
    for (const c of "Круг, ёЁ — «Привет»! Hello, world… №5 € ₽ ™ → − Łódź Škoda Müller Ґанна Їжак Ђорђе") expect(covered(c), c).toBe(true);
    const sorted = [...GEIST_SUBSET_RANGES].sort((x, y) => x[0] - y[0]);
    for (let i = 1; i < sorted.length; i++) expect(sorted[i][0]).toBeGreaterThan(sorted[i - 1][1]);
  });

  it("is the committed file, cut by this list from the installed face, well under the full face", async () => {
    const file = readFileSync(path.join(root, "app", "fonts", "geist-subset.woff2"));
    const full = readFileSync(path.join(root, "node_modules", "geist", "dist", "fonts", "geist-sans", "Geist-Variable.woff2"));
    expect(file.subarray(0, 4).toString("latin1")).toBe("wOF2");
    expect(file.length).toBeLessThan(full.length * 0.7);
    let text = "";
    for (const [a, b] of GEIST_SUBSET_RANGES) for (let c = a; c <= b; c++) text += String.fromCodePoint(c);
    // A change of the list (or of the geist package) without `npm run fonts:build` fails here.
    expect(Buffer.compare(await subsetFont(full, text, { targetFormat: "woff2" }), file)).toBe(0);
  });
});
