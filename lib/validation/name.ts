import { z } from "zod";

// The one name schema (issue 7 item 11, ADR 0050): registration, settings, every route and service
// use these, so a name typed in one place is never changed by saving it in another.

import { NAME_MAX, stripName } from "./name-rules";
export { NAME_MAX, stripName };

/** A name as typed; empty is "required", letters stripped to nothing is the other message. */
export const nameSchema = z
  .string("validation.required")
  .max(10_000, "validation.tooLong")
  .refine((v) => v.trim().length > 0, "validation.required")
  .transform((v) => stripName(v))
  .pipe(z.string().min(1, "validation.nameLetters"));
