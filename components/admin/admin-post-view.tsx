"use client";

import { useRouter } from "next/navigation";
import { BlockButton } from "@/components/admin/admin-actions";
import { PostCard } from "@/components/post/post-card";
import type { Post } from "@/lib/client/posts";

/**
 * A post as staff see it in the admin area (spec section 6): the card with its title, text, image, tags,
 * reactions and comments, read-only — no comment box, no edit or delete — and the block / unblock icon.
 */
export function AdminPostView({ post, viewerId }: { post: Post; viewerId: number }) {
  const router = useRouter();
  return (
    <PostCard
      post={post}
      viewerId={viewerId}
      onChanged={() => router.refresh()}
      adminActions={<BlockButton kind="posts" id={post.id} blocked={post.isBlocked} />}
    />
  );
}
