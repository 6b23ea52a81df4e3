-- The site's settings kept with an account (the settings menu's board and pieces, the
-- theme), so that they follow its owner to every browser they sign in on.
CREATE TABLE account_settings (
    account TEXT PRIMARY KEY REFERENCES accounts (id),
    settings TEXT NOT NULL,
    updated_ms BIGINT NOT NULL
);
