CREATE TABLE "fediverse_followers" (
	"account_id" bigint NOT NULL,
	"follower_id" bigint NOT NULL,
	"activity_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "fediverse_followers_account_id_follower_id_pk" PRIMARY KEY("account_id","follower_id")
);
--> statement-breakpoint
CREATE TABLE "fediverse_following" (
	"account_id" bigint NOT NULL,
	"target_id" bigint NOT NULL,
	"activity_id" text NOT NULL,
	"accepted_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "fediverse_following_account_id_target_id_pk" PRIMARY KEY("account_id","target_id")
);
--> statement-breakpoint
CREATE TABLE "fediverse_outbox" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "fediverse_outbox_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"kind" text NOT NULL,
	"account_id" bigint NOT NULL,
	"post_id" bigint,
	"target_id" bigint,
	"comment_id" bigint,
	"activity_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "remote_actors" (
	"account_id" bigint PRIMARY KEY NOT NULL,
	"uri" text NOT NULL,
	"inbox" text NOT NULL,
	"shared_inbox" text,
	"host" text NOT NULL,
	"handle" text NOT NULL,
	"url" text,
	"fetched_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "remote_comments" (
	"comment_id" bigint PRIMARY KEY NOT NULL,
	"uri" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "remote_posts" (
	"post_id" bigint PRIMARY KEY NOT NULL,
	"uri" text NOT NULL
);
--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "remote" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "fediverse_followers" ADD CONSTRAINT "fediverse_followers_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "fediverse_followers" ADD CONSTRAINT "fediverse_followers_follower_id_accounts_id_fk" FOREIGN KEY ("follower_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "fediverse_following" ADD CONSTRAINT "fediverse_following_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "fediverse_following" ADD CONSTRAINT "fediverse_following_target_id_accounts_id_fk" FOREIGN KEY ("target_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "remote_actors" ADD CONSTRAINT "remote_actors_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "remote_comments" ADD CONSTRAINT "remote_comments_comment_id_comments_id_fk" FOREIGN KEY ("comment_id") REFERENCES "public"."comments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "remote_posts" ADD CONSTRAINT "remote_posts_post_id_posts_id_fk" FOREIGN KEY ("post_id") REFERENCES "public"."posts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "fediverse_following_activity_key" ON "fediverse_following" USING btree ("activity_id");--> statement-breakpoint
CREATE INDEX "fediverse_following_target_idx" ON "fediverse_following" USING btree ("target_id");--> statement-breakpoint
CREATE UNIQUE INDEX "remote_actors_uri_key" ON "remote_actors" USING btree ("uri");--> statement-breakpoint
CREATE INDEX "remote_actors_handle_idx" ON "remote_actors" USING btree (lower("handle"));--> statement-breakpoint
CREATE INDEX "remote_actors_host_idx" ON "remote_actors" USING btree ("host");--> statement-breakpoint
CREATE UNIQUE INDEX "remote_comments_uri_key" ON "remote_comments" USING btree ("uri");--> statement-breakpoint
CREATE UNIQUE INDEX "remote_posts_uri_key" ON "remote_posts" USING btree ("uri");