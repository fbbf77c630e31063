"use client";

import { zodResolver } from "@hookform/resolvers/zod";
import { useTranslations } from "next-intl";
import { useRouter } from "next/navigation";
import { useId } from "react";
import { useForm, useWatch } from "react-hook-form";
import useSWR from "swr";
import { Button } from "@/components/ui/button";
import { ChevronDownIcon } from "@/components/ui/icons";
import { TextField, fieldStyles } from "@/components/ui/text-field";
import { api } from "@/lib/client/api";
import { FRIEND_SEARCH_FIELDS, friendSearchForm, type FriendSearchForm } from "@/lib/validation/friends";
import styles from "./find-form.module.css";

type Country = { id: string; title: string };
type City = { id: number; title: string; countryId: string };

const fetchJson = <T,>(path: string) => api<T>(path);

/**
 * The friends search form (spec section 2). Submitting puts the filters in the address, so the server
 * renders the first page of results and a search can be shared or reloaded; "search all users" lists
 * everyone, "reset" goes back to the recommendations.
 */
export function FindForm({ initial }: { initial: FriendSearchForm }) {
  const t = useTranslations();
  const router = useRouter();
  const ids = { country: useId(), city: useId(), cities: useId() };
  const {
    register,
    handleSubmit,
    control,
    setValue,
    formState: { errors },
  } = useForm<FriendSearchForm>({ resolver: zodResolver(friendSearchForm), defaultValues: initial });

  const country = useWatch({ control, name: "country" });
  const { data: countries } = useSWR<Country[]>("geo/country", fetchJson);
  const { data: cities } = useSWR<City[]>(country ? `geo/country/${country}/city` : null, fetchJson);

  const go = (values: Partial<FriendSearchForm>, all = false) => {
    const q = new URLSearchParams();
    for (const key of FRIEND_SEARCH_FIELDS) if (values[key]) q.set(key, values[key]!);
    if (all) q.set("all", "1");
    const qs = q.toString();
    router.push(qs ? `/friends/find?${qs}` : "/friends/find");
  };

  const err = (key: keyof FriendSearchForm) => (errors[key]?.message ? t(errors[key]!.message as never) : undefined);

  return (
    <form className={styles.form} onSubmit={handleSubmit((v) => go(v))} role="search" aria-label={t("friends.search.formLabel")} noValidate>
      <div className={styles.grid}>
        <TextField label={t("friends.search.firstName")} autoComplete="off" maxLength={100} error={err("firstName")} {...register("firstName")} />
        <TextField label={t("friends.search.lastName")} autoComplete="off" maxLength={100} error={err("lastName")} {...register("lastName")} />
        <div className={styles.ages}>
          <TextField label={t("friends.search.ageFrom")} inputMode="numeric" maxLength={3} error={err("ageFrom")} {...register("ageFrom")} />
          <TextField label={t("friends.search.ageTo")} inputMode="numeric" maxLength={3} error={err("ageTo")} {...register("ageTo")} />
        </div>
        <div className={fieldStyles.field}>
          <label htmlFor={ids.country} className={fieldStyles.label}>
            {t("friends.search.country")}
          </label>
          <div className={styles.selectWrap}>
            <select
              id={ids.country}
              className={`${fieldStyles.input} ${styles.select}`}
              {...register("country", { onChange: () => setValue("city", "") })}
            >
              <option value="">{t("friends.search.anyCountry")}</option>
              {initial.country && !countries ? <option value={initial.country}>{initial.country}</option> : null}
              {countries?.map((c) => (
                <option key={c.id} value={c.id}>
                  {c.title}
                </option>
              ))}
            </select>
            <ChevronDownIcon size={18} className={styles.chevron} />
          </div>
        </div>
        <div className={fieldStyles.field}>
          <label htmlFor={ids.city} className={fieldStyles.label}>
            {t("friends.search.city")}
          </label>
          <input
            id={ids.city}
            className={fieldStyles.input}
            list={ids.cities}
            autoComplete="off"
            maxLength={100}
            placeholder={country ? t("friends.search.cityPlaceholder") : t("friends.search.cityAny")}
            aria-invalid={errors.city ? true : undefined}
            {...register("city")}
          />
          <datalist id={ids.cities}>
            {cities?.map((c) => (
              <option key={c.id} value={c.title} />
            ))}
          </datalist>
        </div>
      </div>
      <div className={styles.buttons}>
        <Button type="submit">{t("friends.search.submit")}</Button>
        <Button variant="secondary" onClick={() => go({}, true)}>
          {t("friends.search.all")}
        </Button>
        <Button variant="ghost" onClick={() => go({})}>
          {t("friends.search.reset")}
        </Button>
      </div>
    </form>
  );
}
