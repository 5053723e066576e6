-- Accounts by their name as it reads (store.lookalikeSQL: keep the two the
-- same), so that a new name reading like a player's ("aIice" for "alice",
-- capital I for small L) is refused at registration. Not unique: accounts made
-- before this rule keep their names.

-- +goose Up
CREATE INDEX users_username_lookalike ON users (replace(replace(replace(replace(LOWER(replace(username, 'I', 'l')), '1', 'l'), '0', 'o'), 'rn', 'm'), 'vv', 'w'));

-- +goose Down
DROP INDEX users_username_lookalike;
