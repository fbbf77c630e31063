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
