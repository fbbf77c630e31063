"use client";

import { zodResolver } from "@hookform/resolvers/zod";
import { useTranslations } from "next-intl";
import { useHydrated } from "@/components/layout/use-hydrated";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { useForm, useWatch, type Path } from "react-hook-form";
import useSWR from "swr";
import { z } from "zod";
import { Button } from "@/components/ui/button";
import { FormAlert, TextField } from "@/components/ui/text-field";
import { api, ApiError } from "@/lib/client/api";
import { messageText } from "@/lib/client/message-text";
import { notify } from "@/lib/client/notify";
import {
  ABOUT_MAX,
  EMOJI_STATUS_PRESETS,
  EMOJI_STATUSES,
  NAME_MAX,
  OLDEST_BIRTH_DATE,
  PHONE_MAX,
  updateAccountInput,
} from "@/lib/validation/account";
import { SelectField, TextAreaField } from "./fields";
import { toProfileValues, type ProfileValues } from "./profile-values";
import { genderOf } from "@/lib/i18n/gender";
import styles from "./settings-form.module.css";

/** The editable text fields of PUT account/me, checked by the same schema the API uses. */
const profileSchema = updateAccountInput.pick({
  firstName: true,
  lastName: true,
  phone: true,
  birthDate: true,
  country: true,
  city: true,
  about: true,
  emojiStatus: true,
});
type ProfileInput = z.input<typeof profileSchema>;
type ProfileOutput = z.output<typeof profileSchema>;
const FIELDS = Object.keys(profileSchema.shape) as Path<ProfileInput>[];

export type GeoCountry = { id: string; title: string };
type GeoCity = { id: number; title: string; countryId: string };

function todayLocal(): string {
  const now = new Date();
  return new Date(now.getTime() - now.getTimezoneOffset() * 60_000).toISOString().slice(0, 10);
}

/**
 * Name, phone, birthday, country and city (from the geo lists), about and the emoji status, saved
 * together with PUT account/me. The server's refusals land under their fields. Each input also gets its
 * first value as a plain default, so the server-rendered page shows it before react-hook-form hydrates.
 */
export function ProfileForm({
  initial,
  countries,
  initialCities,
}: {
  initial: ProfileValues;
  countries: GeoCountry[];
  /** Cities of the initially chosen country, so the picker is ready without a request. */
  initialCities: { countryId: string; cities: GeoCity[] } | null;
}) {
  const t = useTranslations("settings");
  const tAll = useTranslations();
  const router = useRouter();
  const [failure, setFailure] = useState<string | null>(null);
  // Before hydration a submit would be a plain GET with the fields in the URL.
  const hydrated = useHydrated();
  const {
    register,
    handleSubmit,
    setError,
    setValue,
    control,
    reset,
    formState: { errors, isSubmitting },
  } = useForm<ProfileInput, unknown, ProfileOutput>({ resolver: zodResolver(profileSchema), defaultValues: initial });

  const [country, city, about, firstName, lastName] = useWatch({ control, name: ["country", "city", "about", "firstName", "lastName"] }).map(
    (v) => v ?? "",
  );
  // "Занят"/"Занята": the chips follow the gender of the name being edited (ADR 0051).
  const gender = genderOf({ firstName, lastName });
  // The emoji chips are controlled by the form value (issue 14 item 1): registered radios with
  // defaultChecked lost the choice when the form re-registered them after a save, and the next save
  // then sent `emojiStatus: null`.
  register("emojiStatus");
  const emojiStatus = useWatch({ control, name: "emojiStatus" }) ?? "";
  const pickEmoji = (value: string) => setValue("emojiStatus", value as ProfileInput["emojiStatus"], { shouldDirty: true });
  const countryId = countries.find((c) => c.title === country)?.id ?? null;
  const cities = useSWR<GeoCity[]>(countryId ? `geo/country/${countryId}/city` : null, (path: string) => api<GeoCity[]>(path), {
    fallbackData: initialCities && initialCities.countryId === countryId ? initialCities.cities : undefined,
    revalidateOnFocus: false,
    revalidateIfStale: false,
  });
  const cityList = cities.data ?? [];
  const err = (name: keyof ProfileValues) => messageText(tAll, errors[name]?.message);

  const onSubmit = handleSubmit(async (values) => {
    setFailure(null);
    try {
      const saved = await api<Parameters<typeof toProfileValues>[0]>("account/me", { method: "PUT", body: values });
      reset(toProfileValues(saved));
      notify({ status: "success", message: t("saved") });
      router.refresh(); // the name in the top bar and the profile menu
    } catch (error) {
      let placed = 0;
      if (error instanceof ApiError) {
        for (const issue of error.issues) {
          if (!FIELDS.includes(issue.path as Path<ProfileInput>)) continue;
          setError(issue.path as Path<ProfileInput>, { type: "server", message: issue.message }, { shouldFocus: placed === 0 });
          placed += 1;
        }
      }
      if (placed === 0) setFailure(error instanceof ApiError && error.message ? error.message : t("saveFailed"));
    }
  });

  return (
    <form className={styles.form} noValidate onSubmit={(e) => void onSubmit(e)} aria-label={t("profile")}>
      {failure ? <FormAlert>{failure}</FormAlert> : null}
      <div className={styles.grid}>
        <TextField label={t("firstName")} autoComplete="given-name" maxLength={NAME_MAX} error={err("firstName")} defaultValue={initial.firstName} {...register("firstName")} />
        <TextField label={t("lastName")} autoComplete="family-name" maxLength={NAME_MAX} error={err("lastName")} defaultValue={initial.lastName} {...register("lastName")} />
        <TextField
          label={t("birthDate")}
          type="date"
          min={OLDEST_BIRTH_DATE}
          max={todayLocal()}
          autoComplete="bday"
          error={err("birthDate")}
          defaultValue={initial.birthDate}
          {...register("birthDate")}
        />
        <TextField
          label={t("phone")}
          type="tel"
          inputMode="tel"
          autoComplete="tel"
          maxLength={PHONE_MAX}
          placeholder={t("phonePlaceholder")}
          error={err("phone")}
          defaultValue={initial.phone}
          {...register("phone")}
        />
        <SelectField label={t("country")} autoComplete="country-name" error={err("country")} defaultValue={initial.country} {...register("country", { onChange: () => setValue("city", "", { shouldDirty: true }) })}>
          <option value="">{t("countryNone")}</option>
          {country && !countryId ? <option value={country}>{country}</option> : null}
          {countries.map((c) => (
            <option key={c.id} value={c.title}>
              {c.title}
            </option>
          ))}
        </SelectField>
        <SelectField
          label={t("city")}
          autoComplete="address-level2"
          error={err("city")}
          disabled={!countryId && !city}
          aria-busy={cities.isLoading}
          hint={
            !countryId && !city
              ? t("cityPickCountry")
              : cities.error
                ? t("citiesFailed")
                : countryId && !cities.isLoading && cityList.length === 0
                  ? t("cityNoList")
                  : undefined
          }
          defaultValue={initial.city}
          {...register("city")}
        >
          <option value="">{t("cityNone")}</option>
          {city && !cityList.some((c) => c.title === city) ? <option value={city}>{city}</option> : null}
          {cityList.map((c) => (
            <option key={c.id} value={c.title}>
              {c.title}
            </option>
          ))}
        </SelectField>
      </div>
      <TextAreaField
        label={t("about")}
        rows={4}
        maxLength={ABOUT_MAX}
        placeholder={t("aboutPlaceholder")}
        count={t("aboutCount", { count: about.length, max: ABOUT_MAX })}
        error={err("about")}
        defaultValue={initial.about}
        {...register("about")}
      />
      <fieldset className={styles.emojiGroup}>
        <legend className={styles.legend}>{t("emojiStatus")}</legend>
        <div className={styles.emojiOptions}>
          <label className={styles.emojiOption}>
            <input type="radio" name="emojiStatus" value="" checked={emojiStatus === ""} onChange={() => pickEmoji("")} />
            <span className={styles.emojiLabel}>{t("emojiNone")}</span>
          </label>
          {EMOJI_STATUSES.map((id) => (
            <label key={id} className={styles.emojiOption}>
              <input type="radio" name="emojiStatus" value={id} checked={emojiStatus === id} onChange={() => pickEmoji(id)} />
              <span className={styles.emojiGlyph} aria-hidden="true">
                {EMOJI_STATUS_PRESETS[id]}
              </span>
              <span className={styles.emojiLabel}>{t(`emoji.${id}`, { gender })}</span>
            </label>
          ))}
        </div>
        {err("emojiStatus") ? <FormAlert>{err("emojiStatus")}</FormAlert> : null}
      </fieldset>
      <div className={styles.actions}>
        <Button type="submit" disabled={isSubmitting || !hydrated}>
          {isSubmitting ? t("saving") : t("save")}
        </Button>
      </div>
    </form>
  );
}
