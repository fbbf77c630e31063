/**
 * Schema and service messages may be keys of messages/*.json ("validation.email"); this turns such a
 * key into text with the caller's translator and leaves any other message as it is.
 */
type Translator = { (key: string): string; has(key: string): boolean };

const KEY = /^[a-zA-Z]+(\.[a-zA-Z0-9_]+)+$/;

export function messageText(t: Translator, message: string | undefined): string | undefined {
  if (!message) return undefined;
  return KEY.test(message) && t.has(message) ? t(message) : message;
}
