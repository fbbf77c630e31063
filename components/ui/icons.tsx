import { icon } from "./icon";

// The icons the shell and the post cards show; the rest are in icons-more.tsx (docs/adr/0151).
export { icon, type IconProps } from "./icon";

export const UserIcon = icon(
  <>
    <circle cx="12" cy="8" r="4" />
    <path d="M4 20c1.2-3.6 4.3-5.5 8-5.5s6.8 1.9 8 5.5" />
  </>,
  "UserIcon",
);

export const UsersIcon = icon(
  <>
    <circle cx="9" cy="8.5" r="3.5" />
    <path d="M2.5 19.5c.9-3 3.4-4.7 6.5-4.7s5.6 1.7 6.5 4.7" />
    <path d="M15.5 5.3a3.5 3.5 0 0 1 0 6.4" />
    <path d="M17.6 14.9c2 .6 3.3 2.2 3.9 4.6" />
  </>,
  "UsersIcon",
);

/** Communities (issue 42): a group of three under a roof line. */
export const CommunitiesIcon = icon(
  <>
    <circle cx="12" cy="9" r="2.6" />
    <circle cx="6" cy="11" r="2.1" />
    <circle cx="18" cy="11" r="2.1" />
    <path d="M7.8 19.5c.6-2.6 2.2-4 4.2-4s3.6 1.4 4.2 4" />
    <path d="M2.5 19c.4-1.9 1.6-3 3.4-3.1M21.5 19c-.4-1.9-1.6-3-3.4-3.1" />
    <path d="M4 5.5 12 3l8 2.5" />
  </>,
  "CommunitiesIcon",
);

export const MessageIcon = icon(
  <path d="M4 6.5A2.5 2.5 0 0 1 6.5 4h11A2.5 2.5 0 0 1 20 6.5v8a2.5 2.5 0 0 1-2.5 2.5H10l-4.5 3.5V17h0A1.5 1.5 0 0 1 4 15.5z" />,
  "MessageIcon",
);

export const NewsIcon = icon(
  <>
    <rect x="3.5" y="4" width="17" height="16" rx="2.5" />
    <path d="M7.5 8.5h9M7.5 12h9M7.5 15.5h5" />
  </>,
  "NewsIcon",
);

export const CalculatorIcon = icon(
  <>
    <rect x="5" y="3" width="14" height="18" rx="2.5" />
    <rect x="8" y="6" width="8" height="3.5" rx="1" />
    <path d="M8.5 13.5h.01M12 13.5h.01M15.5 13.5h.01M8.5 17h.01M12 17h.01M15.5 17h.01" strokeWidth={2.4} />
  </>,
  "CalculatorIcon",
);

export const SettingsIcon = icon(
  <>
    <circle cx="12" cy="12" r="3" />
    <path d="M19.4 15a1.7 1.7 0 0 0 .3 1.8l.1.1a2 2 0 1 1-2.8 2.8l-.1-.1a1.7 1.7 0 0 0-1.8-.3 1.7 1.7 0 0 0-1 1.5V21a2 2 0 1 1-4 0v-.1a1.7 1.7 0 0 0-1.1-1.6 1.7 1.7 0 0 0-1.8.3l-.1.1a2 2 0 1 1-2.8-2.8l.1-.1a1.7 1.7 0 0 0 .3-1.8 1.7 1.7 0 0 0-1.5-1H3a2 2 0 1 1 0-4h.1a1.7 1.7 0 0 0 1.6-1.1 1.7 1.7 0 0 0-.3-1.8l-.1-.1a2 2 0 1 1 2.8-2.8l.1.1a1.7 1.7 0 0 0 1.8.3H9a1.7 1.7 0 0 0 1-1.5V3a2 2 0 1 1 4 0v.1a1.7 1.7 0 0 0 1 1.5 1.7 1.7 0 0 0 1.8-.3l.1-.1a2 2 0 1 1 2.8 2.8l-.1.1a1.7 1.7 0 0 0-.3 1.8V9a1.7 1.7 0 0 0 1.5 1H21a2 2 0 1 1 0 4h-.1a1.7 1.7 0 0 0-1.5 1z" />
  </>,
  "SettingsIcon",
);

export const LogoutIcon = icon(
  <>
    <path d="M14 4h3.5A2.5 2.5 0 0 1 20 6.5v11a2.5 2.5 0 0 1-2.5 2.5H14" />
    <path d="M10 16.5 5.5 12 10 7.5M5.5 12H15" />
  </>,
  "LogoutIcon",
);

export const BellIcon = icon(
  <>
    <path d="M6 10a6 6 0 1 1 12 0c0 4.2 1.6 6 2 6.5H4c.4-.5 2-2.3 2-6.5z" />
    <path d="M10 19.5a2.2 2.2 0 0 0 4 0" />
  </>,
  "BellIcon",
);

export const SunIcon = icon(
  <>
    <circle cx="12" cy="12" r="4" />
    <path d="M12 2.5v2M12 19.5v2M4.6 4.6 6 6M18 18l1.4 1.4M2.5 12h2M19.5 12h2M4.6 19.4 6 18M18 6l1.4-1.4" />
  </>,
  "SunIcon",
);

export const MoonIcon = icon(<path d="M20 14.5A8 8 0 0 1 9.5 4 8 8 0 1 0 20 14.5z" />, "MoonIcon");

export const MonitorIcon = icon(
  <>
    <rect x="3" y="4" width="18" height="12.5" rx="2" />
    <path d="M8.5 20.5h7M12 16.5v4" />
  </>,
  "MonitorIcon",
);

export const GlobeIcon = icon(
  <>
    <circle cx="12" cy="12" r="8.5" />
    <path d="M3.5 12h17M12 3.5c2.3 2.4 3.4 5.2 3.4 8.5s-1.1 6.1-3.4 8.5c-2.3-2.4-3.4-5.2-3.4-8.5S9.7 5.9 12 3.5z" />
  </>,
  "GlobeIcon",
);

export const ChevronDownIcon = icon(<path d="m6.5 9.5 5.5 5.5 5.5-5.5" />, "ChevronDownIcon");
export const ChevronRightIcon = icon(<path d="m9.5 6.5 5.5 5.5-5.5 5.5" />, "ChevronRightIcon");
export const CheckIcon = icon(<path d="m5 12.5 4.5 4.5L19 7.5" />, "CheckIcon");
export const CloseIcon = icon(<path d="M6 6l12 12M18 6 6 18" />, "CloseIcon");

export const MoreIcon = icon(
  <path d="M5.5 12h.01M12 12h.01M18.5 12h.01" strokeWidth={3} />,
  "MoreIcon",
);

export const ChartIcon = icon(
  <>
    <path d="M4 20h16" />
    <rect x="5.5" y="11" width="3" height="6" rx="1" />
    <rect x="10.5" y="6.5" width="3" height="10.5" rx="1" />
    <rect x="15.5" y="9" width="3" height="8" rx="1" />
  </>,
  "ChartIcon",
);

export const FileTextIcon = icon(
  <>
    <path d="M14 3.5H7A2.5 2.5 0 0 0 4.5 6v12A2.5 2.5 0 0 0 7 20.5h10a2.5 2.5 0 0 0 2.5-2.5V9z" />
    <path d="M14 3.5V9h5.5M8.5 13h7M8.5 16.5h5" />
  </>,
  "FileTextIcon",
);

export const CommentIcon = icon(
  <path d="M20 11.5c0 4.1-3.6 7.5-8 7.5-1.2 0-2.4-.2-3.4-.7L4 19.5l1.3-3.7A7 7 0 0 1 4 11.5C4 7.4 7.6 4 12 4s8 3.4 8 7.5z" />,
  "CommentIcon",
);

export const ShieldIcon = icon(
  <>
    <path d="M12 3.5 19 6v5.5c0 4.3-2.9 7.6-7 9-4.1-1.4-7-4.7-7-9V6z" />
    <path d="m9 12 2.2 2.2L15.5 10" />
  </>,
  "ShieldIcon",
);

export const AlertIcon = icon(
  <>
    <circle cx="12" cy="12" r="8.5" />
    <path d="M12 7.5v5.5M12 16.5h.01" strokeWidth={2.2} />
  </>,
  "AlertIcon",
);

/** The product mark: a ring (a "circle" of people), drawn filled so it reads at 28 px. */
export function LogoMark({ size = 28 }: { size?: number }) {
  return (
    <svg width={size} height={size} viewBox="0 0 32 32" aria-hidden="true" focusable="false">
      <rect width="32" height="32" rx="9" fill="var(--accent)" />
      <circle cx="16" cy="16" r="8.2" fill="none" stroke="#fff" strokeWidth="3.4" />
      <circle cx="16" cy="7.8" r="2.6" fill="#fff" />
    </svg>
  );
}
