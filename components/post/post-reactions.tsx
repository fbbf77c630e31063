"use client";

import { useLocale, useTranslations } from "next-intl";
import { useEffect, useRef, useState } from "react";
import { LazyPopover } from "@/components/ui/lazy-radix";
import { ApiError } from "@/lib/client/api";
import { messageText } from "@/lib/client/message-text";
import { notify } from "@/lib/client/notify";
import { removeReaction, setReaction } from "@/lib/client/posts";
import { applyReaction, nextReaction, type ReactionState } from "@/lib/client/reaction-state";
import type { ReactionDefinition, ReactionType } from "@/lib/validation/reactions";
import { SmilePlusIcon } from "./post-icons";
import { ReactionImage } from "./reaction-image";
import { WhoReacted } from "./who-reacted";
import styles from "./post-reactions.module.css";

/** Spec section 9: the reaction animation; clicks stay blocked at least this long. */
export const REACTION_ANIMATION_MS = 300;

/** Each reaction's title in the reader's language, as the server gives them for the types a post shows. */
export type ReactionTitles = Partial<Record<ReactionType, string>>;

// The table of the 69 reactions (the picker's list and every title) is loaded on intent — a pointer over
// the bar, a touch, the focus — and before the picker opens or a reaction is sent; the titles of the
// types a card shows come with the card (docs/adr/0151).
type Reaction = ReactionDefinition & { id: ReactionType };
let table: readonly Reaction[] | null = null;
let tableLoading: Promise<readonly Reaction[]> | null = null;
function loadTable(): Promise<readonly Reaction[]> {
  tableLoading ??= import("@/lib/validation/reactions").then(
    (m) => (table = m.REACTIONS),
    (err: unknown) => {
      tableLoading = null;
      throw err;
    },
  );
  return tableLoading;
}

/**
 * The reactions of a post: the current counts with their images, and a picker with all 69. A click
 * shows its result at once (optimistic), blocks further clicks until the server has answered and the
 * 300 ms animation has run, and then takes the server's counts (spec section 4; bluesky's
 * post-shadow idea). A refusal puts the previous state back and says why.
 */
export function PostReactions({ postId, initial, titles, disabled }: { postId: number; initial: ReactionState; titles: ReactionTitles; disabled?: boolean }) {
  const t = useTranslations("post.reactions");
  const tAll = useTranslations();
  const locale = useLocale() === "en" ? "en" : "ru";
  const [state, setState] = useState(initial);
  const [base, setBase] = useState(initial);
  const [pending, setPending] = useState(false);
  const [animated, setAnimated] = useState<ReactionType | null>(null);
  const [open, setOpen] = useState(false);
  const [reactions, setReactions] = useState(table);
  const busy = useRef(false);
  const wantTable = () => {
    if (!reactions) loadTable().then(setReactions, () => {});
  };

  // Fresh data from the list (a revalidation) wins whenever no change of ours is in flight.
  if (initial !== base && !pending) {
    setBase(initial);
    setState(initial);
  }

  useEffect(() => {
    if (!animated) return;
    const timer = setTimeout(() => setAnimated(null), REACTION_ANIMATION_MS);
    return () => clearTimeout(timer);
  }, [animated]);

  const titleOf = (type: ReactionType) => titles[type] ?? reactions?.find((r) => r.id === type)?.title[locale] ?? type;

  async function choose(clicked: ReactionType) {
    if (busy.current || disabled) return; // blocked while a change is in progress
    busy.current = true;
    setPending(true);
    setOpen(false);
    const before = state;
    const next = nextReaction(before.myReaction, clicked);
    setState(applyReaction(before, next));
    setAnimated(next ?? clicked);
    const pause = new Promise((resolve) => setTimeout(resolve, REACTION_ANIMATION_MS));
    // The answer may show types this card had no title for: the table is there by the time it is shown.
    const named = loadTable().then(setReactions, () => {});
    try {
      const [answer] = await Promise.all([next ? setReaction(postId, next) : removeReaction(postId), pause, named]);
      setState({ likeAmount: answer.likeAmount, myLike: answer.myLike, myReaction: answer.myReaction, reactionType: answer.reactionType });
    } catch (err) {
      setState(before);
      notify({ status: "error", message: err instanceof ApiError && err.message ? (messageText(tAll, err.message) ?? err.message) : t("failed") });
    } finally {
      busy.current = false;
      setPending(false);
    }
  }

  return (
    <div className={styles.bar} aria-busy={pending} data-testid="post-reactions" onPointerOver={wantTable} onTouchStart={wantTable} onFocus={wantTable}>
      <ul className={styles.counts} aria-label={t("label", { count: state.likeAmount })}>
        {state.reactionType.map(({ reactionType, count }) => {
          const mine = state.myReaction === reactionType;
          return (
            <li key={reactionType}>
              <button
                type="button"
                className={`${styles.chip} ${mine ? styles.mine : ""} ${animated === reactionType ? styles.pop : ""}`}
                aria-pressed={mine}
                aria-disabled={pending || disabled || undefined}
                aria-label={t(mine ? "chipMine" : "chip", { title: titleOf(reactionType), count })}
                title={titleOf(reactionType)}
                data-reaction={reactionType}
                onClick={() => void choose(reactionType)}
              >
                <ReactionImage type={reactionType} size={20} lazy />
                <span className={styles.count}>{count}</span>
              </button>
            </li>
          );
        })}
      </ul>
      <LazyPopover
        trigger={{
          className: styles.add,
          "aria-label": state.myReaction ? t("change") : t("add"),
          title: state.myReaction ? t("change") : t("add"),
          "aria-disabled": pending || disabled || undefined,
          children: <SmilePlusIcon size={20} />,
        }}
        open={open}
        onOpenChange={(next) => {
          if (!next || pending) setOpen(false);
          // The picker opens with its list: once the table is there (at once after the first time).
          else if (reactions) setOpen(true);
          else
            loadTable().then(
              (loaded) => {
                setReactions(loaded);
                if (!busy.current) setOpen(true);
              },
              (err: unknown) => console.error("the reaction table did not load", err),
            );
        }}
      >
        {(Popover) => (
          <Popover.Portal>
            <Popover.Content className={styles.picker} sideOffset={6} align="start" collisionPadding={8} aria-label={t("picker")}>
              <p className={styles.pickerTitle}>{t("picker")}</p>
              <div className={styles.grid} role="group" aria-label={t("picker")}>
                {(reactions ?? []).map((r) => {
                  const mine = state.myReaction === r.id;
                  return (
                    <button
                      key={r.id}
                      type="button"
                      className={`${styles.option} ${mine ? styles.optionMine : ""}`}
                      aria-pressed={mine}
                      aria-label={r.title[locale]}
                      title={r.title[locale]}
                      data-reaction={r.id}
                      onClick={() => void choose(r.id)}
                    >
                      <ReactionImage type={r.id} size={28} lazy />
                    </button>
                  );
                })}
              </div>
            </Popover.Content>
          </Popover.Portal>
        )}
      </LazyPopover>
      <WhoReacted postId={postId} total={state.likeAmount} counts={state.reactionType} />
    </div>
  );
}
