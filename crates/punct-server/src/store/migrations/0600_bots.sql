-- Bot accounts: played by a program through the API (API.md, "Bots"), marked as bots in
-- every list, kept out of the lobby's seeks and pools. Set at sign-up, or later by the
-- account (or the operator) while it has no game.
ALTER TABLE accounts ADD COLUMN bot BOOLEAN NOT NULL DEFAULT FALSE;
