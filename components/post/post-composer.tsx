"use client";

import dynamic from "next/dynamic";
import { useTranslations } from "next-intl";
import { useState } from "react";
import { useHydrated } from "@/components/layout/use-hydrated";
import { Avatar } from "@/components/ui/avatar";
import { notify } from "@/lib/client/notify";
import type { Post } from "@/lib/client/posts";
import { PlusIcon } from "./post-icons";
import styles from "./post-list.module.css";

// The device's drafts and the «Новая запись» shortcut (docs/adr/0179) load after the page.
const PostDrafts = dynamic(() => import("./post-drafts").then((m) => m.PostDrafts), { ssr: false });

// The form (Tiptap, the tag and schedule pickers) loads when someone opens it, not with every feed.
const PostForm = dynamic(() => import("./post-form").then((m) => m.PostForm), { ssr: false });

export type ComposerViewer = { id: number; firstName: string; lastName: string; photo: string | null };
/** A composer on a community's wall (issue 42): the form posts there; `signAs` is the «От имени сообщества» switch (null: none). */
export type ComposerCommunity = { id: number; signAs: boolean | null };

/**
 * The post-creation box (spec section 2): a placeholder block with a plus that opens the form inline.
 * Publishing closes it and reloads the list it sits on. Above it, the posts this device kept while offline
 * (docs/adr/0179).
 */
export function PostComposer({ viewer, onPublished, community }: { viewer: ComposerViewer; onPublished: (post: Post | null) => void; community?: ComposerCommunity }) {
  const t = useTranslations("post.composer");
  const [open, setOpen] = useState(false);
  const hydrated = useHydrated();
  const [draftsVersion, setDraftsVersion] = useState(0);
  const drafts = (
    <PostDrafts accountId={viewer.id} placeId={community?.id ?? 0} version={draftsVersion} onPublished={onPublished} onOpenAsked={community ? undefined : () => setOpen(true)} />
  );

  if (open) {
    return (
      <>
        {drafts}
        <section className={styles.composer} aria-label={t("label")}>
          <PostForm
            viewerId={viewer.id}
            community={community}
            onCancel={() => setOpen(false)}
            onKeptOffline={() => {
              setOpen(false);
              setDraftsVersion((v) => v + 1);
            }}
            onSaved={(post) => {
              setOpen(false);
              notify({ status: "success", message: post?.type === "QUEUED" ? t("scheduled") : t("published") });
              onPublished(post);
            }}
          />
        </section>
      </>
    );
  }
  return (
    <>
      {drafts}
      <ComposerBox viewer={viewer} hydrated={hydrated} setOpen={setOpen} />
    </>
  );
}

/** The closed box: the viewer's avatar and «Что у вас нового?», which opens the form. */
function ComposerBox({ viewer, hydrated, setOpen }: { viewer: ComposerViewer; hydrated: boolean; setOpen: (open: boolean) => void }) {
  const t = useTranslations("post.composer");
  return (
    <section className={styles.composer} aria-label={t("label")}>
      <button type="button" className={styles.placeholder} onClick={() => setOpen(true)} disabled={!hydrated} data-testid="composer-open">
        <Avatar {...viewer} size={36} alt="" />
        <span className={styles.placeholderText}>{t("placeholder")}</span>
        <span className={styles.plus} aria-hidden="true">
          <PlusIcon size={20} />
        </span>
      </button>
    </section>
  );
}
