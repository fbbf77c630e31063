import "server-only";
import { desc, inArray, sql } from "drizzle-orm";
import { z } from "zod";
import { accounts } from "@/db/schema";
import { ForbiddenError } from "@/lib/server/http/errors";
import { requireViewer, type ServiceCtx } from "../context";

const listAccountsInput = z.object({
  /** Only accounts with one of these roles (the administrators and moderators page). */
  roles: z.array(z.enum(["USER", "MODERATOR", "ADMIN"])).min(1).optional(),
  limit: z.number().int().min(1).max(100).default(50),
});

export type AdminAccountRow = {
  id: number;
  firstName: string;
  lastName: string;
  role: "USER" | "MODERATOR" | "ADMIN";
  isBlocked: boolean;
  isDeleted: boolean;
  createdAt: Date;
};

/** The newest accounts for the admin area (no e-mails, no secrets); administrators and moderators only. */
export async function listAccounts({
  ctx,
  input,
}: {
  ctx: ServiceCtx;
  input: z.input<typeof listAccountsInput>;
}): Promise<{ items: AdminAccountRow[]; total: number }> {
  const viewer = requireViewer(ctx);
  if (viewer.role !== "ADMIN" && viewer.role !== "MODERATOR") throw new ForbiddenError();
  const { roles, limit } = listAccountsInput.parse(input);
  const where = roles ? inArray(accounts.role, roles) : undefined;
  // Newest first by id: ids are issued in registration order and the primary key serves the sort.
  const [items, [{ total }]] = await Promise.all([
    ctx.db
      .select({
        id: accounts.id,
        firstName: accounts.firstName,
        lastName: accounts.lastName,
        role: accounts.role,
        isBlocked: accounts.isBlocked,
        isDeleted: accounts.isDeleted,
        createdAt: accounts.createdAt,
      })
      .from(accounts)
      .where(where)
      .orderBy(desc(accounts.id))
      .limit(limit),
    ctx.db.select({ total: sql<number>`count(*)::int` }).from(accounts).where(where),
  ]);
  return { items, total };
}
