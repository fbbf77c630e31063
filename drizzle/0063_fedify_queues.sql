CREATE TABLE "fedify_fanout_queue" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"message" jsonb NOT NULL,
	"delay" interval DEFAULT '0 seconds',
	"created" timestamp with time zone DEFAULT now()
);
--> statement-breakpoint
CREATE TABLE "fedify_inbox_queue" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"message" jsonb NOT NULL,
	"delay" interval DEFAULT '0 seconds',
	"created" timestamp with time zone DEFAULT now()
);
--> statement-breakpoint
CREATE TABLE "fedify_outbox_queue" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"message" jsonb NOT NULL,
	"delay" interval DEFAULT '0 seconds',
	"created" timestamp with time zone DEFAULT now()
);
--> statement-breakpoint
CREATE INDEX "fedify_fanout_queue_created_idx" ON "fedify_fanout_queue" USING btree ("created");--> statement-breakpoint
CREATE INDEX "fedify_inbox_queue_created_idx" ON "fedify_inbox_queue" USING btree ("created");--> statement-breakpoint
CREATE INDEX "fedify_outbox_queue_created_idx" ON "fedify_outbox_queue" USING btree ("created");