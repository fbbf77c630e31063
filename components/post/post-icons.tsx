import { icon as houseIcon } from "@/components/ui/icons";
import type { ReactNode } from "react";

/** Icons used only by posts (toolbar, composer, card), a little smaller and bolder than the shell's. */
const icon = (children: ReactNode, name: string) => houseIcon(children, name, { size: 18, strokeWidth: 1.9 });

export const PlusIcon = icon(<path d="M12 5v14M5 12h14" />, "PlusIcon");
export const BoldIcon = icon(<path d="M7 5h6a3.5 3.5 0 0 1 0 7H7zM7 12h7a3.5 3.5 0 0 1 0 7H7z" />, "BoldIcon");
export const ItalicIcon = icon(<path d="M10 5h8M6 19h8M14 5l-4 14" />, "ItalicIcon");
export const UnderlineIcon = icon(<path d="M7 4v7a5 5 0 0 0 10 0V4M5 20h14" />, "UnderlineIcon");
export const StrikeIcon = icon(<path d="M4 12h16M16.5 7.5C16 5.8 14.3 5 12 5c-2.8 0-4.5 1.3-4.5 3.2 0 1.5 1 2.4 3 3M8 16.5c.5 1.7 2.2 2.5 4.5 2.5 2.8 0 4.5-1.3 4.5-3.3 0-.7-.2-1.2-.5-1.7" />, "StrikeIcon");
export const BulletListIcon = icon(
  <>
    <path d="M9 6h11M9 12h11M9 18h11" />
    <circle cx="4.5" cy="6" r="1" fill="currentColor" />
    <circle cx="4.5" cy="12" r="1" fill="currentColor" />
    <circle cx="4.5" cy="18" r="1" fill="currentColor" />
  </>,
  "BulletListIcon",
);
export const OrderedListIcon = icon(<path d="M10 6h10M10 12h10M10 18h10M4 5l1.5-1v5M3.8 14.3c.3-.6 1-1 1.7-.9.8.1 1.2.8.9 1.5L4 18h2.6" />, "OrderedListIcon");
export const QuoteIcon = icon(<path d="M7 7h4v4c0 3-1.5 5-4 6M14 7h4v4c0 3-1.5 5-4 6" />, "QuoteIcon");
export const LinkIcon = icon(<path d="M10 14a4 4 0 0 0 5.7 0l3-3a4 4 0 0 0-5.7-5.7l-1 1M14 10a4 4 0 0 0-5.7 0l-3 3a4 4 0 0 0 5.7 5.7l1-1" />, "LinkIcon");
export const CalendarIcon = icon(
  <>
    <rect x="3.5" y="5" width="17" height="15" rx="2.5" />
    <path d="M3.5 10h17M8 3v4M16 3v4" />
  </>,
  "CalendarIcon",
);
export const ClockIcon = icon(
  <>
    <circle cx="12" cy="12" r="8.5" />
    <path d="M12 7.5V12l3 2" />
  </>,
  "ClockIcon",
);
export const TagIcon = icon(
  <>
    <path d="M3.5 12.5V5a1.5 1.5 0 0 1 1.5-1.5h7.5l8 8a1.5 1.5 0 0 1 0 2.1l-6.4 6.4a1.5 1.5 0 0 1-2.1 0z" />
    <circle cx="8" cy="8" r="1.3" />
  </>,
  "TagIcon",
);
export const EditIcon = icon(<path d="M4 20h4L19 9a2.8 2.8 0 0 0-4-4L4 16zM13.5 6.5l4 4" />, "EditIcon");
export const TrashIcon = icon(<path d="M4 7h16M10 11v6M14 11v6M6 7l1 12.5A1.5 1.5 0 0 0 8.5 21h7a1.5 1.5 0 0 0 1.5-1.5L18 7M9 7V4.5A1.5 1.5 0 0 1 10.5 3h3A1.5 1.5 0 0 1 15 4.5V7" />, "TrashIcon");
export const SmilePlusIcon = icon(
  <>
    <path d="M20.5 12a8.5 8.5 0 1 1-6-8.1" />
    <path d="M8.5 14.5c.8 1.2 2 1.8 3.5 1.8s2.7-.6 3.5-1.8M9 9.5h.01M15 9.5h.01M19 2.5v5M16.5 5h5" />
  </>,
  "SmilePlusIcon",
);
export const ArrowUpIcon = icon(<path d="M12 19V5M6 11l6-6 6 6" />, "ArrowUpIcon");
/** «Поделиться»: an arrow leaving a tray (issue 27). */
export const ShareIcon = icon(<path d="M12 15V4M7.5 8.5 12 4l4.5 4.5M5 13v5.5A1.5 1.5 0 0 0 6.5 20h11a1.5 1.5 0 0 0 1.5-1.5V13" />, "ShareIcon");
