/**
 * The message a person can read, or null. A failure on the server reaches the browser without its text:
 * Next.js keeps that in the server's log and sends a `digest`, and React puts its own placeholder in the
 * message ("Minified React error #441; visit https://react.dev/…"), in English, for developers.
 */
export function readableMessage(error: unknown): string | null {
  if (!(error instanceof Error) || !error.message) return null;
  if ("digest" in error || /^Minified React error #\d+/.test(error.message)) return null;
  return error.message;
}
