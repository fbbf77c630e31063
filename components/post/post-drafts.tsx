"use client";

import { useTranslations } from "next-intl";
import { useEffect } from "react";
import { api } from "@/lib/client/api";
import { notify } from "@/lib/client/notify";
import type { Post } from "@/lib/client/posts";
import { NEW_POST_URL } from "@/lib/pwa/manifest-urls";
import { DraftOffers } from "./draft-offers";
import { useDeviceDrafts } from "./use-device-drafts";

/**
 * What the composer does with the device (docs/adr/0179), loaded after the page: the posts this device
 * kept while offline, offered for sending; and the app's «Новая запись» shortcut (NEW_POST_URL), which
 * opens the form (`onOpenAsked`, on the feed only).
 */
export function PostDrafts({
  accountId,
  placeId,
  version,
  onPublished,
  onOpenAsked,
}: {
  accountId: number;
  placeId: number;
  version: number;
  onPublished: (post: Post | null) => void;
  onOpenAsked?: () => void;
}) {
  const t = useTranslations("post.composer");
  const { drafts, reload } = useDeviceDrafts(accountId, "post", placeId, version);

  useEffect(() => {
    if (!onOpenAsked) return;
    const url = new URL(window.location.href);
    if (url.pathname + url.search !== NEW_POST_URL) return;
    url.searchParams.delete("compose");
    window.history.replaceState(window.history.state, "", url.pathname + url.search + url.hash);
    onOpenAsked();
    // Once, when the page opens with the shortcut's address.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  if (drafts.length === 0) return null;
  return (
    <DraftOffers
      kind="post"
      drafts={drafts}
      onChanged={reload}
      send={async (draft) => {
        const saved = await api<Post | null>("post", { method: "POST", body: draft.body });
        notify({ status: "success", message: saved?.type === "QUEUED" ? t("scheduled") : t("published") });
        onPublished(saved && typeof saved === "object" && "id" in saved ? saved : null);
      }}
    />
  );
}
