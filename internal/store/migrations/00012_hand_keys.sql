-- A hand's key (its table's reference and number, "Main#1a2b3c4d/42"), for the
-- hands of a house on several nodes (docs/scaling.md): a node that takes a
-- table over records the hand its lost owner logged as ended, and the key
-- keeps a hand from being recorded twice (the lost owner may have recorded it
-- already). NULL for the hands of a single node, which need no key.

-- +goose Up
ALTER TABLE hands ADD COLUMN hand_key TEXT;
CREATE UNIQUE INDEX hands_key ON hands (hand_key);

-- +goose Down
DROP INDEX hands_key;
ALTER TABLE hands DROP COLUMN hand_key;
