import localFont from "next/font/local";

/**
 * Geist, the app's one face (a variable font, every weight in one 70 KB file), declared here rather than
 * through `geist/font/sans` so that it is not preloaded: text paints at once in the size-adjusted fallback
 * and takes Geist when it arrives (`font-display: swap`), instead of the font's 70 KB competing with the
 * page's first paint on a slow phone connection (docs/adr/0154).
 */
export const GeistSans = localFont({
  src: "../node_modules/geist/dist/fonts/geist-sans/Geist-Variable.woff2",
  variable: "--font-geist-sans",
  weight: "100 900",
  display: "swap",
  preload: false,
});
