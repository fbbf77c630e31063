/**
 * The message namespaces each part of the app hands to its client components (docs/adr/0092). A part is
 * a layout or page that renders `ClientMessages` (components/layout/client-messages.tsx); it covers its own
 * file and, for a layout, every page, error and loading file below it that has no part of its own.
 * tests/unit/client-namespaces.test.ts reads the client code under each part and fails when a namespace
 * it translates is missing here. Keys are the files' paths under app/ without ".tsx".
 */
export const CLIENT_NAMESPACES = {
  // The document's own client components (toasts, the language sync) and the not-found page.
  layout: ["common", "language"],
  "(form)/layout": ["auth", "common", "errors", "identity", "language", "theme", "validation"],
  // The shell of the signed-in pages (header, bell, sidebar, realtime toasts, the deleted-account screen,
  // the error screen); each page below brings its own.
  "(main)/layout": ["bell", "common", "deletedAccount", "device", "friendErrors", "header", "im", "language", "nav", "notifications", "theme"],
  "(main)/page": ["lightbox", "comments", "common", "post", "postErrors", "uploadErrors", "validation", "weather", "report"],
  "(main)/calculator/page": ["calculator"],
  "(main)/communities/page": ["communities", "communityErrors", "validation"],
  // "group": the invitation picker reads friends through the conversations' picker module.
  // The wall's composer and cards (issue 42) as a profile's.
  "(main)/community/[id]/page": ["communities", "communityErrors", "group", "validation", "lightbox", "comments", "common", "post", "postErrors", "uploadErrors", "report"],
  "(main)/friends/page": ["friendErrors", "friends", "nav", "relation"],
  "(main)/friends/find/page": ["accountErrors", "friendErrors", "friends", "nav", "relation", "validation"],
  "(main)/im/page": ["chatErrors", "group", "im", "uploadErrors", "validation", "report"],
  "(main)/im/[activeDialogId]/page": ["lightbox", "chatErrors", "group", "im", "uploadErrors", "validation", "report"],
  "(main)/post/[id]/page": ["lightbox", "comments", "post", "postErrors", "uploadErrors", "validation", "report"],
  "(main)/profile/page": ["lightbox", "comments", "common", "friendErrors", "nav", "post", "postErrors", "profile", "relation", "uploadErrors", "validation", "report", "communities"],
  "(main)/profile/[id]/page": ["lightbox", "comments", "common", "friendErrors", "nav", "post", "postErrors", "profile", "relation", "uploadErrors", "validation", "report", "communities"],
  "(main)/push/page": ["notifications", "push", "pushDevice"],
  "(main)/search/page": ["lightbox", "comments", "common", "friendErrors", "friends", "nav", "post", "postErrors", "relation", "uploadErrors", "validation", "report"],
  "(main)/share/page": ["share", "post", "postErrors", "uploadErrors", "validation", "chatErrors", "common", "errors"],
  "(main)/settings/page": ["accountErrors", "geoErrors", "language", "pushDevice", "settings", "theme", "uploadErrors", "validation"],
  "(main)/weather/page": ["weather"],
  "admin/layout": ["lightbox", "admin", "comments", "language", "nav", "post", "postErrors", "routes", "theme", "uploadErrors", "validation", "reports", "report"],
} as const satisfies Record<string, readonly string[]>;

export type ClientPart = keyof typeof CLIENT_NAMESPACES;

/** The named top-level namespaces of a catalogue (those it has). */
export function pickNamespaces<T extends Record<string, unknown>>(messages: T, names: readonly string[]): Partial<T> {
  return Object.fromEntries(names.filter((n) => n in messages).map((n) => [n, messages[n]])) as Partial<T>;
}
