-- The tables players open, kept so that they open again after the house restarts.
--
-- A row is written when a player opens a table and deleted when the table closes by
-- itself (no players for a while); a house that stops (SIGTERM, kill -9, a crash)
-- keeps its rows, and the next start opens those tables again. config is the
-- table's settings as the API received them (JSON).

-- +goose Up
CREATE TABLE player_tables (
    name       TEXT   PRIMARY KEY,        -- lower case: table names are unique ignoring case
    owner_id   BIGINT NOT NULL REFERENCES users (id),
    config     TEXT   NOT NULL,
    created_at BIGINT NOT NULL
);

-- +goose Down
DROP TABLE player_tables;
