-- The fencing tokens of tables of a house on several nodes (docs/scaling.md): the
-- highest token of a table's owners seen by the database. A write for a table
-- (a buy-in, a cash-out, a hand) by a node holding a lower token is refused, so
-- that a stale owner cannot write after another node has taken the table over.

-- +goose Up
CREATE TABLE table_fences (
    table_ref TEXT PRIMARY KEY,
    token     BIGINT NOT NULL
);

-- +goose Down
DROP TABLE table_fences;
