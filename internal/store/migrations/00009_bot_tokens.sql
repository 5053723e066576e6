-- Players' own bots (issue 17, "Bring your own bot"): a bot account is a users row
-- whose owner_id names the player who made it (NULL for every other account). It
-- has no password, so it cannot log in; it plays with an API token.
--
-- api_tokens holds one token per bot account. The token a program presents is
-- felt_<id>_<secret>: id (public, the primary key) finds the row, and the SHA-256
-- of secret is compared in constant time with secret_hash. The token itself is
-- never stored; revoking it deletes the row.

-- +goose Up
ALTER TABLE users ADD COLUMN owner_id BIGINT REFERENCES users (id);
CREATE INDEX users_owner ON users (owner_id);

CREATE TABLE api_tokens (
    id          TEXT   PRIMARY KEY,
    user_id     BIGINT NOT NULL UNIQUE REFERENCES users (id) ON DELETE CASCADE,
    secret_hash BYTEA  NOT NULL,
    created_at  BIGINT NOT NULL
);

-- +goose Down
DROP TABLE api_tokens;
DROP INDEX users_owner;
ALTER TABLE users DROP COLUMN owner_id;
