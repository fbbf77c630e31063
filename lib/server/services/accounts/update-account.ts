import "server-only";
import { eq, sql } from "drizzle-orm";
import { accounts } from "@/db/schema";
import { ForbiddenError, NotFoundError, ValidationError } from "@/lib/server/http/errors";
import { getBlobStore } from "@/lib/server/storage/blob-store";
import { updateAccountInput } from "@/lib/validation/account";
import { storedKeyOf } from "@/lib/validation/storage";
import { requireViewer, withTransaction, type ServiceCtx } from "../context";
import { restoreUntilOf, toAccountDto, type AccountDto } from "./account-dto";
import { readAccountFor } from "./get-account";

const EDITABLE = [
  "firstName",
  "lastName",
  "photo",
  "profileCover",
  "birthDate",
  "phone",
  "country",
  "city",
  "about",
  "emojiStatus",
] as const;

/** Photo and cover may only point at files this server stored (and that still exist). */
async function assertStoredFiles(data: { photo?: string | null; profileCover?: string | null }) {
  for (const field of ["photo", "profileCover"] as const) {
    const path = data[field];
    if (!path) continue;
    const key = storedKeyOf(path);
    if (!key || !(await getBlobStore().exists(key))) {
      throw new ValidationError("uploadErrors.notStoredPath", [{ path: field, message: "uploadErrors.notStoredPath" }]);
    }
  }
}

/**
 * PUT account/me — changes the editable fields given (undefined: unchanged; null or "": cleared).
 * A deleted account accepts only `isDeleted: false` (with or without other fields), and only within
 * its restore window; the e-mail changes through the auth flow, never here.
 */
export async function updateMyAccount({ ctx, input }: { ctx: ServiceCtx; input: unknown }): Promise<AccountDto> {
  const viewer = requireViewer(ctx);
  const data = updateAccountInput.parse(input);
  await assertStoredFiles(data);
  return withTransaction(ctx, async (tx) => {
    const [current] = await tx
      .select({ isDeleted: accounts.isDeleted, deletionTimestamp: accounts.deletionTimestamp })
      .from(accounts)
      .where(eq(accounts.id, viewer.id))
      .for("update");
    if (!current) throw new NotFoundError("accountErrors.notFound");

    const changes: Partial<typeof accounts.$inferInsert> = {};
    if (current.isDeleted) {
      if (data.isDeleted !== false) throw new ForbiddenError("accountErrors.accountDeleted");
      const until = restoreUntilOf(current.deletionTimestamp);
      // The row lock above orders this against the anonymisation sweep: whichever comes second sees
      // the other's result (an anonymised account has no deletion time left and cannot come back).
      if (!until || until.getTime() <= Date.now()) throw new ForbiddenError("accountErrors.restoreExpired");
      changes.isDeleted = false;
      changes.deletionTimestamp = null;
    }
    for (const field of EDITABLE) {
      if (data[field] !== undefined) (changes as Record<string, unknown>)[field] = data[field];
    }
    if (Object.keys(changes).length > 0) {
      await tx
        .update(accounts)
        .set({ ...changes, updatedAt: sql`now()` })
        .where(eq(accounts.id, viewer.id));
    }
    const row = await readAccountFor(tx, viewer.id, viewer.id);
    return toAccountDto(row!, { viewerId: viewer.id });
  });
}
