ALTER TABLE "event_recipients" DROP CONSTRAINT "event_recipients_account_id_accounts_id_fk";
--> statement-breakpoint
ALTER TABLE "event_recipients" DROP CONSTRAINT "event_recipients_event_id_events_id_fk";
--> statement-breakpoint
ALTER TABLE "notifications" DROP CONSTRAINT "notifications_receiver_id_accounts_id_fk";
--> statement-breakpoint
ALTER TABLE "notifications" DROP CONSTRAINT "notifications_author_id_accounts_id_fk";
--> statement-breakpoint
ALTER TABLE "notifications" DROP CONSTRAINT "notifications_post_id_posts_id_fk";
--> statement-breakpoint
ALTER TABLE "notifications" DROP CONSTRAINT "notifications_comment_id_comments_id_fk";
--> statement-breakpoint
ALTER TABLE "notifications" DROP CONSTRAINT "notifications_dialog_id_dialogs_id_fk";
--> statement-breakpoint
DROP INDEX "notifications_author_idx";--> statement-breakpoint
DROP INDEX "notifications_post_idx";--> statement-breakpoint
CREATE INDEX "notification_settings_post_off_idx" ON "notification_settings" USING btree ("account_id") WHERE not "notification_settings"."enable_post";--> statement-breakpoint
CREATE INDEX "notification_settings_birthday_off_idx" ON "notification_settings" USING btree ("account_id") WHERE not "notification_settings"."enable_friend_birthday";--> statement-breakpoint
-- ADR 0095: the foreign keys above cost a trigger call per inserted row (five per notification, two per
-- event recipient: 35,000 for one POST to 5,000 friends). Their cascades stay, once per deleting statement.
CREATE FUNCTION notifications_forget_accounts() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM notifications n USING gone g WHERE n.receiver_id = g.id;
  UPDATE notifications n SET author_id = NULL FROM gone g WHERE n.author_id = g.id;
  DELETE FROM event_recipients r USING gone g WHERE r.account_id = g.id;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER notifications_forget_accounts AFTER DELETE ON accounts REFERENCING OLD TABLE AS gone
  FOR EACH STATEMENT EXECUTE FUNCTION notifications_forget_accounts();--> statement-breakpoint
-- Posts, comments and dialogs: their notifications go (the trigger's argument names the column).
CREATE FUNCTION notifications_forget_targets() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  EXECUTE format('DELETE FROM notifications n USING gone g WHERE n.%I = g.id', TG_ARGV[0]);
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER notifications_forget_posts AFTER DELETE ON posts REFERENCING OLD TABLE AS gone
  FOR EACH STATEMENT EXECUTE FUNCTION notifications_forget_targets('post_id');--> statement-breakpoint
CREATE TRIGGER notifications_forget_comments AFTER DELETE ON comments REFERENCING OLD TABLE AS gone
  FOR EACH STATEMENT EXECUTE FUNCTION notifications_forget_targets('comment_id');--> statement-breakpoint
CREATE TRIGGER notifications_forget_dialogs AFTER DELETE ON dialogs REFERENCING OLD TABLE AS gone
  FOR EACH STATEMENT EXECUTE FUNCTION notifications_forget_targets('dialog_id');
--> statement-breakpoint
-- ADR 0095: the outbox sequencer (ADR 32) as one call, one round trip and one commit per batch instead of
-- a pre-check, BEGIN, the lock, the batch read, the update, the NOTIFY and COMMIT one after another.
-- Functions are VOLATILE: each statement inside takes a fresh snapshot, so the batch is read after the
-- lock is held and sees every event committed before it (READ COMMITTED, the default).
CREATE FUNCTION outbox_sequence(batch_size integer) RETURNS integer LANGUAGE plpgsql AS $$
DECLARE
  ids bigint[];
  first_position bigint;
BEGIN
  IF NOT EXISTS (SELECT 1 FROM events WHERE position IS NULL) THEN
    RETURN 0;
  END IF;
  -- Held to the caller's commit: the next batch starts only after this one is visible.
  PERFORM pg_advisory_xact_lock(7311002);
  SELECT array_agg(b.id ORDER BY b.id) INTO ids
  FROM (SELECT id FROM events WHERE position IS NULL ORDER BY id LIMIT batch_size FOR UPDATE) b;
  IF ids IS NULL THEN
    RETURN 0;
  END IF;
  -- The batch's positions reserved in one step; gaps (a rolled-back batch) are harmless.
  first_position := setval('events_position_seq', nextval('events_position_seq') + cardinality(ids) - 1) - (cardinality(ids) - 1);
  WITH upd AS (
    UPDATE events e SET position = first_position + o.ord - 1
    FROM unnest(ids) WITH ORDINALITY o(id, ord)
    WHERE e.id = o.id
    RETURNING e.id, e.position, e.recipients, e.subjects
  )
  INSERT INTO event_recipients (account_id, position, event_id, subject_id)
  SELECT r.account_id, upd.position, upd.id, r.subject_id
  FROM upd CROSS JOIN LATERAL unnest(upd.recipients, upd.subjects) AS r(account_id, subject_id)
  -- An account removed since the append receives nothing (and must not fail the batch).
  WHERE EXISTS (SELECT 1 FROM accounts a WHERE a.id = r.account_id);
  PERFORM pg_notify('krug_events', '');
  RETURN cardinality(ids);
END $$;
--> statement-breakpoint
-- The sidecar's drain: sequences one batch (when any event waits) and returns the sequenced events after
-- `after_position`, in order, in the same call. Read under the lock when it sequenced (nothing newer can
-- be committed meanwhile), or without it (visible positions are always a prefix: ADR 32).
CREATE FUNCTION outbox_drain(after_position bigint, batch_size integer, page_size integer)
RETURNS TABLE ("position" bigint, type text, payload jsonb, recipients bigint[], subjects bigint[])
LANGUAGE plpgsql AS $$
#variable_conflict use_column
BEGIN
  PERFORM outbox_sequence(batch_size);
  RETURN QUERY
    SELECT e.position, e.type, e.payload, e.recipients, e.subjects
    FROM events e
    WHERE e.position > after_position
    ORDER BY e.position
    LIMIT page_size;
END $$;
