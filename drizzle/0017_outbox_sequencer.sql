-- ADR 32: events are appended without a lock and sequenced after commit. Events already stored keep
-- their id as their position, so clients' lastEventIds stay valid across the upgrade.
CREATE SEQUENCE "public"."events_position_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1;--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "recipients" bigint[];--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "subjects" bigint[];--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "position" bigint;--> statement-breakpoint
UPDATE "events" e SET "position" = e."id",
  "recipients" = array(SELECT r."account_id" FROM "event_recipients" r WHERE r."event_id" = e."id" ORDER BY r."account_id");--> statement-breakpoint
ALTER TABLE "events" ALTER COLUMN "recipients" SET NOT NULL;--> statement-breakpoint
SELECT setval('"public"."events_position_seq"', coalesce((SELECT max("id") FROM "events"), 0) + 1, false);--> statement-breakpoint
ALTER TABLE "event_recipients" ADD COLUMN "position" bigint;--> statement-breakpoint
UPDATE "event_recipients" SET "position" = "event_id";--> statement-breakpoint
ALTER TABLE "event_recipients" ALTER COLUMN "position" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "event_recipients" DROP CONSTRAINT "event_recipients_account_id_event_id_pk";--> statement-breakpoint
ALTER TABLE "event_recipients" ADD CONSTRAINT "event_recipients_account_id_position_pk" PRIMARY KEY("account_id","position");--> statement-breakpoint
ALTER TABLE "event_recipients" ADD COLUMN "subject_id" bigint;--> statement-breakpoint
CREATE UNIQUE INDEX "events_position_key" ON "events" USING btree ("position");--> statement-breakpoint
CREATE INDEX "events_unsequenced_idx" ON "events" USING btree ("id") WHERE "events"."position" is null;
