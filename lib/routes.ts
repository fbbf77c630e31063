/**
 * The route table of spec section 2: every page's name, path pattern and sign-in rule.
 * Shared by the proxy (guards), the login form (where to land after sign-in), the navigation and the
 * page titles. Pure: no server or browser imports, so it runs everywhere and is unit-tested.
 */

export type Access = "signedIn" | "guestOnly" | "public";

export type RouteDef = {
  name: string;
  /** Path pattern; ":param" segments hold positive integer ids. */
  pattern: string;
  access: Access;
  /** Auth pages carry the product-name prefix in their title. */
  auth?: boolean;
};

export const ROUTES = [
  { name: "News", pattern: "/", access: "signedIn" },
  { name: "Calculator", pattern: "/calculator", access: "signedIn" },
  // The weather card on its own page, for phones (issue 13).
  { name: "Weather", pattern: "/weather", access: "signedIn" },
  { name: "Im", pattern: "/im", access: "signedIn" },
  { name: "ImChat", pattern: "/im/:activeDialogId", access: "signedIn" },
  { name: "Profile", pattern: "/profile", access: "signedIn" },
  // Public: a signed-out visitor or a crawler gets the profile's public shell (docs/adr/0014).
  { name: "ProfileId", pattern: "/profile/:id", access: "public" },
  { name: "Settings", pattern: "/settings", access: "signedIn" },
  { name: "Friends", pattern: "/friends", access: "public" },
  { name: "FriendsFind", pattern: "/friends/find", access: "public" },
  // Communities (issue 42): the viewer's own, search and creation; one community's page.
  { name: "Communities", pattern: "/communities", access: "signedIn" },
  // Public: a signed-out visitor or a crawler gets an open or closed community's public shell (issue 42).
  { name: "CommunityId", pattern: "/community/:id", access: "public" },
  { name: "Search", pattern: "/search", access: "public" },
  { name: "Push", pattern: "/push", access: "public" },
  // One post, where a notification about it leads (issue 12).
  { name: "Post", pattern: "/post/:id", access: "signedIn" },
  // What the phone's share sheet brought (issue 44, docs/adr/0179): a signed-out person signs in first.
  { name: "Share", pattern: "/share", access: "signedIn" },
  { name: "Login", pattern: "/login", access: "guestOnly", auth: true },
  { name: "Registration", pattern: "/registration", access: "public", auth: true },
  { name: "RegistrationSuccess", pattern: "/registration-success", access: "public", auth: true },
  { name: "Forgot", pattern: "/forgot", access: "public", auth: true },
  { name: "ForgotSuccess", pattern: "/forgot-success", access: "public", auth: true },
  { name: "ChangePassword", pattern: "/change-password/:secret", access: "public", auth: true },
  { name: "ChangePasswordSuccess", pattern: "/change-password-success", access: "public", auth: true },
  { name: "ShiftPassword", pattern: "/shift-password", access: "public", auth: true },
  { name: "ShiftEmail", pattern: "/shift-email", access: "public", auth: true },
  { name: "ShiftEmailSuccess", pattern: "/shift-email-success", access: "public", auth: true },
  { name: "ShiftEmailConfirm", pattern: "/shift-email-confirm", access: "public", auth: true },
] as const satisfies readonly RouteDef[];

export type RouteName = (typeof ROUTES)[number]["name"];
export type RouteMatch = { route: RouteDef; params: Record<string, string> };

export const NEWS_PATH = "/";
export const LOGIN_PATH = "/login";

const ID = /^[1-9]\d{0,17}$/;
// The recovery secret is an opaque base64url token; nothing else may travel in that segment.
const SECRET = /^[A-Za-z0-9_-]{10,200}$/;

function paramValid(name: string, value: string): boolean {
  return name === "secret" ? SECRET.test(value) : ID.test(value);
}

function segments(path: string): string[] {
  return path.split("/").filter(Boolean);
}

/** The named route a pathname belongs to, with its params; null for a path outside the table. */
export function matchRoute(pathname: string): RouteMatch | null {
  const parts = segments(pathname);
  for (const route of ROUTES) {
    const pattern = segments(route.pattern);
    if (pattern.length !== parts.length) continue;
    const params: Record<string, string> = {};
    const ok = pattern.every((seg, i) => {
      if (!seg.startsWith(":")) return seg === parts[i];
      params[seg.slice(1)] = parts[i];
      return true;
    });
    if (ok) return { route, params };
  }
  return null;
}

export function routeByName(name: string): RouteDef | undefined {
  return ROUTES.find((r) => r.name === name);
}

/** Any path containing "admin" is an admin page (spec section 2): no top bar there. */
export function isAdminPath(pathname: string): boolean {
  return pathname.toLowerCase().includes("admin");
}

/** The concrete path of a named route, or null when a param is missing or malformed. */
export function pathOf(name: string, params: Record<string, string | undefined> = {}): string | null {
  const route = routeByName(name);
  if (!route) return null;
  const out: string[] = [];
  for (const seg of segments(route.pattern)) {
    if (!seg.startsWith(":")) {
      out.push(seg);
      continue;
    }
    const value = params[seg.slice(1)];
    if (value === undefined || !paramValid(seg.slice(1), value)) return null;
    out.push(value);
  }
  return "/" + out.join("/");
}

/** `/login?redirect=<Name>` plus the route's params as extra query parameters. */
export function loginHref(match: RouteMatch): string {
  const query = new URLSearchParams({ redirect: match.route.name, ...match.params });
  return `${LOGIN_PATH}?${query.toString()}`;
}

/**
 * Where the login page sends the user after sign-in: the named route from the query (a page of the
 * app, not an auth page), or the news page. Only names of the table resolve, so no arbitrary URL can
 * be injected (no open redirect).
 */
export function afterLoginPath(query: URLSearchParams | Record<string, string | string[] | undefined>): string {
  const get = (key: string): string | undefined => {
    if (query instanceof URLSearchParams) return query.get(key) ?? undefined;
    const value = query[key];
    return Array.isArray(value) ? value[0] : value;
  };
  const name = get("redirect");
  const route = name ? routeByName(name) : undefined;
  if (!route || route.auth) return NEWS_PATH;
  const params: Record<string, string | undefined> = {};
  for (const seg of segments(route.pattern)) if (seg.startsWith(":")) params[seg.slice(1)] = get(seg.slice(1));
  return pathOf(route.name, params) ?? NEWS_PATH;
}

export type Decision = { kind: "next" } | { kind: "redirect"; to: string };

/**
 * The routing rules of spec section 2 for one page request: a protected page while signed out goes to
 * login with its route name; the login page while signed in goes to the news page. Paths outside the
 * table pass through (the catch-all page sends them to the news page).
 */
export function decideRoute(pathname: string, signedIn: boolean): Decision {
  const match = matchRoute(pathname);
  if (!match) return { kind: "next" };
  if (match.route.access === "signedIn" && !signedIn) return { kind: "redirect", to: loginHref(match) };
  if (match.route.access === "guestOnly" && signedIn) return { kind: "redirect", to: NEWS_PATH };
  return { kind: "next" };
}
