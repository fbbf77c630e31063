import "server-only";
import { eq } from "drizzle-orm";
import type { DbOrTx } from "@/db/client";
import { accounts } from "@/db/schema";
import type { ServiceCtx } from "../context";

/** What the shell (top bar, menus, own profile) shows of an account: no e-mail, no secrets. */
export type AccountSummary = {
  id: number;
  firstName: string;
  lastName: string;
  photo: string | null;
  isDeleted: boolean;
  role: "USER" | "MODERATOR" | "ADMIN";
};

const columns = {
  id: accounts.id,
  firstName: accounts.firstName,
  lastName: accounts.lastName,
  photo: accounts.photo,
  isDeleted: accounts.isDeleted,
  role: accounts.role,
};

export async function readAccountSummary(db: DbOrTx, accountId: number): Promise<AccountSummary | null> {
  const [row] = await db.select(columns).from(accounts).where(eq(accounts.id, accountId)).limit(1);
  return row ?? null;
}

/** The signed-in account of `ctx`, or null when nobody is signed in. */
export async function getViewerSummary({ ctx }: { ctx: ServiceCtx }): Promise<AccountSummary | null> {
  if (!ctx.viewer) return null;
  return readAccountSummary(ctx.tx ?? ctx.db, ctx.viewer.id);
}
