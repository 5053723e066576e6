-- The players' last departures from the seats of the tables of a house on one
-- node (internal/table/departures.go; docs/rules.md, "Coming back with the
-- stack you left with"), so that a restart (graceful, or kill -9) does not
-- forget them: a player who left a cash table with a big stack sits down
-- there again within the return window with at least that stack, and finds
-- the big blind owed, the time bank and the timeouts in a row they left.
--
-- A row is written, by the table's ledger worker, before the departure's
-- cash-out is booked; it is deleted when the table forgets the departure
-- (the player sits down there again, it expires, a flood pushes it out), and
-- rows past expires_at are swept whenever a table loads its departures. The
-- table reads them back, bounded as its log's (maxDeparted, a full time bank
-- at most, nothing negative), when a table of that name opens. A seat the
-- house closes itself (a graceful shutdown, House.Recover) writes none.
-- A house on several nodes keeps them in each table's log instead.

-- +goose Up
CREATE TABLE table_departures (
    table_name TEXT    NOT NULL,           -- lower case: table names are unique ignoring case
    user_id    BIGINT  NOT NULL,
    seat       INTEGER NOT NULL,
    hand       BIGINT  NOT NULL,           -- the table's hand number when they left
    left_at    BIGINT  NOT NULL,           -- Unix ms
    expires_at BIGINT  NOT NULL,           -- Unix ms: no rule reads it after
    owes_bb    BOOLEAN NOT NULL,
    busted     BOOLEAN NOT NULL,
    stack      BIGINT  NOT NULL,
    won        BIGINT  NOT NULL,
    bank_ms    BIGINT  NOT NULL,
    timeouts   INTEGER NOT NULL,
    PRIMARY KEY (table_name, user_id)
);
CREATE INDEX table_departures_expires ON table_departures (expires_at);

-- +goose Down
DROP TABLE table_departures;
