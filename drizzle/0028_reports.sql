ALTER TYPE "public"."notification_type" ADD VALUE 'REPORT_RESOLVED';--> statement-breakpoint
CREATE TABLE "report_groups" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "report_groups_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"target_type" text NOT NULL,
	"target_id" bigint NOT NULL,
	"target_account_id" bigint,
	"status" text DEFAULT 'OPEN' NOT NULL,
	"reports_count" integer DEFAULT 0 NOT NULL,
	"first_reported_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_reported_at" timestamp with time zone DEFAULT now() NOT NULL,
	"action" text,
	"reason" text,
	"resolved_by" bigint,
	"resolved_at" timestamp with time zone,
	CONSTRAINT "report_groups_status" CHECK ("report_groups"."status" in ('OPEN', 'RESOLVED'))
);
--> statement-breakpoint
CREATE TABLE "reports" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "reports_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"group_id" bigint NOT NULL,
	"reporter_id" bigint NOT NULL,
	"category" text NOT NULL,
	"comment" text,
	"snapshot" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "blocked_until" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "notification_settings" ADD COLUMN "enable_report_resolved" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "report_groups" ADD CONSTRAINT "report_groups_target_account_id_accounts_id_fk" FOREIGN KEY ("target_account_id") REFERENCES "public"."accounts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "report_groups" ADD CONSTRAINT "report_groups_resolved_by_accounts_id_fk" FOREIGN KEY ("resolved_by") REFERENCES "public"."accounts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reports" ADD CONSTRAINT "reports_group_id_report_groups_id_fk" FOREIGN KEY ("group_id") REFERENCES "public"."report_groups"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reports" ADD CONSTRAINT "reports_reporter_id_accounts_id_fk" FOREIGN KEY ("reporter_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "report_groups_open_target_key" ON "report_groups" USING btree ("target_type","target_id") WHERE "report_groups"."status" = 'OPEN';--> statement-breakpoint
CREATE INDEX "report_groups_open_newest_idx" ON "report_groups" USING btree ("last_reported_at" DESC NULLS LAST,"id" DESC NULLS LAST) WHERE "report_groups"."status" = 'OPEN';--> statement-breakpoint
CREATE INDEX "report_groups_open_most_idx" ON "report_groups" USING btree ("reports_count" DESC NULLS LAST,"last_reported_at" DESC NULLS LAST,"id" DESC NULLS LAST) WHERE "report_groups"."status" = 'OPEN';--> statement-breakpoint
CREATE INDEX "report_groups_resolved_idx" ON "report_groups" USING btree ("resolved_at" DESC NULLS LAST,"id" DESC NULLS LAST) WHERE "report_groups"."status" = 'RESOLVED';--> statement-breakpoint
CREATE INDEX "report_groups_target_account_idx" ON "report_groups" USING btree ("target_account_id","id" DESC NULLS LAST) WHERE "report_groups"."target_account_id" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "reports_group_reporter_key" ON "reports" USING btree ("group_id","reporter_id");--> statement-breakpoint
CREATE INDEX "reports_reporter_idx" ON "reports" USING btree ("reporter_id");--> statement-breakpoint
CREATE INDEX "accounts_staff_idx" ON "accounts" USING btree ("id") WHERE "accounts"."role" <> 'USER';