"use client";

import { useTranslations } from "next-intl";
import { ApiError } from "@/lib/client/api";
import { messageText } from "@/lib/client/message-text";

/** A refusal's text (the API's, already translated, or a communityErrors key), else the generic one. */
export function useFailureText() {
  const t = useTranslations("communities");
  const tAll = useTranslations();
  return (err: unknown) => (err instanceof ApiError && err.status < 500 && err.message ? (messageText(tAll, err.message) ?? err.message) : t("actionFailed"));
}
