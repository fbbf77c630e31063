"use client";

import { useCallback, useEffect, useState } from "react";
import { api } from "@/lib/client/api";
import type { CommunityMemberDto, MemberListStatus } from "@/lib/validation/communities-shared";
import type { Paged } from "@/lib/validation/friends-shared";

const SIZE = 50;

/**
 * One status's people of a community (GET communities/{id}/members?status=), page by page: `more` reads
 * the next page, `patch` and `drop` keep the list in step with an answer without reading it again.
 */
export function useMemberPages(communityId: number, status: MemberListStatus, enabled = true) {
  const [rows, setRows] = useState<CommunityMemberDto[] | null>(null);
  const [total, setTotal] = useState(0);
  const [next, setNext] = useState(0);
  const [pages, setPages] = useState(1);
  const [loading, setLoading] = useState(false);
  const [failed, setFailed] = useState(false);

  const fetchPage = useCallback(
    (page: number) => {
      const query = new URLSearchParams({ status, page: String(page), size: String(SIZE) });
      return api<Paged<CommunityMemberDto>>(`communities/${communityId}/members?${query}`);
    },
    [communityId, status],
  );

  const apply = useCallback((page: number, answer: Paged<CommunityMemberDto>) => {
    setRows((old) => {
      const base = page === 0 ? [] : (old ?? []);
      return [...base, ...answer.content.filter((m) => !base.some((b) => b.id === m.id))];
    });
    setTotal(answer.totalElements);
    setPages(answer.totalPages);
    setNext(page + 1);
    setFailed(false);
  }, []);

  const failure = (err: unknown) => {
    console.error("loading community members failed", err);
    setFailed(true);
  };

  async function load(page: number) {
    setLoading(true);
    try {
      apply(page, await fetchPage(page));
    } catch (err) {
      failure(err);
    } finally {
      setLoading(false);
    }
  }

  useEffect(() => {
    if (!enabled) return;
    let cancelled = false;
    fetchPage(0).then(
      (answer) => !cancelled && apply(0, answer),
      (err: unknown) => !cancelled && failure(err),
    );
    return () => {
      cancelled = true;
    };
  }, [enabled, fetchPage, apply]);

  return {
    rows,
    total,
    loading,
    failed,
    hasMore: next < pages,
    more: () => void load(next),
    reload: () => void load(0),
    patch: (row: CommunityMemberDto) => setRows((old) => old?.map((m) => (m.id === row.id ? row : m)) ?? old),
    drop: (id: number) => {
      setRows((old) => old?.filter((m) => m.id !== id) ?? old);
      setTotal((n) => Math.max(0, n - 1));
    },
  };
}
