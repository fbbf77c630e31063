/** The app's colours as the browser paints its own frame: the header (theme) and the page (background). */
export const PWA_COLOURS = {
  light: { theme: "#ffffff", background: "#edeef0" },
  dark: { theme: "#1a1b1e", background: "#111214" },
} as const;
