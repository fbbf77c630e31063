import { z } from "zod";

/** A country id in a path: ISO 3166-1 alpha-2, any case. */
export const countryIdParams = z.object({
  id: z
    .string()
    .regex(/^[A-Za-z]{2}$/, "geoErrors.countryNotFound")
    .transform((v) => v.toUpperCase()),
});
