// The admin contracts' limits that the admin pages' client components need too, without zod or the
// error catalogue of lib/validation/admin.ts in their bundle (docs/adr/0092).

/** A moderation reason: at most this many characters (the API refuses longer, the dialog's field stops there). */
export const BLOCK_REASON_MAX = 500;
