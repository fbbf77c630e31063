import "server-only";
import { queueFediverseProfile } from "@/lib/server/federation/outbox";
import { accountNameLatin } from "@/lib/server/search/name-latin";
import { eq, sql } from "drizzle-orm";
import { accounts } from "@/db/schema";
import { ForbiddenError, NotFoundError, ValidationError } from "@/lib/server/http/errors";
import { DEFAULT_LOCALE, type Locale } from "@/lib/i18n/config";
import { isCountryCode } from "@/lib/server/geo/countries";
import { cityById, cityFromText, cityTitle, countryFromText, type StoredPlace } from "@/lib/server/geo/places";
import { getBlobStore } from "@/lib/server/storage/blob-store";
import { forgetAccountRows, forgetAccounts } from "@/lib/server/auth/session-cache";
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

type PlaceInput = { country?: string | null; city?: string | null; countryId?: string | null; cityId?: number | null };

const placeError = (path: string, message: string) => new ValidationError(message, [{ path, message }]);

/**
 * The stored place after a PUT (docs/adr/0044): ids win over titles; a title in either language
 * resolves to its code or GeoNames id, anything else stays text. A city id must lie in the country
 * given with it (and brings its country when none is given). A new country drops a city of another
 * one to its title as text, so nothing typed is lost. Null when the request names no place.
 */
export function placeChanges(data: PlaceInput, current: StoredPlace, locale: Locale): StoredPlace | null {
  const countryGiven = data.countryId !== undefined || data.country !== undefined;
  const cityGiven = data.cityId !== undefined || data.city !== undefined;
  if (!countryGiven && !cityGiven) return null;
  let country: Pick<StoredPlace, "countryCode" | "country"> = { countryCode: current.countryCode, country: current.country };
  if (data.countryId !== undefined) {
    if (data.countryId !== null && !isCountryCode(data.countryId)) throw placeError("countryId", "geoErrors.countryNotFound");
    country = { countryCode: data.countryId, country: null };
  } else if (data.country !== undefined) {
    country = countryFromText(data.country);
  }
  let city: Pick<StoredPlace, "cityId" | "city"> = { cityId: current.cityId, city: current.city };
  if (data.cityId !== undefined && data.cityId !== null) {
    const found = cityById(data.cityId);
    if (!found) throw placeError("cityId", "geoErrors.cityNotFound");
    if (countryGiven && country.countryCode !== found.countryId) throw placeError("cityId", "geoErrors.cityNotInCountry");
    city = { cityId: found.id, city: null };
    country = { countryCode: found.countryId, country: null };
  } else if (data.cityId === null) {
    city = { cityId: null, city: null };
  } else if (data.city !== undefined) {
    city = cityFromText(data.city, country.countryCode);
  } else if (current.cityId !== null && cityById(current.cityId)?.countryId !== country.countryCode) {
    city = { cityId: null, city: cityTitle(current.cityId, locale) };
  }
  return { countryCode: country.countryCode, country: country.country, cityId: city.cityId, city: city.city };
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
      .select({
        isDeleted: accounts.isDeleted,
        deletionTimestamp: accounts.deletionTimestamp,
        countryCode: accounts.countryCode,
        country: accounts.country,
        cityId: accounts.cityId,
        city: accounts.city,
        firstName: accounts.firstName,
        lastName: accounts.lastName,
      })
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
      // The session check reads the deletion state: this process's session cache forgets it (docs/adr/0135).
      forgetAccounts(tx, [viewer.id]);
    }
    for (const field of EDITABLE) {
      if (data[field] !== undefined) (changes as Record<string, unknown>)[field] = data[field];
    }
    // The cross-script key moves with the name, in the same statement (docs/adr/0132).
    if (changes.firstName !== undefined || changes.lastName !== undefined) {
      changes.nameLatin = accountNameLatin(changes.firstName ?? current.firstName, changes.lastName ?? current.lastName);
    }
    const place = placeChanges(data, current, ctx.locale ?? DEFAULT_LOCALE);
    if (place) Object.assign(changes, place);
    if (Object.keys(changes).length > 0) {
      await tx
        .update(accounts)
        .set({ ...changes, updatedAt: sql`now()` })
        .where(eq(accounts.id, viewer.id));
      // This process's copy of the row goes at once; others hear the trigger's NOTIFY (docs/adr/0155).
      forgetAccountRows(tx, [viewer.id]);
      // What the fediverse shows of the page (name, photo, cover, about) changed: its followers there hear (issue 43).
      if (["firstName", "lastName", "photo", "profileCover", "about"].some((f) => f in changes)) await queueFediverseProfile(tx, viewer.id);
    }
    const row = await readAccountFor(tx, viewer.id, viewer.id);
    return toAccountDto(row!, { viewerId: viewer.id, locale: ctx.locale });
  });
}
