import { CalculatorIcon, ChartIcon, CommentIcon, CommunitiesIcon, FileTextIcon, MessageIcon, NewsIcon, ShieldIcon, UserIcon, UsersIcon } from "@/components/ui/icons";

/** The user sidebar of spec section 2: my page, friends, messages, news, communities (issue 42), calculator. */
export const USER_NAV = [
  { href: "/profile", label: "profile", Icon: UserIcon },
  { href: "/friends", label: "friends", Icon: UsersIcon },
  { href: "/im", label: "im", Icon: MessageIcon },
  { href: "/", label: "news", Icon: NewsIcon },
  { href: "/communities", label: "communities", Icon: CommunitiesIcon },
  { href: "/calculator", label: "calculator", Icon: CalculatorIcon },
] as const;

/** The admin sidebar: statistics, users, publications, comments, administrators and moderators. */
export const ADMIN_NAV = [
  { href: "/admin", label: "AdminStatistics", Icon: ChartIcon },
  { href: "/admin/users", label: "AdminUsers", Icon: UsersIcon },
  { href: "/admin/publications", label: "AdminPublications", Icon: FileTextIcon },
  { href: "/admin/comments", label: "AdminComments", Icon: CommentIcon },
  { href: "/admin/moderators", label: "AdminModerators", Icon: ShieldIcon },
] as const;

/**
 * Whether a nav entry is the current page: the news page only when exactly there, "my page" on the
 * own profile only (not on someone else's /profile/{id}), the others with their sub-pages.
 */
export function isCurrent(pathname: string, href: string, viewerId?: number, exact = href === "/"): boolean {
  if (exact) return pathname === href;
  if (href === "/profile") return pathname === href || pathname === `/profile/${viewerId}`;
  // One community's page (/community/{id}) belongs to the communities section.
  if (href === "/communities") return pathname === href || pathname.startsWith("/community/");
  return pathname === href || pathname.startsWith(`${href}/`);
}
