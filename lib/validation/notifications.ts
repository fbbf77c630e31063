import { z } from "zod";
import { NOTIFICATION_ERRORS, NOTIFICATION_PAGE_SIZE, NOTIFICATION_PAGE_SIZE_MAX, READ_IDS_MAX } from "./notifications-shared";

export * from "./notifications-shared";

/** GET notifications/page ?page=&size=&sort=sentTime,desc|asc (empty parameters count as absent). */
export const notificationPageQuery = z.preprocess(
  (raw) => (raw && typeof raw === "object" ? Object.fromEntries(Object.entries(raw).filter(([, v]) => v !== "" && v != null)) : raw),
  z.object({
    page: z.coerce.number({ error: NOTIFICATION_ERRORS.badQuery }).int(NOTIFICATION_ERRORS.badQuery).min(0, NOTIFICATION_ERRORS.badQuery).max(100_000, NOTIFICATION_ERRORS.badQuery).default(0),
    size: z.coerce
      .number({ error: NOTIFICATION_ERRORS.badQuery })
      .int(NOTIFICATION_ERRORS.badQuery)
      .min(1, NOTIFICATION_ERRORS.badQuery)
      .max(NOTIFICATION_PAGE_SIZE_MAX, NOTIFICATION_ERRORS.badQuery)
      .default(NOTIFICATION_PAGE_SIZE),
    sort: z.enum(["sentTime,desc", "sentTime,asc"], { error: NOTIFICATION_ERRORS.badQuery }).default("sentTime,desc"),
  }),
);
export type NotificationPageQuery = z.input<typeof notificationPageQuery>;

/** PUT notifications/readed: no body (or {}) marks everything read; {ids} only those of the viewer's (issue 27). */
export const markReadInput = z
  .object({
    ids: z
      .array(z.number({ error: NOTIFICATION_ERRORS.badQuery }).int(NOTIFICATION_ERRORS.badQuery).positive(NOTIFICATION_ERRORS.badQuery).max(Number.MAX_SAFE_INTEGER, NOTIFICATION_ERRORS.badQuery), { error: NOTIFICATION_ERRORS.badQuery })
      .min(1, NOTIFICATION_ERRORS.badQuery)
      .max(READ_IDS_MAX, NOTIFICATION_ERRORS.badQuery)
      .optional(),
  }, { error: NOTIFICATION_ERRORS.badQuery })
  .strict();
