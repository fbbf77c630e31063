import localFont from "next/font/local";

/**
 * Geist, the app's one face: a variable font (every weight in one file) cut to the characters Krug's pages
 * are written in (lib/font-subset.ts, `npm run fonts:build`: 44 KB instead of the package's 70 KB) and
 * preloaded, so the first paint's text is already in Geist on most connections; `font-display: swap` and
 * the size-adjusted fallback draw the text at once when it is not. The unicode-range below is that cut's
 * list (a unit test keeps them equal; next/font takes only literals here): a character outside it is drawn
 * by the fallback instead of fetching anything more (docs/adr/0156).
 */
export const GeistSans = localFont({
  src: "./fonts/geist-subset.woff2",
  variable: "--font-geist-sans",
  weight: "100 900",
  display: "swap",
  preload: true,
  declarations: [
    {
      prop: "unicode-range",
      value: "U+0020-007E, U+00A0-017F, U+0400-045F, U+0490-0491, U+2000-206F, U+20AC, U+20BD, U+2116, U+2122, U+2190-2193, U+2212",
    },
  ],
});
