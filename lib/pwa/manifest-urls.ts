// Where the manifest's shortcuts lead (docs/adr/0179); apart from lib/pwa/manifest.ts, which reads both
// message catalogues, so the composer can import it.

export const MESSAGES_URL = "/im";
/** «Новая запись»: the feed with its composer open (components/post/post-composer.tsx). */
export const NEW_POST_URL = "/?compose=post";
