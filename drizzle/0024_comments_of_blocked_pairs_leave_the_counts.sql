-- ADR 0116: comments that a block between their author and the post's author keeps off the post leave
-- their post's and parent's counts once (blocks made from now on move them in their own transaction).
UPDATE "posts" p SET "comments_count" = greatest(0, p."comments_count" - h.n)
FROM (SELECT c."post_id", count(*)::int AS n FROM "comments" c
      JOIN "posts" q ON q."id" = c."post_id"
      JOIN "friendships" f ON f."account_id" = q."author_id" AND f."friend_id" = c."author_id" AND f."status_code" IN ('BLOCKED', 'REJECTING')
      WHERE NOT c."is_deleted" AND NOT c."is_blocked" GROUP BY c."post_id") h
WHERE h."post_id" = p."id";--> statement-breakpoint
UPDATE "comments" t SET "comments_count" = greatest(0, t."comments_count" - h.n)
FROM (SELECT c."parent_id", count(*)::int AS n FROM "comments" c
      JOIN "posts" q ON q."id" = c."post_id"
      JOIN "friendships" f ON f."account_id" = q."author_id" AND f."friend_id" = c."author_id" AND f."status_code" IN ('BLOCKED', 'REJECTING')
      WHERE NOT c."is_deleted" AND NOT c."is_blocked" AND c."parent_id" IS NOT NULL GROUP BY c."parent_id") h
WHERE h."parent_id" = t."id";
