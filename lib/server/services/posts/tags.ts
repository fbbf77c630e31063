import "server-only";
import { sql } from "drizzle-orm";
import { tagSearchQuery, TAG_SUGGESTIONS_MAX, type PostTag } from "@/lib/validation/post";
import { requireViewer, type ServiceCtx } from "../context";
import { parseInput, visibleTo } from "./shared";

/**
 * GET tag?name= — at most 5 tags whose name starts with the text (normalised like a tag name,
 * case-insensitive), most used first. A prefix range scan of tags_name_lower_key. Only tags the viewer
 * can see on a post: a tag carried only by posts not published yet (someone else's scheduled post), by
 * deleted authors' posts or by posts behind a block never shows (issue 9). The check stops at the first
 * readable post of each candidate (post_tags_tag_idx, then the post by its key).
 */
export async function suggestTags({ ctx, input }: { ctx: ServiceCtx; input: unknown }): Promise<PostTag[]> {
  const viewer = requireViewer(ctx);
  const { name } = parseInput(tagSearchQuery, input);
  if (!name) return [];
  const prefix = `${name.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  // The matching tags are ordered first (OFFSET 0 keeps the subquery and its order), then tested for a
  // visible post one by one until five pass: a short prefix matches thousands of tags, and testing each
  // before ordering cost a post lookup per tag (docs/adr/0094).
  const rows = await (ctx.tx ?? ctx.db).execute<{ id: string; name: string }>(sql`
    select c.id, c.name from (
      select id, name, posts_count, lower(name) as key from tags
      where lower(name) like ${prefix} and posts_count > 0
      order by posts_count desc, lower(name), id
      offset 0) c
    where exists (
      select 1 from post_tags pt join posts p on p.id = pt.post_id
      where pt.tag_id = c.id and ${visibleTo(viewer.id)})
    order by c.posts_count desc, c.key, c.id
    limit ${TAG_SUGGESTIONS_MAX}`);
  return rows.map((r) => ({ id: Number(r.id), name: r.name }));
}
