"use client";

import { useTranslations } from "next-intl";
import { useEffect, useId, useRef, useState, type KeyboardEvent } from "react";
import { api } from "@/lib/client/api";
import { POST_ERRORS, POST_TAGS_MAX, TAG_NAME_MAX, TAG_SUGGEST_DEBOUNCE_MS, TAG_SUGGEST_FROM, TAG_SUGGESTIONS_MAX, normalizeTagName, tagKey } from "@/lib/validation/post-shared";
import { CloseIcon } from "@/components/ui/icons";
import { useTouchScreen } from "@/components/ui/use-touch-screen";
import { TagIcon } from "./post-icons";
import styles from "./post-form.module.css";

export type TagValue = { id?: number; name: string };

const same = (a: string, b: string) => tagKey(a) === tagKey(b);

/**
 * Tags of a post (spec sections 5 and 9): typed text is normalised as it is typed, Enter (or a comma) adds it, suggestions from
 * GET tag (from 2 characters, after 1 s of quiet, the first 5) form an ARIA combobox list. Refusals (an 11th tag, a duplicate) are said under the field.
 */
export function TagInput({ value, onChange }: { value: TagValue[]; onChange: (next: TagValue[]) => void }) {
  const t = useTranslations("post.form");
  const tAll = useTranslations();
  const id = useId();
  const listId = `${id}-list`;
  const messageId = `${id}-message`;
  const input = useRef<HTMLInputElement>(null);
  const [text, setText] = useState("");
  const [message, setMessage] = useState<string | null>(null);
  const [suggestions, setSuggestions] = useState<TagValue[]>([]);
  const [active, setActive] = useState(-1);
  const touch = useTouchScreen();

  useEffect(() => {
    if (text.length < TAG_SUGGEST_FROM) return;
    const controller = new AbortController();
    const timer = setTimeout(() => {
      api<TagValue[]>(`tag?name=${encodeURIComponent(text)}`, { signal: controller.signal })
        .then((found) => {
          setSuggestions(Array.isArray(found) ? found.slice(0, TAG_SUGGESTIONS_MAX) : []);
          setActive(-1);
        })
        .catch(() => setSuggestions([]));
    }, TAG_SUGGEST_DEBOUNCE_MS);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [text]);

  function add(tag: TagValue) {
    const name = normalizeTagName(tag.name);
    if (!name) return;
    if (value.some((x) => same(x.name, name))) {
      setMessage(tAll(POST_ERRORS.tagDuplicate));
      return;
    }
    if (value.length >= POST_TAGS_MAX) {
      setMessage(tAll(POST_ERRORS.tooManyTags));
      return;
    }
    onChange([...value, tag.id ? { id: tag.id, name: tag.name } : { name }]);
    setText("");
    setSuggestions([]);
    setActive(-1);
    setMessage(null);
  }

  function onKeyDown(e: KeyboardEvent<HTMLInputElement>) {
    const open = suggestions.length > 0;
    if (e.key === "ArrowDown" && open) {
      e.preventDefault();
      setActive((i) => (i + 1) % suggestions.length);
    } else if (e.key === "ArrowUp" && open) {
      e.preventDefault();
      setActive((i) => (i <= 0 ? suggestions.length - 1 : i - 1));
    } else if (e.key === "Escape" && open) {
      e.preventDefault();
      setSuggestions([]);
    } else if (e.key === "Enter" || e.key === ",") {
      e.preventDefault();
      if (open && active >= 0) add(suggestions[active]);
      else if (text) add({ name: text });
    } else if (e.key === "Backspace" && !text && value.length > 0) {
      onChange(value.slice(0, -1));
      setMessage(null);
    }
  }

  const shown = suggestions.filter((s) => !value.some((x) => same(x.name, s.name)));
  return (
    <div className={styles.tagsField}>
      <label htmlFor={id} className={styles.label}>
        {t("tags")}
      </label>
      <div className={styles.tagsBox} onClick={() => input.current?.focus()}>
        <TagIcon className={styles.tagsIcon} />
        <ul className={styles.tagList} aria-label={t("tagsChosen")}>
          {value.map((tag) => (
            <li key={tag.name.toLowerCase()} className={styles.tagChip}>
              <span>#{tag.name}</span>
              <button
                type="button"
                className={styles.tagRemove}
                aria-label={t("tagRemove", { name: tag.name })}
                onClick={(e) => {
                  e.stopPropagation();
                  onChange(value.filter((x) => x !== tag));
                  setMessage(null);
                }}
              >
                <CloseIcon size={14} />
              </button>
            </li>
          ))}
        </ul>
        <div className={styles.tagInputWrap}>
          <input
            ref={input}
            id={id}
            className={styles.tagInput}
            value={text}
            placeholder={value.length === 0 ? t(touch ? "tagsPlaceholderTouch" : "tagsPlaceholder") : ""}
            role="combobox"
            aria-expanded={shown.length > 0}
            aria-controls={listId}
            aria-autocomplete="list"
            aria-activedescendant={active >= 0 && shown[active] ? `${listId}-${active}` : undefined}
            aria-describedby={messageId}
            autoComplete="off"
            onChange={(e) => {
              const raw = e.target.value;
              // A phone's keyboard types the comma as text, not as a key press onKeyDown could see.
              if (raw.includes(",")) {
                add({ name: raw.slice(0, raw.indexOf(",")) });
                return;
              }
              // Spaces become "_" as they are typed (normalizeTagName alone would trim a trailing one away).
              const next = normalizeTagName(raw.replace(/\s+/g, "_"));
              // normalizeTagName keeps the first TAG_NAME_MAX characters: past them the field says the limit
              // as it is hit (issue 44 item 5), not a silent cut.
              const cut = Array.from(next).length === TAG_NAME_MAX && Array.from(raw.trim()).length > TAG_NAME_MAX;
              setText(next);
              setMessage(cut ? t("tagTooLong", { max: TAG_NAME_MAX }) : null);
              if (next.length < TAG_SUGGEST_FROM) setSuggestions([]);
            }}
            onKeyDown={onKeyDown}
            onBlur={() => setTimeout(() => setSuggestions([]), 150)}
          />
          <ul id={listId} role="listbox" className={styles.suggestions} hidden={shown.length === 0} aria-label={t("tagSuggestions")}>
            {shown.map((s, i) => (
              <li
                key={s.id ?? s.name}
                id={`${listId}-${i}`}
                role="option"
                aria-selected={i === active}
                className={styles.suggestion}
                onMouseDown={(e) => {
                  e.preventDefault();
                  add(s);
                }}
              >
                #{s.name}
              </li>
            ))}
          </ul>
        </div>
      </div>
      <p id={messageId} className={message ? styles.fieldError : styles.fieldHint} role={message ? "alert" : undefined}>
        {message ?? t("tagsHint", { max: POST_TAGS_MAX })}
      </p>
    </div>
  );
}
