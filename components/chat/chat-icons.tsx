import { icon } from "@/components/ui/icons";

/** The chat's own icons, drawn with the house icon maker (inline, decorative, currentColor). */

export const ChevronLeftIcon = icon(
  <>
    <path d="m14.5 6.5-5.5 5.5 5.5 5.5" />
  </>,
  "ChevronLeftIcon",
);

export const SendIcon = icon(
  <>
    <path d="M4.5 12 20 4.5 15.5 20l-3.2-6.3L4.5 12z" />
    <path d="m12.3 13.7 3.9-4" />
  </>,
  "SendIcon",
);

/** One tick: delivered to the server, not read yet. */
export const TickIcon = icon(
  <>
    <path d="m5 12.5 4.5 4.5L19 7.5" />
  </>,
  "TickIcon",
);

/** Two ticks: read by the partner. */
export const DoubleTickIcon = icon(
  <>
    <path d="m2.5 12.5 4.5 4.5 9.5-9.5" />
    <path d="m11.5 16.5.5.5 9.5-9.5" />
  </>,
  "DoubleTickIcon",
);

export const ClockIcon = icon(
  <>
    <circle cx="12" cy="12" r="8" />
    <path d="M12 7.5V12l3 2" />
  </>,
  "ClockIcon",
);

export const ArrowDownIcon = icon(
  <>
    <path d="M12 5v14M6 13l6 6 6-6" />
  </>,
  "ArrowDownIcon",
);

/** Reply: a curved arrow back (issue 27). */
export const ReplyIcon = icon(
  <>
    <path d="M9.5 7 4.5 12l5 5" />
    <path d="M5 12h9a5.5 5.5 0 0 1 5.5 5.5V19" />
  </>,
  "ReplyIcon",
);

/** Edit: a pencil. */
export const EditIcon = icon(
  <>
    <path d="M4.5 19.5 5.4 15.6 15.8 5.2a2 2 0 0 1 2.9 0l.1.1a2 2 0 0 1 0 2.9L8.4 18.6z" />
    <path d="m14 7 3 3" />
  </>,
  "EditIcon",
);

/** Delete: a bin. */
export const TrashIcon = icon(
  <>
    <path d="M4.5 7h15" />
    <path d="M9.5 7V5h5v2" />
    <path d="M6.5 7l1 12.5h9l1-12.5" />
    <path d="M10.5 11v5.5M13.5 11v5.5" />
  </>,
  "TrashIcon",
);

/** Attach photos to a message (docs/adr/0134). */
export const PaperclipIcon = icon(
  <>
    <path d="m20 11.5-7.8 7.8a5 5 0 0 1-7.1-7.1l8.5-8.5a3.3 3.3 0 0 1 4.7 4.7l-8.5 8.5a1.7 1.7 0 0 1-2.4-2.4l7.8-7.8" />
  </>,
  "PaperclipIcon",
);

/** Open the emoji picker (docs/adr/0134). */
export const SmileIcon = icon(
  <>
    <circle cx="12" cy="12" r="8.5" />
    <path d="M8.5 14.2a4.2 4.2 0 0 0 7 0" />
    <path d="M9.3 9.6h.01M14.7 9.6h.01" strokeWidth="2.4" />
  </>,
  "SmileIcon",
);

/** A muted group conversation (issue 41): a bell struck through. */
export const BellOffIcon = icon(
  <>
    <path d="M9.5 19a2.6 2.6 0 0 0 5 0" />
    <path d="M6.6 8.6A5.6 5.6 0 0 0 6.5 10v3.2L5 16h11" />
    <path d="M8.3 5.2A5.5 5.5 0 0 1 17.5 10v3.2l.9 1.8" />
    <path d="m4 4 16 16" />
  </>,
  "BellOffIcon",
);

/** Members of a group conversation. */
export const PeopleIcon = icon(
  <>
    <circle cx="9" cy="8.5" r="3.2" />
    <path d="M3.5 19a5.5 5.5 0 0 1 11 0" />
    <path d="M15.5 5.6a3 3 0 0 1 0 5.8M17 14.2a5.2 5.2 0 0 1 3.5 4.8" />
  </>,
  "PeopleIcon",
);
