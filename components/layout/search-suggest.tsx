"use client";

import { useTranslations } from "next-intl";
import { useRouter } from "next/navigation";
import { useEffect, useId, useRef, useState, type KeyboardEvent } from "react";
import Link from "@/components/ui/link";
import { Avatar } from "@/components/ui/avatar";
import { CommunityAvatar } from "@/components/communities/community-avatar";
import { COMMUNITY_QUERY_MIN, type CommunityDto } from "@/lib/validation/communities-shared";
import { api } from "@/lib/client/api";
import styles from "./search-suggest.module.css";

/** Suggestions shown at most (people first, then tags), besides the "all results" line (issue 27). */
export const SUGGEST_MAX = 8;
const PEOPLE_MAX = 5;
/** Communities under their own heading, after people and tags (issue 42). */
const COMMUNITIES_MAX = 3;
const DEBOUNCE_MS = 250;
/** What people search takes for an address (`@user@server`, `user@server`) or a profile's URL rather than a name. */
const FEDIVERSE_ADDRESS = /^(@?[^\s@]+@[^\s@]+|https?:\/\/\S+)$/i;

type Person = { id: number; firstName: string; lastName: string; photo: string | null; city: string | null };
type Tag = { id: number; name: string };
type Community = Pick<CommunityDto, "id" | "name" | "photo" | "membersCount">;
type Item =
  | { kind: "person"; person: Person; href: string }
  | { kind: "tag"; tag: Tag; href: string }
  | { kind: "community"; community: Community; href: string }
  | { kind: "all"; href: string };

/**
 * People (GET account/search?author=, cross-script) and then tags (GET tag?name=), together at most eight,
 * and up to three communities (GET communities?query=, from COMMUNITY_QUERY_MIN letters).
 */
async function suggest(text: string, signal: AbortSignal): Promise<{ people: Person[]; tags: Tag[]; communities: Community[] }> {
  // A fediverse address or a profile URL (issue 43) is looked up on the person's server: not at every
  // keystroke of a half-typed address, only from the search page, which says it is looking.
  if (FEDIVERSE_ADDRESS.test(text)) return { people: [], tags: [], communities: [] };
  const tagName = text.replace(/^#+/, "").trim();
  const [people, tags, communities] = await Promise.all([
    api<{ content: Person[] }>(`account/search?${new URLSearchParams({ author: text, size: String(PEOPLE_MAX) })}`, { signal }).then((p) => p.content, () => []),
    tagName ? api<Tag[]>(`tag?${new URLSearchParams({ name: tagName })}`, { signal }).catch(() => []) : Promise.resolve([]),
    [...text].length >= COMMUNITY_QUERY_MIN
      ? api<{ content: Community[] }>(`communities?${new URLSearchParams({ query: text, size: String(COMMUNITIES_MAX) })}`, { signal }).then((p) => p.content, () => [])
      : Promise.resolve([]),
  ]);
  return {
    people: people.slice(0, PEOPLE_MAX),
    tags: tags.slice(0, SUGGEST_MAX - Math.min(people.length, PEOPLE_MAX)),
    communities: communities.slice(0, COMMUNITIES_MAX),
  };
}

/**
 * The top bar's search field with suggestions as one types (issue 27): debounced, a listbox of people
 * and tags (≤ 8), communities (≤ 3, under their own heading) and an "all results" line, walked with ↑/↓, opened with Enter, closed with Escape. Enter
 * with nothing picked submits the form as before (the search page). The same field serves the phone bar.
 */
export function SearchSuggest({ className, placeholder }: { className: string; placeholder: string }) {
  const t = useTranslations("header");
  const router = useRouter();
  const listId = useId();
  const [text, setText] = useState("");
  const [open, setOpen] = useState(false);
  const [found, setFound] = useState<{ query: string; people: Person[]; tags: Tag[]; communities: Community[] } | null>(null);
  const [active, setActive] = useState(-1);
  const seq = useRef(0);

  const query = text.trim();
  useEffect(() => {
    if (!query) return;
    const controller = new AbortController();
    const mine = ++seq.current;
    const timer = setTimeout(() => {
      suggest(query, controller.signal)
        .then((r) => {
          if (mine !== seq.current) return;
          setFound({ query, ...r });
          setActive(-1);
        })
        .catch(() => {});
    }, DEBOUNCE_MS);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [query]);

  const current = found && query && found.query === query ? found : null;
  const all: Item = { kind: "all", href: `/search?${new URLSearchParams({ tab: "people", query })}` };
  const items: Item[] = current
    ? [
        ...current.people.map((person): Item => ({ kind: "person", person, href: `/profile/${person.id}` })),
        ...current.tags.map((tag): Item => ({ kind: "tag", tag, href: `/search?${new URLSearchParams({ tab: "news", tags: tag.name })}` })),
        ...current.communities.map((community): Item => ({ kind: "community", community, href: `/community/${community.id}` })),
        all,
      ]
    : [];
  const shown = open && items.length > 0;
  const optionId = (i: number) => `${listId}-o${i}`;

  const go = (item: Item) => {
    setOpen(false);
    setActive(-1);
    router.push(item.href);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === "Escape") {
      if (shown) {
        event.preventDefault();
        setOpen(false);
        setActive(-1);
      }
      return;
    }
    if (event.key === "ArrowDown" || event.key === "ArrowUp") {
      if (!items.length) return;
      event.preventDefault();
      setOpen(true);
      const step = event.key === "ArrowDown" ? 1 : -1;
      // The field itself (-1) and each item in a ring: past the last comes the field again.
      const ring = items.length + 1;
      setActive((i) => ((i + 1 + step + ring) % ring) - 1);
      return;
    }
    if (event.key === "Enter" && shown && active >= 0 && active < items.length) {
      event.preventDefault();
      go(items[active]);
    }
  };

  return (
    <>
      <input
        id="header-search"
        className={className}
        type="search"
        name="query"
        placeholder={placeholder}
        maxLength={100}
        autoComplete="off"
        enterKeyHint="search"
        role="combobox"
        aria-autocomplete="list"
        aria-expanded={shown}
        aria-controls={listId}
        aria-activedescendant={shown && active >= 0 ? optionId(active) : undefined}
        value={text}
        onChange={(event) => {
          setText(event.target.value);
          setOpen(true);
        }}
        onFocus={() => setOpen(true)}
        onBlur={() => setOpen(false)}
        onKeyDown={onKeyDown}
      />
      <ul id={listId} role="listbox" aria-label={t("suggestLabel")} className={styles.panel} hidden={!shown} data-testid="search-suggest">
        {items.flatMap((item, i) => [
          // The communities' heading: not an option, so ↑/↓ pass over it.
          item.kind === "community" && items[i - 1]?.kind !== "community" ? (
            <li key="communities-heading" role="presentation" className={styles.group} data-testid="search-suggest-communities">
              {t("suggestCommunities")}
            </li>
          ) : null,
          <li
            key={item.kind === "person" ? `p${item.person.id}` : item.kind === "tag" ? `t${item.tag.id}` : item.kind === "community" ? `c${item.community.id}` : "all"}
            id={optionId(i)}
            role="option"
            aria-selected={i === active}
            className={item.kind === "all" ? `${styles.option} ${styles.all}` : styles.option}
            data-kind={item.kind}
            // A press must not blur the field first (which closes the list) before the link is followed.
            onMouseDown={(event) => event.preventDefault()}
          >
            <Link href={item.href} tabIndex={-1} className={styles.link} onClick={() => setOpen(false)}>
              {item.kind === "person" ? (
                <>
                  <Avatar id={item.person.id} firstName={item.person.firstName} lastName={item.person.lastName} photo={item.person.photo} size={32} alt="" />
                  <span className={styles.text}>
                    <span className={styles.name}>{`${item.person.firstName} ${item.person.lastName}`}</span>
                    {item.person.city ? <span className={styles.meta}>{item.person.city}</span> : null}
                  </span>
                </>
              ) : item.kind === "community" ? (
                <>
                  <CommunityAvatar id={item.community.id} name={item.community.name} photo={item.community.photo} size={32} />
                  <span className={styles.text}>
                    <span className={styles.name}>{item.community.name}</span>
                    <span className={styles.meta}>{t("suggestCommunityMembers", { count: item.community.membersCount })}</span>
                  </span>
                </>
              ) : item.kind === "tag" ? (
                <>
                  <span className={styles.hash} aria-hidden="true">
                    #
                  </span>
                  <span className={styles.text}>
                    <span className={styles.name}>{item.tag.name}</span>
                    <span className={styles.meta}>{t("suggestTag")}</span>
                  </span>
                </>
              ) : (
                <span className={styles.text}>{t("suggestAll", { query })}</span>
              )}
            </Link>
          </li>,
        ])}
      </ul>
    </>
  );
}
