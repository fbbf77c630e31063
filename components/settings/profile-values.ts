import { EMOJI_STATUSES, type EmojiStatus } from "@/lib/validation/account";

// Plain module (no "use client"): the settings page builds the form's first values on the server.

export type ProfileValues = {
  firstName: string;
  lastName: string;
  phone: string;
  birthDate: string;
  country: string;
  city: string;
  about: string;
  emojiStatus: EmojiStatus | "";
};

/** What account/me answers, as the form's strings ("" for nothing). */
export function toProfileValues(a: {
  firstName: string;
  lastName: string;
  phone: string | null;
  birthDate: string | null;
  country: string | null;
  city: string | null;
  about: string | null;
  emojiStatus: string | null;
}): ProfileValues {
  return {
    firstName: a.firstName,
    lastName: a.lastName,
    phone: a.phone ?? "",
    birthDate: a.birthDate ?? "",
    country: a.country ?? "",
    city: a.city ?? "",
    about: a.about ?? "",
    // An id that is no longer a preset shows as "no status" rather than failing the whole form.
    emojiStatus: (EMOJI_STATUSES as readonly string[]).includes(a.emojiStatus ?? "") ? (a.emojiStatus as EmojiStatus) : "",
  };
}
