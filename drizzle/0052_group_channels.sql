ALTER TABLE "events" ADD COLUMN "channel" bigint;--> statement-breakpoint
CREATE INDEX "dialog_members_groups_idx" ON "dialog_members" USING btree ("account_id","dialog_id") WHERE "dialog_members"."partner_id" is null;--> statement-breakpoint
-- Issue 41 (docs/adr/0169): an event with a channel (a group conversation's, to all its present members) gets
-- one event_recipients row for the conversation (account_id = -dialog id) instead of one per member, so a
-- message to 500 people writes one row here, not 500. Resume reads a member's channels beside their own rows.
CREATE OR REPLACE FUNCTION outbox_sequence(batch_size integer) RETURNS integer LANGUAGE plpgsql AS $$
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
    RETURNING e.id, e.position, e.recipients, e.subjects, e.channel
  )
  INSERT INTO event_recipients (account_id, position, event_id, subject_id)
  SELECT r.account_id, upd.position, upd.id, r.subject_id
  FROM upd CROSS JOIN LATERAL unnest(upd.recipients, upd.subjects) AS r(account_id, subject_id)
  -- An account removed since the append receives nothing (and must not fail the batch).
  WHERE upd.channel IS NULL AND EXISTS (SELECT 1 FROM accounts a WHERE a.id = r.account_id)
  UNION ALL
  SELECT -upd.channel, upd.position, upd.id, NULL FROM upd WHERE upd.channel IS NOT NULL;
  PERFORM pg_notify('krug_events', '');
  RETURN cardinality(ids);
END $$;
