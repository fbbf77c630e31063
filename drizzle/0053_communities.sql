CREATE TABLE "communities" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "communities_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"name" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"photo" text,
	"cover" text,
	"type" text NOT NULL,
	"wall" text DEFAULT 'MEMBERS' NOT NULL,
	"owner_id" bigint NOT NULL,
	"members_count" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"is_deleted" boolean DEFAULT false NOT NULL,
	"deleted_at" timestamp with time zone,
	"is_blocked" boolean DEFAULT false NOT NULL,
	CONSTRAINT "communities_members_count_not_negative" CHECK ("communities"."members_count" >= 0)
);
--> statement-breakpoint
CREATE TABLE "community_members" (
	"community_id" bigint NOT NULL,
	"account_id" bigint NOT NULL,
	"status" text NOT NULL,
	"role" text DEFAULT 'MEMBER' NOT NULL,
	"by_id" bigint,
	"since" timestamp with time zone DEFAULT now() NOT NULL,
	"feed_off" boolean DEFAULT false NOT NULL,
	"notify_posts" boolean DEFAULT false NOT NULL,
	CONSTRAINT "community_members_community_id_account_id_pk" PRIMARY KEY("community_id","account_id")
);
--> statement-breakpoint
ALTER TABLE "communities" ADD CONSTRAINT "communities_owner_id_accounts_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "community_members" ADD CONSTRAINT "community_members_community_id_communities_id_fk" FOREIGN KEY ("community_id") REFERENCES "public"."communities"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "community_members" ADD CONSTRAINT "community_members_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "community_members" ADD CONSTRAINT "community_members_by_id_accounts_id_fk" FOREIGN KEY ("by_id") REFERENCES "public"."accounts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "communities_name_trgm_idx" ON "communities" USING gin (lower("name") gin_trgm_ops) WHERE not "communities"."is_deleted" and not "communities"."is_blocked";--> statement-breakpoint
CREATE INDEX "communities_owner_idx" ON "communities" USING btree ("owner_id");--> statement-breakpoint
CREATE INDEX "community_members_account_idx" ON "community_members" USING btree ("account_id","status","since" DESC NULLS LAST,"community_id");--> statement-breakpoint
CREATE INDEX "community_members_status_idx" ON "community_members" USING btree ("community_id","status","since","account_id");