-- Hands of private tables (a heads-up game against the computer that its player
-- did not open to watchers) are shown to their own players only: never listed on
-- another viewer's page, never served to anyone else, even once hands are public.

-- +goose Up
ALTER TABLE hands ADD COLUMN private BOOLEAN NOT NULL DEFAULT FALSE;

-- +goose Down
ALTER TABLE hands DROP COLUMN private;
