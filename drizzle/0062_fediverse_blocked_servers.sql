CREATE TABLE "fediverse_blocked_servers" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "fediverse_blocked_servers_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"host" text NOT NULL,
	"reason" text,
	"blocked_by" bigint,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "remote_actors" ADD COLUMN "icon_url" text;--> statement-breakpoint
ALTER TABLE "remote_actors" ADD COLUMN "followers_count" integer;--> statement-breakpoint
ALTER TABLE "remote_actors" ADD COLUMN "following_count" integer;--> statement-breakpoint
ALTER TABLE "remote_actors" ADD COLUMN "posts_count" integer;--> statement-breakpoint
ALTER TABLE "fediverse_blocked_servers" ADD CONSTRAINT "fediverse_blocked_servers_blocked_by_accounts_id_fk" FOREIGN KEY ("blocked_by") REFERENCES "public"."accounts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "fediverse_blocked_servers_host_key" ON "fediverse_blocked_servers" USING btree ("host");