import { icon } from "./icon";

// The icons no page of the main layout shows at its first load (sign-in forms, the calculator, settings,
// friends' actions, the search box of the server's header): a module apart from icons.tsx, which the shell's
// client components import, so these are in none of those pages' first-load JavaScript (docs/adr/0151).

export const BackspaceIcon = icon(
  <>
    <path d="M8.5 5H19a2 2 0 0 1 2 2v10a2 2 0 0 1-2 2H8.5L3 12z" />
    <path d="m11.5 9.5 5 5M16.5 9.5l-5 5" />
  </>,
  "BackspaceIcon",
);

export const CopyIcon = icon(
  <>
    <rect x="8.5" y="8.5" width="11.5" height="11.5" rx="2" />
    <path d="M15.5 8.5V6a2 2 0 0 0-2-2H6a2 2 0 0 0-2 2v7.5a2 2 0 0 0 2 2h2.5" />
  </>,
  "CopyIcon",
);

export const LockIcon = icon(
  <>
    <rect x="5" y="10.5" width="14" height="10" rx="2" />
    <path d="M8 10.5V8a4 4 0 0 1 8 0v2.5" />
  </>,
  "LockIcon",
);

export const MailIcon = icon(
  <>
    <rect x="3.5" y="5.5" width="17" height="13" rx="2" />
    <path d="m4 7 8 6 8-6" />
  </>,
  "MailIcon",
);

export const EyeIcon = icon(
  <>
    <path d="M2.5 12s3.5-6.5 9.5-6.5 9.5 6.5 9.5 6.5-3.5 6.5-9.5 6.5S2.5 12 2.5 12z" />
    <circle cx="12" cy="12" r="3" />
  </>,
  "EyeIcon",
);

export const EyeOffIcon = icon(
  <>
    <path d="M10.6 5.6A9.6 9.6 0 0 1 12 5.5c6 0 9.5 6.5 9.5 6.5a16 16 0 0 1-2.6 3.4M6.6 6.6C3.9 8.3 2.5 12 2.5 12s3.5 6.5 9.5 6.5c1.8 0 3.3-.5 4.6-1.2" />
    <path d="M9.9 9.9a3 3 0 0 0 4.2 4.2M3.5 3.5l17 17" />
  </>,
  "EyeOffIcon",
);

export const CheckCircleIcon = icon(
  <>
    <circle cx="12" cy="12" r="8.5" />
    <path d="m8.5 12.2 2.4 2.4 4.6-4.8" />
  </>,
  "CheckCircleIcon",
);

export const ImageIcon = icon(
  <>
    <rect x="3.5" y="4.5" width="17" height="15" rx="2.5" />
    <circle cx="9" cy="10" r="1.8" />
    <path d="m4 17.5 5-4.5 4 3.5 3-2.5 4 3.5" />
  </>,
  "ImageIcon",
);

export const UserPlusIcon = icon(
  <>
    <circle cx="10" cy="8" r="4" />
    <path d="M3 20c1.1-3.5 3.9-5.5 7-5.5 1.5 0 2.9.4 4.1 1.2M18.5 13v6M15.5 16h6" />
  </>,
  "UserPlusIcon",
);

export const UserMinusIcon = icon(
  <>
    <circle cx="10" cy="8" r="4" />
    <path d="M3 20c1.1-3.5 3.9-5.5 7-5.5 1.5 0 2.9.4 4.1 1.2M15.5 16h6" />
  </>,
  "UserMinusIcon",
);

export const SearchIcon = icon(
  <>
    <circle cx="11" cy="11" r="6.5" />
    <path d="m16 16 4 4" />
  </>,
  "SearchIcon",
);

export const ExternalLinkIcon = icon(
  <>
    <path d="M14 4h6v6" />
    <path d="M20 4 11 13" />
    <path d="M18 14v4a2 2 0 0 1-2 2H6a2 2 0 0 1-2-2V8a2 2 0 0 1 2-2h4" />
  </>,
  "ExternalLinkIcon",
);
