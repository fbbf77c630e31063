"use client";

import { api } from "@/lib/client/api";
import { DraftOffers } from "./draft-offers";
import { useDeviceDrafts } from "./use-device-drafts";

/**
 * The comments this device kept for one post while offline (docs/adr/0179), offered above the comment
 * field; loaded after the page. `onSent` gets the thread a sent reply belongs to (null: a top comment).
 */
export function CommentDrafts({ accountId, postId, version, onSent }: { accountId: number; postId: number; version: number; onSent: (threadId: number | null) => void }) {
  const { drafts, reload } = useDeviceDrafts(accountId, "comment", postId, version);
  if (drafts.length === 0) return null;
  return (
    <DraftOffers
      kind="comment"
      drafts={drafts}
      onChanged={reload}
      send={async (draft) => {
        await api(`post/${postId}/comment`, { method: "POST", body: draft.body });
        onSent(typeof draft.body.parentId === "number" ? draft.body.parentId : null);
      }}
    />
  );
}
