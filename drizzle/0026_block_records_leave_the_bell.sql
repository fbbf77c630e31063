-- ADR 0114 (issue 24 item 15): a block or unblock no longer writes an entry in the blocker's own bell;
-- the entries the old producer wrote (the only FRIEND_BLOCKED / FRIEND_UNBLOCKED rows there are) go too.
DELETE FROM "notifications" WHERE "notification_type" IN ('FRIEND_BLOCKED', 'FRIEND_UNBLOCKED');
