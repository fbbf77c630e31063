// What every text a client sends is cleaned of before it is checked or stored (issue 24 item 4,
// docs/adr/0111). Zod-free: client components and lib/validation/text.ts both use it.

/** C0 control characters and DEL, except tab, line feed and carriage return (NUL among them: Postgres refuses it). */
export const CONTROL_CHARS = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g;
/** Every C0 control character and DEL: what a one-line field refuses. */
export const LINE_CONTROL_CHARS = /[\u0000-\u001f\u007f]/g;
/** A UTF-16 surrogate without its pair: not a character, and Postgres refuses it in JSON. */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/** Multi-line text: control characters dropped (tab and new lines kept), lone surrogates made U+FFFD. */
export function stripControls(value: string): string {
  return value.replace(CONTROL_CHARS, "").replace(LONE_SURROGATE, "\ufffd");
}

/** One-line text: a tab or new line becomes a space (words stay apart), other control characters are dropped. */
export function stripLineControls(value: string): string {
  return stripControls(value.replace(/[\t\n\r]/g, " "));
}

const HAS_CONTROL = new RegExp(CONTROL_CHARS.source);
const HAS_LINE_CONTROL = new RegExp(LINE_CONTROL_CHARS.source);
const HAS_LONE_SURROGATE = new RegExp(LONE_SURROGATE.source);

/** For a field that refuses rather than strips: a control character (tab and new lines allowed when multi-line) or a lone surrogate. */
export function hasControls(value: string, { multiline }: { multiline: boolean }): boolean {
  return (multiline ? HAS_CONTROL : HAS_LINE_CONTROL).test(value) || HAS_LONE_SURROGATE.test(value);
}
