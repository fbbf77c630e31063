-- People of other servers (issue 43) kept their whole display name as the first name; it is now split into a
-- first and a last name (the first word and the rest, whitespace folded) as lib/server/federation/remote.ts
-- splitRemoteName does, so Russian texts decline it (docs/adr/0182). Rows that already have a last name are
-- left as they are.
update accounts a
set first_name = split_part(n.folded, ' ', 1),
    last_name = coalesce(nullif(substr(n.folded, length(split_part(n.folded, ' ', 1)) + 2), ''), '')
from (select id, btrim(regexp_replace(first_name, '\s+', ' ', 'g')) as folded from accounts where remote and last_name = '') n
where a.id = n.id and n.folded <> '' and position(' ' in n.folded) > 0;
