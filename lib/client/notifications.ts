"use client";
import useSWR from "swr";
import useSWRInfinite from "swr/infinite";
import { api } from "@/lib/client/api";
import { useRealtimeEvent } from "@/lib/client/use-realtime";
import {
  isNotificationDto,
  NOTIFICATION_PAGE_SIZE,
  type NotificationDto,
} from "@/lib/validation/notifications-shared";

export type NotificationPage = Page;
type Page = { content: NotificationDto[]; totalPages: number; totalElements: number; size: number; number: number };

export const NOTIFICATION_COUNT_KEY = "notifications/count";

const fetcher = <T,>(path: string) => api<T>(path);

/**
 * The unread count of the bell: read once, then again on every NOTIFICATION frame. `initial`, the count the
 * server rendered the page with, saves that first read (one request and one render less while a page
 * starts, docs/adr/0143); frames and focus still re-read it.
 */
export function useNotificationCount(initial?: number) {
  const { data, mutate } = useSWR<{ count: number }>(NOTIFICATION_COUNT_KEY, fetcher, {
    revalidateOnFocus: true,
    ...(initial === undefined ? {} : { fallbackData: { count: initial }, revalidateOnMount: false }),
  });
  useRealtimeEvent("NOTIFICATION", (event) => {
    if (isNotificationDto(event.data)) void mutate();
  });
  return { count: data?.count ?? 0, refresh: () => mutate() };
}

/**
 * The viewer's notifications newest first, 20 a page (spec section 9), loaded only while `active`. A
 * NOTIFICATION frame puts its entry on top (a grouped entry moves up, replacing its older self).
 */
export function useNotificationPages(active: boolean, first?: Page) {
  const pages = useSWRInfinite<Page>(
    (index, previous) => {
      if (!active) return null;
      if (previous && previous.number + 1 >= previous.totalPages) return null;
      return `notifications/page?page=${index}&size=${NOTIFICATION_PAGE_SIZE}&sort=sentTime,desc`;
    },
    fetcher,
    { revalidateFirstPage: false, revalidateOnFocus: false, fallbackData: first ? [first] : undefined },
  );
  useRealtimeEvent("NOTIFICATION", (event) => {
    const n = event.data;
    if (!active || !isNotificationDto(n)) return;
    void pages.mutate(
      (current) => {
        if (!current?.length) return current;
        const rest = current.map((p) => ({ ...p, content: p.content.filter((x) => x.id !== n.id) }));
        const fresh = !current.some((p) => p.content.some((x) => x.id === n.id));
        rest[0] = { ...rest[0], content: [n, ...rest[0].content], totalElements: rest[0].totalElements + (fresh ? 1 : 0) };
        return rest;
      },
      { revalidate: false },
    );
  });
  const items = dedupe(pages.data?.flatMap((p) => p.content) ?? []);
  const last = pages.data?.[pages.data.length - 1];
  const hasMore = !!last && last.number + 1 < last.totalPages;
  return {
    items,
    hasMore,
    isLoading: active && !pages.data && !pages.error,
    error: pages.error as unknown,
    loadMore: () => pages.setSize(pages.size + 1),
    loadingMore: pages.isValidating && pages.size > (pages.data?.length ?? 0),
    reload: () => pages.mutate(),
    /**
     * Marks these entries read on the server (issue 27: opening the bell reads what it shows). The list
     * keeps their unread look until it is loaded again, so one sees what was new; the badge follows the count.
     */
    markRead: (ids: number[]) => api<{ count: number }>("notifications/readed", { method: "PUT", body: { ids } }),
    /** Marks everything read on the server and here. */
    markAllRead: async () => {
      await api("notifications/readed", { method: "PUT" });
      await pages.mutate((current) => current?.map((p) => ({ ...p, content: p.content.map((x) => ({ ...x, isRead: true })) })), { revalidate: false });
    },
  };
}

function dedupe(list: NotificationDto[]): NotificationDto[] {
  const seen = new Set<number>();
  return list.filter((n) => (seen.has(n.id) ? false : (seen.add(n.id), true)));
}
