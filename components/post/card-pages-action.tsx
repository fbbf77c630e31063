"use server";

import { currentViewer } from "@/components/layout/current-viewer";
import { getDb } from "@/db/client";
import type { CardPageAnswer, PostSource } from "@/lib/client/posts";
import { queryStems } from "@/lib/client/post-text";
import { UnauthorizedError, toErrorBody } from "@/lib/server/http/errors";
import { translate } from "@/lib/server/http/translate";
import { requestLocale } from "@/lib/i18n/request";
import { log } from "@/lib/server/log";
import { listNewsPosts, listPosts } from "@/lib/server/services/posts/list-posts";
import { cardPageInput, type PostSourceInput } from "@/lib/validation/post-source";
import { FEED_PAGE_SIZE, WALL_PAGE_SIZE } from "@/lib/validation/post-shared";
import { renderCardPage } from "./card-page";

/** The query parameters of page `page` of a source, as GET post/newsPosts and GET post take them. */
function queryOf(source: PostSourceInput, page: number): Record<string, string> {
  if (source.kind === "feed") return { withFriends: "true", page: String(page), size: String(FEED_PAGE_SIZE) };
  if (source.kind === "wall") return { accountIds: String(source.accountId), page: String(page), size: String(WALL_PAGE_SIZE) };
  if (source.kind === "community") return { communityId: String(source.communityId), page: String(page), size: String(WALL_PAGE_SIZE) };
  const { kind: _kind, ...filters } = source;
  return { ...Object.fromEntries(Object.entries(filters).filter(([, v]) => v)), page: String(page), size: String(FEED_PAGE_SIZE) } as Record<string, string>;
}

/**
 * Page `page` of a post list (feed, wall, news search) as rendered cards (docs/adr/0150): the list's
 * later pages and its reloads after a change, through the same service verbs as GET post/newsPosts and
 * GET post. A refusal is the API's error envelope (status, code, message in the reader's language).
 */
export async function readCardPage(source: PostSource, page: number): Promise<CardPageAnswer> {
  const requestId = `cards-${crypto.randomUUID()}`;
  try {
    const current = await currentViewer();
    if (!current) throw new UnauthorizedError();
    const input = cardPageInput.parse({ source, page });
    const ctx = { viewer: current.viewer, db: getDb(), requestId };
    const query = queryOf(input.source, input.page);
    const found = input.source.kind === "wall" || input.source.kind === "community" ? await listPosts({ ctx, input: query }) : await listNewsPosts({ ctx, input: query });
    const highlight = input.source.kind === "search" && input.source.text ? queryStems(input.source.text) : undefined;
    return { page: renderCardPage(found, current.viewer.id, highlight, input.source.kind === "community") };
  } catch (err) {
    const out = toErrorBody(err, requestId);
    if (out.unexpected) log.error({ err, requestId }, "unhandled error in readCardPage");
    return { error: { status: out.status, code: out.body.error.code, message: translate(await requestLocale(), out.body.error.message) } };
  }
}
