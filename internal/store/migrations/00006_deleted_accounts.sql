-- Accounts their players deleted (issue 17): the row stays, so that the ledger,
-- hands and posts keep their user, but it is anonymised (renamed deleted-ID, no
-- password, email or location) and marked with when it was deleted. Rankings
-- leave such accounts out.

-- +goose Up
ALTER TABLE users ADD COLUMN deleted_at BIGINT;

-- +goose Down
ALTER TABLE users DROP COLUMN deleted_at;
