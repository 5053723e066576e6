-- Per-hand statistics and the seats a table holds.
--
-- hands.big_blind is the hand's big blind (the ante in three card stud), the unit
-- of a win rate in big blinds per 100 hands. hand_players.vpip and .pfr record
-- whether the player put chips in voluntarily, and whether they bet or raised, in
-- the first betting round (before the flop; stud's first round), computed from the
-- engine's actions when the hand is recorded. player_stats keeps their running
-- totals, and the net won in thousandths of a big blind, so that rankings read one
-- row per player.
--
-- table_seats is what each table holds for each registered player: the buy-in,
-- then the stack after every recorded hand, deleted at the cash-out, each in the
-- transaction of the ledger row or hand that changes it. A house that stopped
-- without cashing out (kill -9, a crash) finds the stacks of its unfinished games
-- here at the next start and returns them to the players' credits.

-- +goose Up
ALTER TABLE hands ADD COLUMN big_blind BIGINT NOT NULL DEFAULT 0;
ALTER TABLE hand_players ADD COLUMN vpip BOOLEAN NOT NULL DEFAULT FALSE;
ALTER TABLE hand_players ADD COLUMN pfr BOOLEAN NOT NULL DEFAULT FALSE;
ALTER TABLE player_stats ADD COLUMN vpip_hands BIGINT NOT NULL DEFAULT 0;
ALTER TABLE player_stats ADD COLUMN pfr_hands BIGINT NOT NULL DEFAULT 0;
ALTER TABLE player_stats ADD COLUMN bb_won_milli BIGINT NOT NULL DEFAULT 0;

CREATE TABLE table_seats (
    table_ref  TEXT   NOT NULL,
    user_id    BIGINT NOT NULL REFERENCES users (id),
    stack      BIGINT NOT NULL CHECK (stack >= 0),
    updated_at BIGINT NOT NULL,
    PRIMARY KEY (table_ref, user_id)
);

-- +goose Down
DROP TABLE table_seats;
ALTER TABLE player_stats DROP COLUMN bb_won_milli;
ALTER TABLE player_stats DROP COLUMN pfr_hands;
ALTER TABLE player_stats DROP COLUMN vpip_hands;
ALTER TABLE hand_players DROP COLUMN pfr;
ALTER TABLE hand_players DROP COLUMN vpip;
ALTER TABLE hands DROP COLUMN big_blind;
