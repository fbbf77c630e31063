"use client";

import dynamic from "next/dynamic";
import { useLocale, useTranslations } from "next-intl";
import { useEffect, useId, useLayoutEffect, useRef, useState, type ChangeEvent, type KeyboardEvent } from "react";
import { AlertIcon, CheckIcon, CloseIcon } from "@/components/ui/icons";
import { useTouchScreen } from "@/components/ui/use-touch-screen";
import { ApiError } from "@/lib/client/api";
import { messageText } from "@/lib/client/message-text";
import { Avatar } from "@/components/ui/avatar";
import { insertMention, mentionAt, mentionCandidates, mentionsIn } from "@/lib/client/chat/group";
import type { MemberCard, MessageDto } from "@/lib/validation/dialogs";
import { MESSAGE_IMAGES_MAX, MESSAGE_TEXT_MAX } from "@/lib/validation/dialogs-shared";
import { MAX_UPLOAD_BYTES } from "@/lib/validation/storage-shared";
import { PaperclipIcon, SendIcon, SmileIcon } from "./chat-icons";
import styles from "./chat.module.css";
import group from "./group.module.css";
import { ReplyQuote } from "./message-bubble";

/**
 * The picker and its data are not part of the dialog page's first load (docs/adr/0134). They are fetched when
 * the composer is first used (the field focused, the emoji button pointed at or focused), so that the first
 * opening finds them there (issue 44 item 7: it took 2.5 s on a phone when fetched on the press).
 */
const loadPicker = () => import("./emoji-picker");
const EmojiPicker = dynamic(loadPicker, { ssr: false, loading: () => <div className={styles.emojiLoading} aria-busy="true" /> });
let pickerWanted = false;
function preloadPicker(locale: string): void {
  if (pickerWanted) return;
  pickerWanted = true;
  void loadPicker().then((m) => m.preloadEmojiData(locale));
}

/** What the composer is doing besides writing a new message: answering one, or editing the viewer's own. */
export type ComposerContext = { kind: "reply" | "edit"; message: MessageDto; authorName: string } | null;

/** Show the counter from here on: nobody needs it for a short message. */
const COUNTER_FROM = MESSAGE_TEXT_MAX - 500;
const MAX_HEIGHT_PX = 168;
const ACCEPT = "image/jpeg,image/png,image/webp,image/gif,image/avif";

/** A photo picked for the next message: its local preview, then the path the upload stored it at. */
type Attachment = {
  key: string;
  preview: string;
  state: "uploading" | "done" | "failed";
  progress: number;
  path: string | null;
  error: string | null;
  controller: AbortController | null;
};

/**
 * The message box: Enter sends, Shift+Enter breaks the line (and an IME composition is never cut
 * short). Text beyond the limit is refused with a note, never cut. Answering a message shows its quote
 * above the field; editing one puts its text in the field (the draft comes back afterwards). Escape
 * leaves either. Up to MESSAGE_IMAGES_MAX photos go with a message: each uploads at once through the
 * one image upload (progress, a refusal said on its preview), and the message may then have no text.
 * The emoji button opens a picker that inserts at the caret.
 */
export function Composer({
  onSend,
  onTyping,
  context = null,
  onCancelContext,
  mentionable = null,
  viewerId = 0,
}: {
  onSend: (text: string, images: string[], mentions: number[]) => void;
  onTyping: () => void;
  context?: ComposerContext;
  onCancelContext?: () => void;
  /** In a group: the members "@" suggests (issue 41); null in a personal dialog. */
  mentionable?: readonly MemberCard[] | null;
  viewerId?: number;
}) {
  const t = useTranslations("im");
  const tAll = useTranslations();
  const tGroup = useTranslations("group");
  const locale = useLocale();
  const touch = useTouchScreen();
  // «(Esc)» is a key a touch screen has not (issue 44 item 5).
  const cancelEdit = touch ? "cancelEditTouch" : "cancelEdit";
  const [text, setText] = useState("");
  const box = useRef<HTMLTextAreaElement>(null);
  const fileInput = useRef<HTMLInputElement>(null);
  const emojiButton = useRef<HTMLButtonElement>(null);
  const emojiPopover = useRef<HTMLDivElement>(null);
  const caret = useRef<number | null>(null);
  const [draft, setDraft] = useState<string | null>(null);
  const [attachments, setAttachments] = useState<Attachment[]>([]);
  const [limitNote, setLimitNote] = useState(false);
  const [emojiOpen, setEmojiOpen] = useState(false);
  // "@" typed in a group: the query after it, the suggestions' highlighted row, and who was chosen.
  const [mention, setMention] = useState<{ start: number; caret: number; query: string } | null>(null);
  const [activeMention, setActiveMention] = useState(0);
  const chosen = useRef<MemberCard[]>([]);
  const listId = useId();
  const suggestions = mentionable && mention ? mentionCandidates(mentionable, mention.query, viewerId) : [];
  const editingId = context?.kind === "edit" ? context.message.id : null;
  const replyId = context?.kind === "reply" ? context.message.id : null;

  // Editing starts: the message's text in the field, the draft kept; it ends: the draft back.
  const [shownEditing, setShownEditing] = useState<number | null>(null);
  if (editingId !== shownEditing) {
    setShownEditing(editingId);
    if (editingId !== null) {
      if (draft === null) setDraft(text);
      setText(context?.message.messageText ?? "");
    } else if (draft !== null) {
      setText(draft);
      setDraft(null);
    }
  }

  useEffect(() => {
    if (editingId !== null || replyId !== null) box.current?.focus();
  }, [editingId, replyId]);
  const hintId = useId();
  const counterId = useId();
  const photosId = useId();
  const length = [...text.trim()].length;
  const tooLong = length > MESSAGE_TEXT_MAX;
  const editing = editingId !== null;
  const ready = editing ? [] : attachments.filter((a) => a.state === "done").map((a) => a.path!);
  const uploading = !editing && attachments.some((a) => a.state === "uploading");
  const canSend = !tooLong && !uploading && (length > 0 || ready.length > 0);

  // Grow with the text up to a few lines, then scroll inside; an inserted emoji leaves the caret after it.
  useLayoutEffect(() => {
    const el = box.current;
    if (!el) return;
    el.style.height = "auto";
    el.style.height = `${Math.min(el.scrollHeight, MAX_HEIGHT_PX)}px`;
    if (caret.current !== null) {
      el.setSelectionRange(caret.current, caret.current);
      caret.current = null;
    }
  }, [text]);

  // Previews are object URLs: freed when the composer goes, uploads still running are stopped.
  const attachmentsRef = useRef(attachments);
  useEffect(() => {
    attachmentsRef.current = attachments;
  }, [attachments]);
  useEffect(
    () => () => {
      for (const a of attachmentsRef.current) {
        a.controller?.abort();
        URL.revokeObjectURL(a.preview);
      }
    },
    [],
  );

  // A press anywhere else closes the picker (the field keeps its caret).
  useEffect(() => {
    if (!emojiOpen) return;
    const onDown = (e: PointerEvent) => {
      const target = e.target as Node;
      if (emojiPopover.current?.contains(target) || emojiButton.current?.contains(target)) return;
      setEmojiOpen(false);
    };
    document.addEventListener("pointerdown", onDown);
    return () => document.removeEventListener("pointerdown", onDown);
  }, [emojiOpen]);

  const patch = (key: string, change: Partial<Attachment>) => setAttachments((prev) => prev.map((a) => (a.key === key ? { ...a, ...change } : a)));

  async function upload(a: Attachment, file: File) {
    try {
      // The upload code loads with the first photo picked, not with the page.
      const { uploadImage } = await import("@/components/settings/upload-image");
      const path = await uploadImage(file, (progress) => patch(a.key, { progress }), a.controller!.signal);
      patch(a.key, { state: "done", path, progress: 100, controller: null });
    } catch (err) {
      if (err instanceof DOMException && err.name === "AbortError") return;
      const error = err instanceof ApiError && err.message ? (messageText(tAll, err.message) ?? err.message) : t("uploadFailed");
      patch(a.key, { state: "failed", error, controller: null });
    }
  }

  function onPick(event: ChangeEvent<HTMLInputElement>) {
    const files = [...(event.target.files ?? [])];
    event.target.value = "";
    const room = MESSAGE_IMAGES_MAX - attachments.length;
    setLimitNote(files.length > room);
    const added: Attachment[] = [];
    for (const file of files.slice(0, Math.max(room, 0))) {
      const bad = !file.type.startsWith("image/") ? t("fileNotImage") : file.size > MAX_UPLOAD_BYTES ? t("fileTooLarge") : null;
      const a: Attachment = {
        key: crypto.randomUUID(),
        preview: URL.createObjectURL(file),
        state: bad ? "failed" : "uploading",
        progress: 0,
        path: null,
        error: bad,
        controller: bad ? null : new AbortController(),
      };
      added.push(a);
      if (!bad) void upload(a, file);
    }
    setAttachments((prev) => [...prev, ...added]);
  }

  function removeAttachment(key: string) {
    setLimitNote(false);
    setAttachments((prev) => {
      const gone = prev.find((a) => a.key === key);
      gone?.controller?.abort();
      if (gone) URL.revokeObjectURL(gone.preview);
      return prev.filter((a) => a.key !== key);
    });
    box.current?.focus();
  }

  function findMention(value: string, caretAt: number | null) {
    if (!mentionable) return;
    const found = caretAt === null ? null : mentionAt(value, caretAt);
    setMention(found ? { ...found, caret: caretAt! } : null);
    if (!found || found.query !== mention?.query) setActiveMention(0);
  }

  function chooseMention(member: MemberCard) {
    if (!mention) return;
    const next = insertMention(text, mention.start, mention.caret, member.firstName);
    if (!chosen.current.some((m) => m.id === member.id)) chosen.current = [...chosen.current, member];
    caret.current = next.caret;
    setText(next.text);
    setMention(null);
    box.current?.focus();
  }

  function submit() {
    if (!canSend) return;
    const mentions = editing ? [] : mentionsIn(text, chosen.current);
    onSend(text.trim(), ready, mentions);
    chosen.current = [];
    setMention(null);
    if (!editing) {
      setText("");
      for (const a of attachments) URL.revokeObjectURL(a.preview);
      setAttachments([]);
      setLimitNote(false);
    }
    setEmojiOpen(false);
    box.current?.focus();
  }

  function insertEmoji(emoji: string) {
    const el = box.current;
    const start = el?.selectionStart ?? text.length;
    const end = el?.selectionEnd ?? text.length;
    caret.current = start + emoji.length;
    setText(text.slice(0, start) + emoji + text.slice(end));
  }

  function closeEmoji(focusField: boolean) {
    setEmojiOpen(false);
    if (focusField) box.current?.focus();
  }

  function onKeyDown(e: KeyboardEvent<HTMLTextAreaElement>) {
    if (suggestions.length > 0 && !e.nativeEvent.isComposing) {
      if (e.key === "ArrowDown" || e.key === "ArrowUp") {
        e.preventDefault();
        const step = e.key === "ArrowDown" ? 1 : -1;
        setActiveMention((i) => (i + step + suggestions.length) % suggestions.length);
        return;
      }
      if (e.key === "Enter" || e.key === "Tab") {
        e.preventDefault();
        chooseMention(suggestions[Math.min(activeMention, suggestions.length - 1)]);
        return;
      }
      if (e.key === "Escape") {
        e.preventDefault();
        setMention(null);
        return;
      }
    }
    if (e.key === "Escape" && emojiOpen && !e.nativeEvent.isComposing) {
      e.preventDefault();
      closeEmoji(true);
      return;
    }
    if (e.key === "Escape" && context && !e.nativeEvent.isComposing) {
      e.preventDefault();
      onCancelContext?.();
      return;
    }
    if (e.key !== "Enter" || e.shiftKey || e.nativeEvent.isComposing) return;
    e.preventDefault();
    submit();
  }

  return (
    <form
      className={styles.composer}
      onSubmit={(e) => {
        e.preventDefault();
        submit();
      }}
    >
      {context ? (
        <div className={styles.composerBar} data-testid={context.kind === "edit" ? "composer-editing" : "composer-reply"}>
          <ReplyQuote
            reply={{ id: context.message.id, authorId: context.message.authorId, messageText: context.message.messageText, deleted: false, imageCount: context.message.images?.length ?? 0 }}
            authorName={context.kind === "edit" ? t("editing") : t("replyingTo", { name: context.authorName })}
          />
          <button type="button" className={styles.barClose} onClick={onCancelContext} aria-label={context.kind === "edit" ? t(cancelEdit) : t("cancelReply")} title={context.kind === "edit" ? t(cancelEdit) : t("cancelReply")}>
            <CloseIcon size={18} />
          </button>
        </div>
      ) : null}
      {!editing && attachments.length > 0 ? (
        <div className={styles.attachments}>
          <ul className={styles.attachmentList} aria-label={t("attachmentsLabel")} data-testid="composer-attachments">
            {attachments.map((a, i) => (
              <li key={a.key} className={styles.attachment} data-state={a.state} data-testid="composer-attachment" aria-busy={a.state === "uploading"}>
                {a.path === null && a.state === "failed" && a.controller === null && a.progress === 0 ? (
                  // Refused before any upload (not an image, too large): nothing to preview.
                  <span className={styles.attachmentBroken} role="img" aria-label={t("attachmentAlt", { index: i + 1 })}>
                    <AlertIcon size={22} />
                  </span>
                ) : (
                  <>
                    {/* A local preview of the picked file (an object URL). */}
                    {/* eslint-disable-next-line @next/next/no-img-element */}
                    <img src={a.preview} alt={t("attachmentAlt", { index: i + 1 })} />
                  </>
                )}
                {a.state === "uploading" ? (
                  <span className={styles.attachmentProgress}>
                    <progress max={100} value={a.progress} aria-label={t("uploading", { percent: a.progress })} />
                  </span>
                ) : null}
                <button type="button" className={styles.attachmentRemove} onClick={() => removeAttachment(a.key)} aria-label={t("removeAttachment", { index: i + 1 })} title={t("removeAttachment", { index: i + 1 })}>
                  <CloseIcon size={14} />
                </button>
              </li>
            ))}
          </ul>
          <p id={photosId} className={styles.attachmentNote} aria-live="polite">
            {limitNote ? <span className={styles.over}>{t("attachLimit", { max: MESSAGE_IMAGES_MAX })}</span> : t("attachedCount", { count: attachments.length, max: MESSAGE_IMAGES_MAX })}
            {uploading ? ` · ${t("waitForUploads")}` : ""}
          </p>
          {attachments.map((a, i) =>
            a.state === "failed" ? (
              <p key={a.key} className={styles.attachmentError} role="alert">
                {`${t("attachmentAlt", { index: i + 1 })}: ${a.error ?? t("uploadFailed")}`}
              </p>
            ) : null,
          )}
        </div>
      ) : null}
      {suggestions.length > 0 ? (
        <ul id={listId} className={group.mentionList} role="listbox" aria-label={tGroup("mentionList")} data-testid="mention-suggestions">
          {suggestions.map((m, i) => (
            <li
              key={m.id}
              id={`${listId}-${m.id}`}
              role="option"
              aria-selected={i === activeMention}
              className={i === activeMention ? `${group.mentionOption} ${group.mentionActive}` : group.mentionOption}
              // Pressed with a mouse or finger: the field keeps its focus and caret.
              onMouseDown={(e) => e.preventDefault()}
              onClick={() => chooseMention(m)}
            >
              <Avatar id={m.id} firstName={m.firstName} lastName={m.lastName} photo={m.photo} size={28} alt="" />
              <span>{`${m.firstName} ${m.lastName}`.trim()}</span>
            </li>
          ))}
        </ul>
      ) : null}
      {emojiOpen ? (
        <div
          ref={emojiPopover}
          className={styles.emojiPopover}
          data-testid="emoji-picker"
          role="dialog"
          aria-label={t("emoji")}
          onKeyDown={(e) => {
            // The picker keeps Escape while it has something to undo (a search, a menu); then it is ours.
            if (e.key === "Escape" && !e.defaultPrevented) {
              e.preventDefault();
              setEmojiOpen(false);
              emojiButton.current?.focus();
            }
          }}
        >
          <EmojiPicker onPick={insertEmoji} focusSearch={!touch} />
        </div>
      ) : null}
      <input ref={fileInput} type="file" accept={ACCEPT} multiple className="visually-hidden" tabIndex={-1} aria-hidden="true" onChange={onPick} data-testid="composer-file" />
      <button
        type="button"
        className={styles.tool}
        onClick={() => fileInput.current?.click()}
        disabled={editing || attachments.length >= MESSAGE_IMAGES_MAX}
        aria-label={t("attach")}
        title={attachments.length >= MESSAGE_IMAGES_MAX ? t("attachLimit", { max: MESSAGE_IMAGES_MAX }) : t("attach")}
        aria-describedby={attachments.length > 0 ? photosId : undefined}
      >
        <PaperclipIcon size={22} />
      </button>
      <label htmlFor="chat-composer" className="visually-hidden">
        {t("composerLabel")}
      </label>
      <textarea
        id="chat-composer"
        ref={box}
        className={styles.input}
        rows={1}
        value={text}
        placeholder={t("composerPlaceholder")}
        aria-describedby={`${hintId} ${counterId}`}
        aria-invalid={tooLong || undefined}
        enterKeyHint="send"
        role={mentionable ? "combobox" : undefined}
        aria-autocomplete={mentionable ? "list" : undefined}
        aria-expanded={mentionable ? suggestions.length > 0 : undefined}
        aria-controls={suggestions.length > 0 ? listId : undefined}
        aria-activedescendant={suggestions.length > 0 ? `${listId}-${suggestions[Math.min(activeMention, suggestions.length - 1)].id}` : undefined}
        onChange={(e) => {
          setText(e.target.value);
          findMention(e.target.value, e.target.selectionStart);
          if (e.target.value.trim()) onTyping();
        }}
        onSelect={(e) => {
          const el = e.currentTarget;
          if (mentionable && el.selectionStart === el.selectionEnd && el.selectionStart !== mention?.caret) findMention(el.value, el.selectionStart);
        }}
        onBlur={() => setMention(null)}
        onFocus={() => preloadPicker(locale)}
        onKeyDown={onKeyDown}
      />
      <button
        ref={emojiButton}
        type="button"
        className={styles.tool}
        onPointerEnter={() => preloadPicker(locale)}
        onPointerDown={() => preloadPicker(locale)}
        onFocus={() => preloadPicker(locale)}
        onClick={() => (emojiOpen ? closeEmoji(true) : setEmojiOpen(true))}
        aria-label={t("emoji")}
        title={t("emoji")}
        aria-expanded={emojiOpen}
        aria-haspopup="dialog"
        data-testid="emoji-button"
      >
        <SmileIcon size={22} />
      </button>
      <button type="submit" className={styles.send} disabled={!canSend} aria-label={editing ? t("save") : t("send")} title={uploading ? t("waitForUploads") : editing ? t("save") : t("send")}>
        {editing ? <CheckIcon size={20} /> : <SendIcon size={20} />}
      </button>
      {/* The keyboard's keys, said to a screen reader; a touch screen has none of them (issue 44 item 5). */}
      <p id={hintId} className="visually-hidden">
        {touch ? "" : t("composerHint")}
      </p>
      <p id={counterId} className={tooLong ? `${styles.counter} ${styles.over}` : styles.counter} aria-live="polite">
        {tooLong ? t("tooLong", { max: MESSAGE_TEXT_MAX }) : length >= COUNTER_FROM ? t("counter", { length, max: MESSAGE_TEXT_MAX }) : ""}
      </p>
    </form>
  );
}
