import { PostCard } from "@/components/post/post-card";
import type { PostDto } from "@/lib/validation/post";

/**
 * The post card of /post/{id}, rendered on the server (docs/adr/0150); after an edit the page re-renders
 * (router.refresh in the card's frame), after a delete the card turns into «Запись удалена. Восстановить».
 */
export function SinglePost({ post, viewerId }: { post: PostDto; viewerId: number }) {
  return <PostCard post={post} viewerId={viewerId} full />;
}
