// The zod-free half of the comment contract, for the browser; comment.ts re-exports it.

export const COMMENT_TEXT_MAX = 2000;
/** The comment input's minimum (spec section 5: an input attribute); the server refuses only blank text. */
export const COMMENT_INPUT_MIN = 5;
export const COMMENT_PAGE_SIZE = 5;
