// The reference of auth/* (issue 29, docs/adr/0138): requests are the schemas of lib/validation/auth.ts.
import type { OpenAPIRegistry } from "@asteasolutions/zod-to-openapi";
import { z } from "zod";
import { okBody, registerOperation } from "./api-common";
import {
  emailChangeConfirmInput,
  emailChangeRequestInput,
  linkSecretSchema,
  loginInput,
  passwordChangeInput,
  recoveryRequestInput,
  recoverySetInput,
  refreshInput,
  registerInput,
} from "./auth";


export const tokenPair = z
  .strictObject({ accessToken: z.string(), refreshToken: z.string() })
  .meta({ id: "TokenPair", description: "A short-lived access token (Bearer) and the refresh token that renews it once.", example: { accessToken: "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiI0MiJ9.c2ln", refreshToken: "rt_8Yl0mQ3d5pWk2xVb7nZs" } });

export const captchaBody = z
  .strictObject({ secret: z.string(), image: z.string().meta({ description: "A PNG data URL." }) })
  .meta({ id: "Captcha", example: { secret: "c2VjcmV0LWNhcHRjaGE", image: "data:image/png;base64,iVBORw0KGgo…" } });

const COOKIE_NOTE = "The pair is also set as the httpOnly cookies access_token and refresh_token.";

export function registerAuthApi(r: OpenAPIRegistry): void {
  const tag = "Вход и регистрация";
  registerOperation(r, {
    method: "get", path: "/api/v1/auth/captcha", tag, access: "optional", rateLimited: true,
    summary: "A registration captcha",
    description: "A new captcha: the secret to send back with the typed code and a noisy picture of the code. Per address limit (RATE_LIMIT_CAPTCHA).",
    ok: { 200: { description: "The captcha.", schema: captchaBody } },
  });
  registerOperation(r, {
    method: "post", path: "/api/v1/auth/register", tag, access: "optional", rateLimited: true, body: registerInput, errors: [409],
    bodyExample: { email: "anna@example.ru", password1: "Пароль-2026!", password2: "Пароль-2026!", firstName: "Анна", lastName: "Смирнова", captchaSecret: "c2VjcmV0LWNhcHRjaGE", captchaCode: "ACE347" },
    summary: "Register an account",
    description: `Names keep Latin and Cyrillic letters and underscores; the password has at least 8 characters with upper and lower case letters, a digit and a special character; the captcha is spent. An e-mail already registered → 409. Signed in at once. ${COOKIE_NOTE}`,
    ok: { 201: { description: "The new account.", schema: z.strictObject({ id: z.number().int(), email: z.string() }).meta({ id: "Registered", example: { id: 42, email: "anna@example.ru" } }) } },
  });
  registerOperation(r, {
    method: "post", path: "/api/v1/auth/login", tag, access: "optional", rateLimited: true, body: loginInput, errors: [401],
    bodyExample: { email: "anna@example.ru", password: "Пароль-2026!" },
    summary: "Sign in",
    description: `E-mail and password. Wrong passwords count per account and address (RATE_LIMIT_LOGIN), every attempt per address. ${COOKIE_NOTE} With {"session":"cookie"} the body is {ok:true} and the tokens travel only as cookies.`,
    ok: { 200: { description: "The token pair, or {ok:true} for a cookie session.", schema: z.union([tokenPair, okBody]) } },
  });
  registerOperation(r, {
    method: "post", path: "/api/v1/auth/refresh", tag, access: "optional", body: refreshInput, bodyRequired: false, errors: [401],
    bodyExample: { refreshToken: "rt_8Yl0mQ3d5pWk2xVb7nZs" },
    summary: "Renew the session",
    description: "Spends a refresh token (in the body or the refresh_token cookie) once and answers a new pair: in the body when it came in the body, as cookies with {ok:true} when it came as a cookie. A token used twice ends the whole session (401).",
    ok: { 200: { description: "A new pair, or {ok:true} with new cookies.", schema: z.union([tokenPair, okBody]) } },
  });
  registerOperation(r, {
    method: "post", path: "/api/v1/auth/logout", tag, access: "optional",
    summary: "Sign out",
    description: "Revokes the session of the refresh cookie and clears both cookies.",
    ok: { 204: { description: "Signed out." } },
  });
  registerOperation(r, {
    method: "post", path: "/api/v1/auth/password/recovery", tag, access: "optional", rateLimited: true, body: recoveryRequestInput,
    bodyExample: { email: "anna@example.ru" },
    summary: "Ask for a password recovery link",
    description: "Mails a link (valid for a short while) when the address has an account; the answer is the same either way, so it tells nobody whether an address is registered. Limited per address and per target mailbox.",
    ok: { 200: { description: "Always.", schema: okBody } },
  });
  registerOperation(r, {
    method: "get", path: "/api/v1/auth/password/recovery/{secret}", tag, access: "optional", params: z.object({ secret: linkSecretSchema }),
    summary: "Open a recovery link",
    description: "Redirects to the page /change-password/{secret}; the page checks the link when it is used.",
    ok: { 303: { description: "To the page that sets the new password.", headers: { Location: "/change-password/{secret}" } } },
  });
  registerOperation(r, {
    method: "post", path: "/api/v1/auth/password/recovery/{secret}", tag, access: "optional", params: z.object({ secret: linkSecretSchema }), body: recoverySetInput,
    bodyExample: { password: "Новый-Пароль-7" },
    summary: "Set a new password from a recovery link",
    description: "Sets the password and signs the account out everywhere. A used, expired or unknown link → 404.",
    ok: { 200: { description: "Changed.", schema: okBody } },
  });
  registerOperation(r, {
    method: "put", path: "/api/v1/auth/password", tag, access: "optional", body: passwordChangeInput, errors: [404],
    bodyExample: { secret: "bGluay1zZWNyZXQ", password1: "Новый-Пароль-7", password2: "Новый-Пароль-7" },
    summary: "Change the password from a mailed link",
    description: "With the secret of the /shift-password link. Ends every session of the account; the caller, when it is that account, gets a fresh pair (Bearer client: in the body; browser: as cookies). A bad link → 404.",
    ok: {
      200: {
        description: "Changed; signedIn says whether the caller got a new session.",
        schema: z.strictObject({ ok: z.literal(true), signedIn: z.boolean(), accessToken: z.string().optional(), refreshToken: z.string().optional() }).meta({ id: "PasswordChanged" }),
      },
    },
  });
  registerOperation(r, {
    method: "post", path: "/api/v1/auth/change-password-link", tag, access: "user", rateLimited: true,
    summary: "Mail me a password change link",
    description: "Mails the signed-in account a link to /shift-password. Limited per account (RATE_LIMIT_MAIL_ADDRESS).",
    ok: { 200: { description: "Mailed.", schema: okBody } },
  });
  registerOperation(r, {
    method: "post", path: "/api/v1/auth/change-email-link", tag, access: "user", rateLimited: true, body: emailChangeRequestInput, errors: [409],
    bodyExample: { email: "anna.new@example.ru" },
    summary: "Mail a confirmation link to a new address",
    description: "Mails the NEW address a link that confirms the change. Limited per account and per target address, so nobody can flood an inbox. An address of another account → 409.",
    ok: { 200: { description: "Mailed.", schema: okBody } },
  });
  registerOperation(r, {
    method: "put", path: "/api/v1/auth/email", tag, access: "optional", body: emailChangeConfirmInput, errors: [404, 409],
    bodyExample: { secret: "bGluay1zZWNyZXQ" },
    summary: "Confirm the new e-mail",
    description: "Applies the change with the secret of the link mailed to the new address. A used or unknown link → 404; the address taken meanwhile → 409.",
    ok: { 200: { description: "The new address.", schema: z.strictObject({ email: z.string() }).meta({ example: { email: "anna.new@example.ru" } }) } },
  });
}
