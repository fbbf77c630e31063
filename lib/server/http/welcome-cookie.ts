import "server-only";
import { env } from "@/lib/server/env";

/**
 * Marks "this browser has just registered account N" for /registration-success (issue 14 item 5): the
 * greeting is for the person who signed up a moment ago, not for anyone who types the address.
 */
export const WELCOME_COOKIE = "krug_welcome";
const WELCOME_TTL_SECONDS = 3600;

export function setWelcomeCookie(res: Response, accountId: number): Response {
  const secure = env().PUBLIC_URL.startsWith("https://") ? "; Secure" : "";
  res.headers.append(
    "set-cookie",
    `${WELCOME_COOKIE}=${accountId}; Path=/registration-success; Max-Age=${WELCOME_TTL_SECONDS}; HttpOnly; SameSite=Lax${secure}`,
  );
  return res;
}
