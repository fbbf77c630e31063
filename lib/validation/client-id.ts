import { z } from "zod";

// A client's own id for a write it may send twice (a retry after a lost answer): posts and comments
// (docs/adr/0144), as messages have had (docs/adr/0031). A UUID, unique per author; the second send with
// the same id answers what the first made, and changes nothing.

export const CLIENT_ID_ERRORS = {
  bad: "errors.badClientId",
  reused: "errors.clientIdReused",
} as const;

export const clientIdField = z.uuid({ error: CLIENT_ID_ERRORS.bad });
