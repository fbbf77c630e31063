"use client";

import { useTranslations } from "next-intl";
import dynamic from "next/dynamic";
import { useState } from "react";
import { createPortal } from "react-dom";
import { CloseIcon } from "@/components/ui/icons";
import { Spinner } from "@/components/ui/spinner";
import { useDialogOnDemand } from "@/components/ui/use-dialog-on-demand";
import type { ReactionCount } from "@/lib/validation/post";
import styles from "./who-reacted.module.css";

// The tabs and lists load when the dialog first opens (issue 25 section 3: Radix Tabs, SWR's infinite
// pages and zod stay out of the feed's first load; tests/unit/first-load-radix and first-load-zod).
const WhoReactedTabs = dynamic(() => import("./who-reacted-tabs").then((m) => m.WhoReactedTabs), {
  ssr: false,
  loading: () => <TabsLoading />,
});

function TabsLoading() {
  const t = useTranslations("post.whoReacted");
  return (
    <div className={styles.loading}>
      <Spinner label={t("loading")} />
    </div>
  );
}

/**
 * The reaction summary of a post («N реакций»): a button that opens who reacted in a modal <dialog>
 * (the browser traps focus, closes on Escape and gives focus back to the button), with a tab for all
 * and one per reaction type; each tab pages through GET post/{id}/reactions.
 */
export function WhoReacted({ postId, total, counts }: { postId: number; total: number; counts: ReactionCount[] }) {
  const t = useTranslations("post.whoReacted");
  // The <dialog> goes into the document when the summary is first pointed at, touched or focused.
  const { dialog, mounted, show, intent } = useDialogOnDemand();
  const [open, setOpen] = useState(false);
  const titleId = `who-reacted-${postId}`;

  const content = (
    <dialog
      ref={dialog}
      className={styles.dialog}
      aria-labelledby={titleId}
      data-testid="who-reacted"
      onClose={() => setOpen(false)}
      onClick={(event) => {
        if (event.target === dialog.current) dialog.current.close();
      }}
    >
      {open ? (
        <div className={styles.content}>
          <div className={styles.head}>
            <h2 id={titleId} className={styles.title}>
              {t("title")}
            </h2>
            <button type="button" className={styles.close} onClick={() => dialog.current?.close()} aria-label={t("close")}>
              <CloseIcon size={18} />
            </button>
          </div>
          <WhoReactedTabs postId={postId} total={total} counts={counts} />
        </div>
      ) : null}
    </dialog>
  );

  if (total <= 0) return null;
  return (
    <>
      <button
        type="button"
        className={styles.summary}
        data-testid="who-reacted-open"
        aria-haspopup="dialog"
        {...intent}
        onClick={() => {
          setOpen(true);
          show();
        }}
      >
        {t("summary", { count: total })}
      </button>
      {mounted ? createPortal(content, document.body) : null}
    </>
  );
}
