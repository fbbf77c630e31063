import { z } from "zod";
import { stripControls, stripLineControls } from "./text-rules";

// The string schemas every text field of lib/validation starts from (issue 24 item 4, docs/adr/0111):
// no control character and no lone surrogate gets past them, so none reaches Postgres. They stay
// zod strings (`overwrite`), so `.trim()`, `.max()` and the rest chain as before.

export * from "./text-rules";

type StringParams = Parameters<typeof z.string>[0];

/** Free text that may have lines (a message, a comment, post HTML): tab and new lines are kept. */
export function textString(params?: StringParams) {
  return z.string(params).overwrite(stripControls);
}

/** One-line text (search words, a reason, a token): tab and new lines become spaces, other control characters are dropped. */
export function lineString(params?: StringParams) {
  return z.string(params).overwrite(stripLineControls);
}
