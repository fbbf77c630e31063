-- NOT VALID (docs/adr/0134, as 0033): existing rows have no images and met the stricter old check; the
-- migrations' one transaction would hold the table's exclusive lock through a full scan to validate.
ALTER TABLE "messages" DROP CONSTRAINT "messages_text_length";--> statement-breakpoint
ALTER TABLE "messages" ADD COLUMN "images" text[];--> statement-breakpoint
ALTER TABLE "messages" ADD CONSTRAINT "messages_images_count" CHECK ("messages"."images" is null or cardinality("messages"."images") between 1 and 10) NOT VALID;--> statement-breakpoint
ALTER TABLE "messages" ADD CONSTRAINT "messages_text_length" CHECK (char_length("messages"."message_text") between 1 and 4000 or ("messages"."message_text" = '' and ("messages"."deleted_at" is not null or "messages"."images" is not null))) NOT VALID;