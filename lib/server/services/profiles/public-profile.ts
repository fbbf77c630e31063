import "server-only";
import { and, eq, not } from "drizzle-orm";
import type { DbOrTx } from "@/db/client";
import { accounts } from "@/db/schema";
import { DEFAULT_LOCALE } from "@/lib/i18n/config";
import { cityTitle } from "@/lib/server/geo/places";
import { NotFoundError } from "@/lib/server/http/errors";
import { accountIdParams } from "@/lib/validation/account";
import type { ServiceCtx } from "../context";
import { profileOpen } from "../privacy/rules";

/**
 * What a signed-out visitor or a crawler may see of an account (docs/adr/0014): name, photo, city and
 * about — nothing else. An explicit column list, so e-mail, phone, birthday and the like can never
 * reach the public shell by accident.
 */
export type PublicProfile = {
  id: number;
  firstName: string;
  lastName: string;
  fullName: string;
  photo: string | null;
  city: string | null;
  about: string | null;
  /** A closed page (docs/adr/0125): nobody signed out is a friend, so city and about stay empty. */
  isClosed: boolean;
};

const publicColumns = {
  id: accounts.id,
  firstName: accounts.firstName,
  lastName: accounts.lastName,
  photo: accounts.photo,
  cityId: accounts.cityId,
  city: accounts.city,
  about: accounts.about,
  profileVisibility: accounts.profileVisibility,
};

/** Whether /profile/{id} has a page to show: the account exists, is not deleted nor blocked by the administration (a primary-key probe). */
export async function isProfileListed(db: DbOrTx, id: number): Promise<boolean> {
  const [row] = await db
    .select({ id: accounts.id })
    .from(accounts)
    .where(and(eq(accounts.id, id), not(accounts.isDeleted), not(accounts.isBlocked)))
    .limit(1);
  return Boolean(row);
}

/** The public shell of one account; a deleted or unknown one is 404. Needs no viewer. */
export async function getPublicProfile({ ctx, input }: { ctx: ServiceCtx; input: unknown }): Promise<PublicProfile> {
  const parsed = accountIdParams.safeParse(input);
  if (!parsed.success) throw new NotFoundError("accountErrors.notFound");
  const [row] = await (ctx.tx ?? ctx.db)
    .select(publicColumns)
    .from(accounts)
    .where(and(eq(accounts.id, parsed.data.id), not(accounts.isDeleted), not(accounts.isBlocked)))
    .limit(1);
  if (!row) throw new NotFoundError("accountErrors.notFound");
  const { cityId, city, profileVisibility, about, ...rest } = row;
  const fullName = `${row.firstName} ${row.lastName}`.trim();
  // The privacy rule with no viewer: a closed page shows the shell its name and photo only.
  if (!profileOpen({ ownerId: row.id, viewerId: null, profileVisibility, side: null })) return { ...rest, fullName, city: null, about: null, isClosed: true };
  // The city titled in the visitor's language (docs/adr/0044), or another client's text as saved.
  const title = (cityId !== null && cityTitle(cityId, ctx.locale ?? DEFAULT_LOCALE)) || city;
  return { ...rest, about, city: title, fullName, isClosed: false };
}
