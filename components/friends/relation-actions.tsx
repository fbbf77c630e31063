"use client";

import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { useLocale, useTranslations } from "next-intl";
import Link from "@/components/ui/link";
import { useState, type ReactNode } from "react";
import { mutate as mutateGlobal } from "swr";
import { FRIEND_REQUESTS_COUNT_KEY } from "@/components/layout/friend-requests-badge";
import { Button, ButtonLink } from "@/components/ui/button";
import { CheckIcon, CloseIcon, MessageIcon, MoreIcon } from "@/components/ui/icons";
import { LockIcon, UserMinusIcon, UserPlusIcon } from "@/components/ui/icons-more";
import { LazyMenu } from "@/components/ui/lazy-radix";
import menu from "@/components/ui/menu.module.css";
import type { PersonArgs } from "@/lib/i18n/person-name";
import { api, ApiError } from "@/lib/client/api";
import { notify } from "@/lib/client/notify";
import { useRealtimeEvent } from "@/lib/client/use-realtime";
import { FRIEND_EVENT_TYPES, FRIEND_REPLY, type FriendEventData, type FriendSide, type FriendStatusCode } from "@/lib/validation/friends-shared";
import styles from "./relation-actions.module.css";

export type { FriendStatusCode };

type Verb = "request" | "approve" | "subscribe" | "remove" | "block" | "unblock";

/** The REST call of each action (spec section 7, Friends). */
const CALLS: Record<Verb, (id: number) => { path: string; method: string }> = {
  request: (id) => ({ path: `friends/${id}/request`, method: "POST" }),
  approve: (id) => ({ path: `friends/${id}/approve`, method: "PUT" }),
  subscribe: (id) => ({ path: `friends/subscribe/${id}`, method: "POST" }),
  remove: (id) => ({ path: `friends/${id}`, method: "DELETE" }),
  block: (id) => ({ path: `friends/block/${id}`, method: "PUT" }),
  unblock: (id) => ({ path: `friends/unblock/${id}`, method: "PUT" }),
};

/** One offered action: which call, its label key, and the success toast key. */
type Action = { verb: Verb; label: string; done: string; icon?: ReactNode; variant?: "primary" | "secondary" | "ghost" };

const ADD: Action = { verb: "request", label: "add", done: "requestSent", icon: <UserPlusIcon size={16} /> };
const BLOCK = { verb: "block", label: "block", done: "blocked" } as const satisfies Action;
// Unfriending from the menu, after a confirmation (the two asked actions: their dialogs' texts are relation.<verb>Confirm*).
const UNFRIEND = { verb: "remove", label: "remove", done: "removed" } as const satisfies Action;

/** The actions that fit each side of the relation; buttons first, the block action lives in the menu. */
function actionsFor(status: FriendStatusCode | null): { buttons: Action[]; canMessage: boolean; canBlock: boolean; canUnfriend?: boolean } {
  switch (status) {
    case null:
      return { buttons: [ADD, { verb: "subscribe", label: "subscribe", done: "subscribed", variant: "secondary" }], canMessage: true, canBlock: true };
    case "REQUEST_TO":
      return { buttons: [{ verb: "remove", label: "cancel", done: "cancelled", variant: "secondary" }], canMessage: true, canBlock: true };
    case "REQUEST_FROM":
      return {
        buttons: [
          { verb: "approve", label: "approve", done: "approved", icon: <CheckIcon size={16} /> },
          { verb: "remove", label: "decline", done: "declined", variant: "secondary" },
        ],
        canMessage: true,
        canBlock: true,
      };
    case "FRIEND":
      // Writing is what one does with a friend; ending the friendship is in the menu, after a confirmation
      // (issue 24 item 16, docs/adr/0118).
      return { buttons: [], canMessage: true, canBlock: true, canUnfriend: true };
    case "SUBSCRIBED":
      return { buttons: [ADD, { verb: "remove", label: "unsubscribe", done: "unsubscribed", variant: "secondary" }], canMessage: true, canBlock: true };
    case "WATCHING":
      return { buttons: [ADD, { verb: "remove", label: "removeSubscriber", done: "subscriberRemoved", variant: "secondary" }], canMessage: true, canBlock: true };
    case "BLOCKED":
      return { buttons: [{ verb: "unblock", label: "unblock", done: "unblocked", icon: <LockIcon size={16} />, variant: "secondary" }], canMessage: false, canBlock: false };
    case "REJECTING":
      // Blocked by them: nothing to offer but a block back (issue 24 item 20, ADR 114).
      return { buttons: [], canMessage: false, canBlock: true };
  }
}

/**
 * Between a person here and a person of another server there are follows only (issue 43, docs/adr/0180):
 * follow, follow back a follower, unfollow, remove a follower, block. FRIEND is a mutual follow; no
 * messages ever go there.
 */
function remoteActionsFor(status: FriendStatusCode | null): ReturnType<typeof actionsFor> {
  const follow: Action = { verb: "subscribe", label: status ? "followBack" : "subscribe", done: "subscribed" };
  const buttons =
    status === null ? [follow]
    : status === "WATCHING" ? [follow, { verb: "remove", label: "removeSubscriber", done: "subscriberRemoved", variant: "secondary" } as Action]
    : status === "SUBSCRIBED" || status === "FRIEND" ? [{ verb: "remove", label: "unsubscribe", done: "unsubscribed", variant: "secondary" } as Action]
    : actionsFor(status).buttons;
  return { buttons, canMessage: false, canBlock: status !== "BLOCKED" };
}

/** Spec section 5: refusals known before any call, with their exact texts (keys of messages/*.json). */
const REQUEST_GUARDS: Partial<Record<FriendStatusCode, string>> = {
  REQUEST_TO: "relation.guardRequestSent",
  REJECTING: "friendErrors.blockedYou",
  BLOCKED: "friendErrors.youBlocked",
  FRIEND: "friendErrors.alreadyFriends",
};

const isFriendEvent = (type: string) => (FRIEND_EVENT_TYPES as readonly string[]).includes(type);

// The declension of the name (lvovich, ~6 KB gzip) is needed only by the texts an action shows — its
// confirmation and its toast — so it loads when the actions are first pointed at or focused, not with the
// profile page (docs/adr/0143).
type PersonArgsOf = typeof import("@/lib/i18n/person-name").personArgs;
let personArgsOf: PersonArgsOf | null = null;
const loadPersonArgs = async (): Promise<PersonArgsOf> => (personArgsOf ??= (await import("@/lib/i18n/person-name")).personArgs);
/** The name undeclined: what a confirmation's text holds until the declension is there (it is closed then). */
const plainArgs = (name: string): PersonArgs => ({ name, nameGen: name, nameDat: name, nameAcc: name, nameIns: name, namePre: name, gender: "other" });

/**
 * The friend actions that fit the viewer's relation with one account (spec sections 4, 5 and 8):
 * add, cancel, approve or decline, remove, subscribe or unsubscribe, block, unblock, and a link to the
 * dialog. Guards run before the call; the server's replies become the spec's toasts. The shown status
 * follows the other person's actions live (friend events on the socket).
 */
export function RelationActions({
  accountId,
  firstName,
  statusCode,
  onChange,
  compact,
  privacy,
  remote,
}: {
  accountId: number;
  firstName: string;
  statusCode: FriendStatusCode | null;
  onChange?: (next: FriendStatusCode | null) => void;
  compact?: boolean;
  /**
   * What the account's privacy settings allow the viewer (docs/adr/0125), when the caller knows it: a
   * refused "write" or "add" is not offered, and a short line says why. A friend may always write.
   */
  privacy?: { canMessage: boolean; canRequestFriend: boolean };
  /**
   * A person of another server (issue 43): following is all there is (no friendship, no messages, so no
   * privacy lines about them), and a follow refused until the viewer's own fediverse switch is on says so
   * with a link to the privacy settings.
   */
  remote?: boolean;
}) {
  const t = useTranslations();
  const locale = useLocale();
  const person = personArgsOf ? personArgsOf({ firstName }, locale) : plainArgs(firstName);
  const personNow = async () => (await loadPersonArgs())({ firstName }, locale);
  const [status, setStatus] = useState(statusCode);
  // The harsh action being confirmed (block, unfriend); kept while the dialog closes so its text stays.
  const [confirming, setConfirming] = useState<{ action: typeof BLOCK | typeof UNFRIEND; open: boolean }>({ action: BLOCK, open: false });
  // Opened once the declension is there, so the dialog's text names the person as it should.
  const confirm = (action: typeof BLOCK | typeof UNFRIEND) =>
    void personNow()
      .catch(() => null)
      .then(() => setConfirming({ action, open: true }));
  const preload = () => void loadPersonArgs().catch(() => undefined);
  const [shownProp, setShownProp] = useState(statusCode);
  const [busy, setBusy] = useState(false);
  // The refusal of a follow of a remote person (403: the viewer's fediverse switch is off), in the API's words.
  const [needsSwitch, setNeedsSwitch] = useState<string | null>(null);
  // A new status from the parent (a reloaded list, a revalidated profile) wins over the local one.
  if (shownProp !== statusCode) {
    setShownProp(statusCode);
    setStatus(statusCode);
  }

  const change = (next: FriendStatusCode | null) => {
    setStatus(next);
    onChange?.(next);
  };

  useRealtimeEvent("*", (event) => {
    if (!isFriendEvent(event.type)) return;
    const data = event.data as Partial<FriendEventData> | null;
    if (!data || data.authorId !== accountId || data.statusCode === undefined) return;
    if (data.statusCode !== status) change(data.statusCode);
  });

  async function run(action: Action) {
    if (busy) return;
    if (action.verb === "request" && status && REQUEST_GUARDS[status]) {
      notify({ status: "error", message: t(REQUEST_GUARDS[status]) });
      return;
    }
    setBusy(true);
    setNeedsSwitch(null);
    try {
      const { path, method } = CALLS[action.verb](accountId);
      const side = await api<FriendSide>(path, { method });
      change(side.statusCode);
      void mutateGlobal(FRIEND_REQUESTS_COUNT_KEY);
      // A request to someone who had asked first makes friends at once: say so rather than "sent".
      const done = action.verb === "request" && side.statusCode === "FRIEND" ? "approved" : action.done;
      notify({ status: "success", message: t(`relation.${done}`, await personNow().catch(() => plainArgs(firstName))) });
    } catch (err) {
      if (err instanceof ApiError && err.message === FRIEND_REPLY.requestAlreadySent) {
        notify({ status: "error", message: t("friendErrors.requestAlreadySent") });
        change("REQUEST_TO");
      } else if (err instanceof ApiError && err.message === FRIEND_REPLY.blocked) {
        notify({ status: "error", message: t("friendErrors.blockedYou") });
        change("REJECTING");
      } else if (remote && action.verb === "subscribe" && err instanceof ApiError && err.status === 403) {
        // privacyErrors.fediverseFollowNeedsSwitch: a follow is signed by one's own actor (issue 43).
        setNeedsSwitch(err.message);
      } else {
        // The API answers in the viewer's language; a network failure has no useful text of its own.
        notify({ status: "error", message: err instanceof ApiError && err.status < 500 ? err.message : t("relation.failed") });
      }
    } finally {
      setBusy(false);
    }
  }

  const offered = remote ? remoteActionsFor(status) : actionsFor(status);
  const { canBlock, canUnfriend = false } = offered;
  const writeRefused = privacy !== undefined && status !== "FRIEND" && offered.canMessage && !privacy.canMessage;
  const requestRefused = privacy !== undefined && !privacy.canRequestFriend;
  const canMessage = offered.canMessage && !writeRefused;
  const allowed = requestRefused ? offered.buttons.filter((a) => a.verb !== "request") : offered.buttons;
  // Following is a remote person's main action: a primary button where it is the only one.
  const buttons = allowed;
  const refusals = remote ? [] : [writeRefused && t("relation.writeFriendsOnly"), requestRefused && offered.buttons.some((a) => a.verb === "request") && t("relation.requestsFriendsOfFriends")].filter(Boolean);
  const messageHref = `/im?${new URLSearchParams({ recipientId: String(accountId) })}`;
  // A friend's row keeps "write" in sight even in a compact list: it is the one button there.
  const showMessageButton = canMessage && (!compact || canUnfriend);
  const messageInMenu = canMessage && !showMessageButton;
  const menuHasItems = canBlock || canUnfriend || messageInMenu;

  return (
    <div
      className={[styles.actions, compact && styles.compact].filter(Boolean).join(" ")}
      data-status={status ?? "NONE"}
      aria-busy={busy || undefined}
      onPointerEnter={preload}
      onFocus={preload}
      onTouchStart={preload}
    >
      {buttons.map((a) => (
        <Button key={a.label} className={styles.button} variant={a.variant ?? "primary"} disabled={busy} onClick={() => void run(a)}>
          {a.icon}
          {t(`relation.${a.label}`)}
        </Button>
      ))}
      {showMessageButton ? (
        <ButtonLink href={messageHref} variant={buttons.length === 0 ? "primary" : "secondary"} className={styles.button}>
          <MessageIcon size={16} />
          {t("relation.message")}
        </ButtonLink>
      ) : null}
      {menuHasItems ? (
        <LazyMenu trigger={{ className: styles.more, disabled: busy, "aria-label": t("relation.more", { name: firstName }), children: <MoreIcon size={18} /> }}>
          {(Menu) => (
            <Menu.Portal>
              <Menu.Content className={menu.content} align="end" sideOffset={6}>
                {messageInMenu ? (
                  <Menu.Item asChild className={menu.item}>
                    <Link href={messageHref}>
                      <MessageIcon size={18} />
                      <span className={menu.itemText}>{t("relation.message")}</span>
                    </Link>
                  </Menu.Item>
                ) : null}
                {canUnfriend ? (
                  <Menu.Item className={menu.item} onSelect={() => confirm(UNFRIEND)}>
                    <UserMinusIcon size={18} />
                    <span className={menu.itemText}>{t("relation.remove")}</span>
                  </Menu.Item>
                ) : null}
                {canBlock ? (
                  <Menu.Item className={`${menu.item} ${menu.danger}`} onSelect={() => confirm(BLOCK)}>
                    <CloseIcon size={18} />
                    <span className={menu.itemText}>{t("relation.block")}</span>
                  </Menu.Item>
                ) : null}
              </Menu.Content>
            </Menu.Portal>
          )}
        </LazyMenu>
      ) : null}
      {remote && status === "FRIEND" ? (
        <p className={styles.mutual} data-testid="fediverse-mutual">
          <CheckIcon size={14} />
          {t("relation.mutual")}
        </p>
      ) : null}
      {needsSwitch ? (
        <p className={styles.refusal} role="alert" data-testid="fediverse-follow-refusal">
          <LockIcon size={14} />
          <span>
            {needsSwitch}{" "}
            <Link href="/settings#privacy" className={styles.refusalLink}>
              {t("relation.fediverseSwitchLink")}
            </Link>
          </span>
        </p>
      ) : null}
      {/* A compact row (lists) just leaves the refused action out; the profile says why. */}
      {refusals.length > 0 && !compact ? (
        <p className={styles.refusal} data-testid="privacy-refusal">
          <LockIcon size={14} />
          {refusals.join(" · ")}
        </p>
      ) : null}
      <ConfirmDialog
        open={confirming.open}
        onOpenChange={(open) => setConfirming((c) => ({ ...c, open }))}
        title={t(`relation.${confirming.action.verb}ConfirmTitle`, person)}
        text={t(`relation.${confirming.action.verb}ConfirmText`, person)}
        busy={busy}
        cancelLabel={t("relation.blockCancel")}
        confirmLabel={t(`relation.${confirming.action.verb}Confirm`)}
        onConfirm={() => void run(confirming.action).then(() => setConfirming((c) => ({ ...c, open: false })))}
      />
    </div>
  );
}
