import "server-only";
import { eq, sql } from "drizzle-orm";
import type { DbOrTx } from "@/db/client";
import { accounts } from "@/db/schema";

export type MailTarget = { id: number; email: string; firstName: string; language: string; isBlocked: boolean };

const columns = {
  id: accounts.id,
  email: accounts.email,
  firstName: accounts.firstName,
  language: accounts.language,
  isBlocked: accounts.isBlocked,
};

/** The account with this e-mail in any letter case (the unique index is on lower(email)). */
export async function accountByEmail(db: DbOrTx, email: string): Promise<MailTarget | undefined> {
  const [row] = await db.select(columns).from(accounts).where(eq(sql`lower(${accounts.email})`, email.trim().toLowerCase())).limit(1);
  return row;
}

export async function accountById(db: DbOrTx, id: number): Promise<MailTarget | undefined> {
  const [row] = await db.select(columns).from(accounts).where(eq(accounts.id, id)).limit(1);
  return row;
}

/** A Postgres unique violation, as thrown by postgres.js or wrapped by Drizzle. */
export function isUniqueViolation(err: unknown): boolean {
  const code = (e: unknown) => (typeof e === "object" && e !== null ? (e as { code?: unknown }).code : undefined);
  return code(err) === "23505" || code((err as { cause?: unknown })?.cause) === "23505";
}
