ALTER TABLE "posts" ADD COLUMN "client_id" uuid;--> statement-breakpoint
ALTER TABLE "comments" ADD COLUMN "client_id" uuid;--> statement-breakpoint
CREATE UNIQUE INDEX "posts_author_client_key" ON "posts" USING btree ("author_id","client_id") WHERE "posts"."client_id" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "comments_author_client_key" ON "comments" USING btree ("author_id","client_id") WHERE "comments"."client_id" is not null;