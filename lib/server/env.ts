import "server-only";
import { randomBytes } from "node:crypto";
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { z } from "zod";
import { parseTrustProxy } from "@/lib/server/http/client-address";

/**
 * Every setting Krug reads, validated once. The README's configuration table mirrors this schema.
 * Keep it in sync: a variable used anywhere else must be declared here.
 */
const port = z.coerce.number().int().min(1).max(65535);

/** A rate limit written as "points/duration", e.g. "5/5m": 5 attempts per 5 minutes (s, m or h; bare = seconds). */
const rateLimit = z
  .string()
  .regex(/^\d{1,7}\/\d{1,7}[smh]?$/, 'must look like "5/5m" (attempts/duration in s, m or h)')
  .transform((v) => {
    const [points, duration] = v.split("/");
    const unit = { s: 1, m: 60, h: 3600 }[duration.slice(-1)] ?? 1;
    return { points: Number(points), seconds: Number.parseInt(duration, 10) * unit };
  })
  .refine((l) => l.points >= 1 && l.seconds >= 1, "attempts and duration must be at least 1");

export const envSchema = z
  .object({
    NODE_ENV: z.enum(["development", "production", "test"]).default("production"),
    PORT: port.default(3000),
    REALTIME_PORT: port.default(3001),
    // Web workers sharing PORT (scripts/next-server.ts reads it; unset: one per core, at most four).
    WEB_CONCURRENCY: z.coerce.number().int().min(1).max(64).optional(),
    DATABASE_URL: z
      .string()
      .regex(/^postgres(ql)?:\/\//, "must be a postgres:// URL")
      .optional(),
    DATA_DIR: z.string().min(1).default(".data"),
    AUTH_SECRET: z.string().min(32, "must be at least 32 characters").optional(),
    PUBLIC_URL: z.url().optional(),
    SMTP_URL: z.string().regex(/^smtps?:\/\//, "must be an smtp:// or smtps:// URL").optional(),
    MAIL_FROM: z.string().min(3).default("Krug <no-reply@krug.local>"),
    // Days a deleted account can still be restored; then the anonymisation job erases it for good.
    DELETION_RESTORE_DAYS: z.coerce.number().int().min(1).max(365).default(10),
    S3_ENDPOINT: z.url().optional(),
    S3_BUCKET: z.string().min(1).optional(),
    S3_REGION: z.string().min(1).default("us-east-1"),
    S3_ACCESS_KEY_ID: z.string().min(1).optional(),
    S3_SECRET_ACCESS_KEY: z.string().min(1).optional(),
    CAPTCHA_TEST_CODE: z.string().min(1).optional(),
    // Tests only (issue 43): lets the fediverse client fetch private, loopback and link-local addresses,
    // which it refuses otherwise. The server warns at every start while it is set.
    FEDERATION_ALLOW_PRIVATE_ADDRESSES: z
      .enum(["0", "1"], "must be 0 or 1")
      .optional()
      .transform((v) => v === "1"),
    // Comma-separated e-mails whose accounts are made administrators at every start (issue 13).
    ADMIN_EMAILS: z.string().optional(),
    // How many reverse-proxy hops to trust for the client address (off = none, on = 1, or a count).
    TRUST_PROXY: z
      .string()
      .optional()
      .transform((v, ctx) => {
        try {
          return parseTrustProxy(v);
        } catch (err) {
          ctx.addIssue({ code: "custom", message: (err as Error).message });
          return z.NEVER;
        }
      }),
    // Open realtime sockets from one client address (docs/adr/0145): past it an upgrade gets 429. Raise it for
    // many people behind one address (an office, a carrier's NAT); behind a reverse proxy set TRUST_PROXY first.
    REALTIME_MAX_SOCKETS_PER_ADDRESS: z.coerce.number().int().min(1).max(1_000_000).default(100),
    // The weather card's forecast provider (Open-Meteo's API or one answering in its format), called from the server only.
    WEATHER_API_URL: z.url().default("https://api.open-meteo.com/v1/forecast"),
    // The daily backup's folder (docs/adr/0141); unset, no scheduled backup. Retention: the newest backup of
    // each of the last BACKUP_KEEP_DAILY days and of each of the last BACKUP_KEEP_WEEKLY weeks.
    BACKUP_TARGET: z.string().min(1).optional(),
    BACKUP_KEEP_DAILY: z.coerce.number().int().min(1).max(366).default(7),
    BACKUP_KEEP_WEEKLY: z.coerce.number().int().min(0).max(520).default(4),
    // Where pg_dump/pg_restore of the database server's major version are, when not on PATH (external DATABASE_URL).
    PG_BIN_DIR: z.string().min(1).optional(),
    // Opens GET /api/metrics to `Authorization: Bearer <this>` (docs/adr/0140); unset, the endpoint answers 404.
    METRICS_TOKEN: z.string().min(16, "must be at least 16 characters").optional(),
    LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
    // Rate limits (lib/server/http/rate-limit.ts); defaults follow Mastodon's.
    RATE_LIMIT_LOGIN_ACCOUNT: rateLimit.prefault("5/5m"),
    RATE_LIMIT_LOGIN_IP: rateLimit.prefault("25/5m"),
    RATE_LIMIT_REGISTER: rateLimit.prefault("5/30m"),
    RATE_LIMIT_CAPTCHA: rateLimit.prefault("30/5m"),
    RATE_LIMIT_RECOVERY: rateLimit.prefault("5/30m"),
    RATE_LIMIT_UPLOAD: rateLimit.prefault("30/30m"),
    RATE_LIMIT_SEARCH: rateLimit.prefault("120/5m"),
    RATE_LIMIT_FRIEND_REQUEST: rateLimit.prefault("50/1h"),
    // Writes per account (issue 24 item 3, docs/adr/0109-write-rate-limits.md): far above what a person does.
    RATE_LIMIT_POST: rateLimit.prefault("10/1m"),
    RATE_LIMIT_COMMENT: rateLimit.prefault("30/1m"),
    RATE_LIMIT_MESSAGE: rateLimit.prefault("60/1m"),
    RATE_LIMIT_MESSAGE_BURST: rateLimit.prefault("20/10s"),
    // Edits and deletions of one's chat messages (docs/adr/0129).
    RATE_LIMIT_MESSAGE_EDIT: rateLimit.prefault("30/1m"),
    RATE_LIMIT_REACTION: rateLimit.prefault("120/1m"),
    // Edits, deletions and restorations of one's posts and comments (and the post author's deletions of others'
    // comments on their post), together per account.
    RATE_LIMIT_CONTENT_CHANGE: rateLimit.prefault("60/1m"),
    RATE_LIMIT_SUBSCRIBE: rateLimit.prefault("50/1h"),
    // Reports per account (issue 26, docs/adr/0126).
    RATE_LIMIT_REPORT: rateLimit.prefault("20/1h"),
    // Group conversations (issue 41): conversations created, and people added (one per person), per account.
    RATE_LIMIT_GROUP_CREATE: rateLimit.prefault("20/1h"),
    RATE_LIMIT_GROUP_ADD: rateLimit.prefault("300/1h"),
    // Group changes (title, photo, roles, removals, mute) per account.
    RATE_LIMIT_GROUP_CHANGE: rateLimit.prefault("60/1m"),
    // Communities (issue 42): created, joins and requests, invitations, and changes (edits, members' roles,
    // bans, removals, acceptances, deletions) per account.
    RATE_LIMIT_COMMUNITY_CREATE: rateLimit.prefault("10/1h"),
    RATE_LIMIT_COMMUNITY_JOIN: rateLimit.prefault("60/1h"),
    RATE_LIMIT_COMMUNITY_INVITE: rateLimit.prefault("100/1h"),
    RATE_LIMIT_COMMUNITY_CHANGE: rateLimit.prefault("120/10m"),
    RATE_LIMIT_WEATHER: rateLimit.prefault("60/5m"),
    // Browsers subscribing to Web Push, per account (issue 25, docs/adr/0121-web-push-from-the-outbox.md).
    RATE_LIMIT_PUSH_SUBSCRIBE: rateLimit.prefault("20/1h"),
    // Changes of the privacy settings per account (PUT account/privacy, docs/adr/0125).
    RATE_LIMIT_PRIVACY: rateLimit.prefault("30/10m"),
    // Activities a remote server (the host of its signing key) posts to the inboxes (issue 43).
    RATE_LIMIT_FEDERATION_INBOX: rateLimit.prefault("600/1m"),
    // Web Push (VAPID, RFC 8292): unset, a key pair is generated once into DATA_DIR/vapid-keys.json; several
    // instances share one pair through these two (base64url, as web-push's generateVAPIDKeys writes them).
    VAPID_PUBLIC_KEY: z.string().regex(/^[A-Za-z0-9_-]{87}$/, "must be a base64url P-256 public key (65 bytes)").optional(),
    VAPID_PRIVATE_KEY: z.string().regex(/^[A-Za-z0-9_-]{43}$/, "must be a base64url P-256 private key (32 bytes)").optional(),
    // Who the push services may contact about our pushes: a mailto: or https: URL (default: MAIL_FROM's address).
    VAPID_SUBJECT: z.string().regex(/^(mailto:\S+@\S+|https:\/\/\S+)$/, "must be a mailto: or https: URL").optional(),
  })
  .superRefine((env, ctx) => {
    if (env.PORT === env.REALTIME_PORT) {
      ctx.addIssue({ code: "custom", path: ["REALTIME_PORT"], message: "must differ from PORT" });
    }
    if (env.S3_BUCKET && !(env.S3_ACCESS_KEY_ID && env.S3_SECRET_ACCESS_KEY)) {
      ctx.addIssue({
        code: "custom",
        path: ["S3_BUCKET"],
        message: "S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY are required with S3_BUCKET",
      });
    }
    if (Boolean(env.VAPID_PUBLIC_KEY) !== Boolean(env.VAPID_PRIVATE_KEY)) {
      ctx.addIssue({ code: "custom", path: ["VAPID_PUBLIC_KEY"], message: "VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY go together" });
    }
  });

export type Env = z.infer<typeof envSchema> & { AUTH_SECRET: string; PUBLIC_URL: string };

export class EnvError extends Error {}

/** Empty strings count as unset, as shells and .env files tend to produce them. */
function cleaned(source: NodeJS.ProcessEnv): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(source)) if (v !== undefined && v !== "") out[k] = v;
  return out;
}

export function parseEnv(source: NodeJS.ProcessEnv = process.env): Env {
  const result = envSchema.safeParse(cleaned(source));
  if (!result.success) {
    const first = result.error.issues[0];
    throw new EnvError(`Invalid setting ${first.path.join(".") || "?"}: ${first.message}`);
  }
  const env = result.data;
  const dataDir = path.resolve(env.DATA_DIR);
  return {
    ...env,
    DATA_DIR: dataDir,
    AUTH_SECRET: env.AUTH_SECRET ?? loadOrCreateSecret(dataDir),
    PUBLIC_URL: (env.PUBLIC_URL ?? `http://localhost:${env.PORT}`).replace(/\/$/, ""),
  };
}

/** A secret generated once into DATA_DIR so that sessions survive restarts without any setup. */
function loadOrCreateSecret(dataDir: string): string {
  return loadOrCreateDataFile(dataDir, "auth-secret", () => randomBytes(48).toString("base64url"));
}

/**
 * A file of DATA_DIR written once (mode 600) with what `make` returns, then read back by every start and
 * every process: the auth secret, the VAPID key pair. Two processes racing both end up with the first one's.
 */
export function loadOrCreateDataFile(dataDir: string, name: string, make: () => string): string {
  const file = path.join(dataDir, name);
  try {
    return readFileSync(file, "utf8").trim();
  } catch {
    mkdirSync(dataDir, { recursive: true });
    const secret = make();
    try {
      writeFileSync(file, secret + "\n", { flag: "wx", mode: 0o600 });
      chmodSync(file, 0o600);
      return secret;
    } catch {
      // Another process created it first: use theirs.
      return readFileSync(file, "utf8").trim();
    }
  }
}

let cached: Env | undefined;

export function env(): Env {
  cached ??= parseEnv();
  return cached;
}
