"use client";

import { useRouter } from "next/navigation";
import { RelationActions, type FriendStatusCode } from "@/components/friends/relation-actions";

/**
 * The relation actions of a profile page. A change re-renders the page on the server, so the friends
 * block and its count follow the new relation (a request that made friends, a removal, a block).
 */
export function ProfileRelation({
  accountId,
  firstName,
  statusCode,
  privacy,
  remote,
}: {
  accountId: number;
  firstName: string;
  statusCode: FriendStatusCode | null;
  privacy: { canMessage: boolean; canRequestFriend: boolean };
  /** A person of another server (issue 43). */
  remote?: boolean;
}) {
  const router = useRouter();
  return <RelationActions accountId={accountId} firstName={firstName} statusCode={statusCode} privacy={privacy} remote={remote} onChange={() => router.refresh()} />;
}
