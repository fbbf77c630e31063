"use client";

import { useRouter } from "next/navigation";
import { PostCard } from "@/components/post/post-card";
import type { PostDto } from "@/lib/validation/post";

/** The post card of /post/{id}; after an edit the page re-renders, after a delete it goes to the news. */
export function SinglePost({ post, viewerId }: { post: PostDto; viewerId: number }) {
  const router = useRouter();
  return <PostCard post={post} viewerId={viewerId} full onChanged={() => router.refresh()} />;
}
