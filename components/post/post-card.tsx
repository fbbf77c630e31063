import "server-only";
import { getLocale, getTranslations } from "next-intl/server";
import type { ReactNode } from "react";
import { CommunityAvatar } from "@/components/communities/community-avatar";
import { Avatar } from "@/components/ui/avatar";
import { Lightbox } from "@/components/ui/lightbox";
import { ReportMenu } from "@/components/report/report-menu";
import { highlightHtml, highlightParts, READ_MORE_WORDS } from "@/lib/client/post-text";
import type { PostDto as Post } from "@/lib/validation/post";
import { readingMinutes, wordCount } from "@/lib/validation/post-shared";
import { reactionOf } from "@/lib/validation/reactions";
import { ClockIcon } from "./post-icons";
import { CARD_LINK } from "./card-link";
import { CardShareButton, OwnerMenu, PostCardFrame } from "./post-card-frame";
import { PostComments } from "./post-comments";
import { PostReactions } from "./post-reactions";
import { PostTextBlock } from "./post-text-block";
import { PostTime } from "./post-time";
import { RepostedOriginal } from "./repost";
import styles from "./post-card.module.css";

/** `/search?tab=news&tags=…`: every tag on a card links to the news search by that tag (spec section 2). */
export const tagHref = (name: string) => `/search?${new URLSearchParams({ tab: "news", tags: name })}`;

/** Marks a card's link for PostCardFrame, which routes it in the app (docs/adr/0150). */
const cardLink = { [CARD_LINK]: "" };

type Props = {
  post: Post;
  viewerId: number;
  /** Stems of the search query whose words are highlighted (news search). */
  highlight?: string[];
  /** The post's own page (issue 27): a long text is shown in full, never folded. */
  full?: boolean;
  /**
   * The admin view (spec section 6): these staff actions (block / unblock) in the header instead of the
   * author's menu, and the comments read-only — no comment box, no edit or delete.
   */
  adminActions?: ReactNode;
  /** On the community's own wall (issue 42): no «в сообществе …» after the author. */
  onCommunityWall?: boolean;
};

/**
 * One post (spec section 2): author link and photo, publication or edit time, title, tags, image,
 * the sanitised text collapsed when long, reading time, the queued line, reactions, comments. The author can
 * edit it (the card turns into the form) or delete it behind a confirmation.
 *
 * A server component (docs/adr/0150): the header, title, tags, image, text and reading time are HTML that
 * runs no code in the browser; the interactive parts are islands — the ⋯ menu, the times (the reader's
 * zone), the text's fold, the image viewer, reactions, share and comments — inside PostCardFrame, which
 * keeps the editing and deleted states. A list's later pages are these cards too (lib/server/post-card-pages.tsx).
 */
export async function PostCard({ post, viewerId, highlight, full, adminActions, onCommunityWall }: Props) {
  const t = await getTranslations("post.card");
  const own = post.authorId === viewerId;
  const name = `${post.author.firstName} ${post.author.lastName}`.trim();
  const titleId = `post-${post.id}-title`;
  const authorId = `post-${post.id}-author`;
  // A repost (issue 27) has no title or tags: its author's words, if any, and the original inside.
  const repost = post.repostOf !== null;
  // Rendered by the one sanitiser on the server when the post was read (docs/adr/0107, 0124).
  const html = highlight?.length ? highlightHtml(post.postText, highlight) : post.postText;
  const words = wordCount(post.postText);
  const edited = post.timeChanged !== null;
  const queued = post.type === "QUEUED";
  const profile = own ? "/profile" : `/profile/${post.authorId}`;
  // Signed by the community (issue 42): its photo or letter and its name, linking to its page.
  const signer =
    post.asCommunity && post.community
      ? { community: post.community, name: post.community.name, href: `/community/${post.community.id}` }
      : { community: null, name, href: profile };
  const reactions = { likeAmount: post.likeAmount, myLike: post.myLike, myReaction: post.myReaction, reactionType: post.reactionType };
  // The titles of the types this card shows, in the reader's language: the reactions island needs no table at first.
  const locale = (await getLocale()) === "en" ? "en" : "ru";
  // A post from another server has no title (issue 43): its image is then simply "a photo of the post".
  const imageAlt = post.title ? t("imageAlt", { title: post.title }) : t("imageAltUntitled");
  const reactionTitles = Object.fromEntries(post.reactionType.map((c) => [c.reactionType, reactionOf(c.reactionType).title[locale]]));
  return (
    <PostCardFrame
      postId={post.id}
      viewerId={viewerId}
      className={styles.card}
      aria-labelledby={post.title ? titleId : authorId}
      data-testid="post-card"
      data-post-id={post.id}
      data-repost={repost || undefined}
    >
      <header className={styles.head}>
        <a href={signer.href} className={styles.avatarLink} tabIndex={-1} aria-hidden="true" {...cardLink}>
          {signer.community ? <CommunityAvatar {...signer.community} size={44} /> : <Avatar {...post.author} size={44} alt="" />}
        </a>
        <div className={styles.who}>
          <p className={styles.authorLine}>
            <a id={authorId} href={signer.href} className={styles.author} data-testid="post-author" {...cardLink}>
              {signer.name}
            </a>
            {post.author.fediverseAddress && !signer.community ? (
              // A person of another server (issue 43): their address, small and muted, beside the name.
              <span className={styles.address} translate="no" data-testid="post-author-address">
                @{post.author.fediverseAddress}
              </span>
            ) : null}
            {post.community && !post.asCommunity && !onCommunityWall ? (
              <span className={styles.inCommunity} data-testid="post-in-community">
                {t.rich("inCommunity", {
                  name: post.community.name,
                  link: (chunks) => (
                    <a href={`/community/${post.community!.id}`} className={styles.communityLink} {...cardLink}>
                      {chunks}
                    </a>
                  ),
                })}
              </span>
            ) : null}
          </p>
          <p className={styles.meta}>
            {queued ? <span>{t("created")} </span> : null}
            <PostTime iso={queued ? post.time : post.publishDate} />
            {edited ? (
              <span className={styles.edited}>
                {" · "}
                {t("edited")} <PostTime iso={post.timeChanged!} />
              </span>
            ) : null}
          </p>
        </div>
        {adminActions ??
          (own ? (
            <OwnerMenu post={post} editable={!repost} />
          ) : (
            <ReportMenu target={{ type: "POST", id: post.id }} triggerClassName={styles.menuButton} label={t("actions")} />
          ))}
      </header>

      {queued ? (
        <p className={styles.queued} data-testid="post-queued">
          <ClockIcon size={16} />
          <span>
            {t("queued")} <PostTime iso={post.publishDate} />
          </span>
        </p>
      ) : null}

      {post.isBlocked && !adminActions ? (
        <p className={styles.blockedNote} role="note" data-testid="post-blocked-note">
          {t("blockedNote")}
        </p>
      ) : null}

      {post.title ? (
        <h3 id={titleId} className={styles.title}>
          {highlight?.length
            ? highlightParts(post.title, highlight).map((part, i) => (part.match ? <mark key={i}>{part.text}</mark> : part.text))
            : post.title}
        </h3>
      ) : null}

      {post.tags.length > 0 ? (
        <ul className={styles.tags} aria-label={t("tags")}>
          {post.tags.map((tag) => (
            <li key={tag.id}>
              <a href={tagHref(tag.name)} className={styles.tag} {...cardLink}>
                #{tag.name}
              </a>
            </li>
          ))}
        </ul>
      ) : null}

      {post.imagePath ? (
        <div className={styles.image}>
          <Lightbox images={[{ src: post.imagePath, alt: imageAlt }]}>
            {/* Our own stored image, any size (see components/ui/avatar.tsx on next/image). */}
            {/* eslint-disable-next-line @next/next/no-img-element */}
            <img src={post.imagePath} alt={imageAlt} loading="lazy" />
          </Lightbox>
        </div>
      ) : null}

      {!post.postText ? null : full || words <= READ_MORE_WORDS ? (
        // A text that can never fold is plain HTML; only a longer one is the folding island.
        <div className={styles.text} data-testid="post-text" dangerouslySetInnerHTML={{ __html: html }} />
      ) : (
        <PostTextBlock html={html} words={words} full={full} />
      )}

      {post.repostOf ? (
        // The original's word count (its text's fold) is counted here: the text rules stay off the client (docs/adr/0151).
        <RepostedOriginal of={post.repostOf} words={"gone" in post.repostOf ? 0 : wordCount(post.repostOf.postText)} />
      ) : null}

      <footer className={styles.foot}>
        {queued ? (
          <span />
        ) : (
          <div className={styles.actions}>
            <PostReactions postId={post.id} initial={reactions} titles={reactionTitles} />
            {adminActions || post.isBlocked || (post.repostOf && "gone" in post.repostOf) ? null : <CardShareButton postId={post.id} />}
          </div>
        )}
        {repost ? null : <span className={styles.reading}>{t("reading", { minutes: readingMinutes(post.postText) || 1 })}</span>}
      </footer>

      {queued ? null : (
        <PostComments post={{ id: post.id, commentsCount: post.commentsCount, authorId: post.authorId }} viewerId={viewerId} readOnly={adminActions !== undefined} />
      )}
    </PostCardFrame>
  );
}
