import { BlockButton } from "@/components/admin/admin-actions";
import { PostCard } from "@/components/post/post-card";
import type { PostDto } from "@/lib/validation/post";

/**
 * A post as staff see it in the admin area (spec section 6): the card with its title, text, image, tags,
 * reactions and comments, read-only — no comment box, no edit or delete — and the block / unblock icon.
 * Rendered on the server (docs/adr/0150); a change refreshes the page.
 */
export function AdminPostView({ post, viewerId }: { post: PostDto; viewerId: number }) {
  return <PostCard post={post} viewerId={viewerId} adminActions={<BlockButton kind="posts" id={post.id} blocked={post.isBlocked} />} />;
}
