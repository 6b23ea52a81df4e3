-- Players: accounts and what hangs on them. One text for SQLite and PostgreSQL. Times are
-- ms since the epoch; ids are made by the server; secrets are stored as SHA-256 hex.

-- An account. A deleted one keeps its row (its games still name it) without its name's
-- display form, password or sessions; its lowercase name stays taken.
CREATE TABLE accounts (
    id TEXT PRIMARY KEY,
    username TEXT,
    username_key TEXT NOT NULL UNIQUE,
    password_hash TEXT,
    created_ms BIGINT NOT NULL,
    password_changed_ms BIGINT NOT NULL,
    chat BOOLEAN NOT NULL DEFAULT TRUE,
    muted_until_ms BIGINT,
    closed_ms BIGINT,
    deleted_ms BIGINT
);

-- A signed-in browser: the cookie's hash.
CREATE TABLE sessions (
    hash TEXT PRIMARY KEY,
    account TEXT NOT NULL REFERENCES accounts (id),
    created_ms BIGINT NOT NULL,
    seen_ms BIGINT NOT NULL,
    expires_ms BIGINT NOT NULL,
    csrf_hash TEXT NOT NULL
);
CREATE INDEX sessions_by_account ON sessions (account);
CREATE INDEX sessions_by_expiry ON sessions (expires_ms);

-- A personal API token (Authorization: Bearer punct_...).
CREATE TABLE api_tokens (
    id TEXT PRIMARY KEY,
    hash TEXT NOT NULL UNIQUE,
    account TEXT NOT NULL REFERENCES accounts (id),
    name TEXT NOT NULL,
    created_ms BIGINT NOT NULL,
    used_ms BIGINT
);
CREATE INDEX api_tokens_by_account ON api_tokens (account);

-- The recovery codes shown at sign-up: each resets the password once.
CREATE TABLE recovery_codes (
    account TEXT NOT NULL REFERENCES accounts (id),
    hash TEXT NOT NULL,
    created_ms BIGINT NOT NULL,
    used_ms BIGINT,
    PRIMARY KEY (account, hash)
);

-- Failed sign-ins (and recoveries) per account name and per address, for the growing wait
-- after the fifth; kept in the database so that every server counts the same.
CREATE TABLE sign_in_failures (
    key TEXT PRIMARY KEY,
    failures BIGINT NOT NULL,
    last_ms BIGINT NOT NULL,
    blocked_until_ms BIGINT NOT NULL
);
CREATE INDEX sign_in_failures_by_time ON sign_in_failures (last_ms);

-- A rating per account and speed; no row is a new player's 1500 / 350 / 0.06. `games`
-- counts the rated games and versions the row: an update names the count it was made on.
CREATE TABLE ratings (
    account TEXT NOT NULL REFERENCES accounts (id),
    speed TEXT NOT NULL,
    rating DOUBLE PRECISION NOT NULL,
    rd DOUBLE PRECISION NOT NULL,
    volatility DOUBLE PRECISION NOT NULL,
    games BIGINT NOT NULL,
    updated_ms BIGINT NOT NULL,
    PRIMARY KEY (account, speed)
);
CREATE INDEX ratings_board ON ratings (speed, rating);

-- Each rated game's rating after it, for the graph on the profile; one row per account and
-- game, so that a game is never rated twice.
CREATE TABLE rating_history (
    account TEXT NOT NULL REFERENCES accounts (id),
    game TEXT NOT NULL,
    speed TEXT NOT NULL,
    at_ms BIGINT NOT NULL,
    rating DOUBLE PRECISION NOT NULL,
    rd DOUBLE PRECISION NOT NULL,
    change DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (account, game)
);
CREATE INDEX rating_history_by_account ON rating_history (account, speed, at_ms);

-- The games an account plays or played, one row per seat: its profile's lists and "your
-- turn". `result` is the account's (win, loss, draw) once the game ended; `to_move` and
-- `deadline_ms` (a correspondence game's time-out) are kept while it is live.
CREATE TABLE account_games (
    game TEXT NOT NULL,
    colour TEXT NOT NULL,
    account TEXT NOT NULL REFERENCES accounts (id),
    opponent TEXT REFERENCES accounts (id),
    speed TEXT NOT NULL,
    rated BOOLEAN NOT NULL,
    live BOOLEAN NOT NULL,
    to_move BOOLEAN NOT NULL,
    deadline_ms BIGINT,
    result TEXT,
    rating_before DOUBLE PRECISION,
    rating_change DOUBLE PRECISION,
    started_ms BIGINT NOT NULL,
    ended_ms BIGINT,
    PRIMARY KEY (game, colour)
);
CREATE INDEX account_games_by_account ON account_games (account, started_ms);
CREATE INDEX account_games_to_move ON account_games (account) WHERE to_move = TRUE;
CREATE INDEX account_games_by_deadline ON account_games (deadline_ms) WHERE deadline_ms IS NOT NULL;

-- A seek in the lobby. A real-time one lives while its seeker is there (`expires_ms` is
-- pushed on by the server holding their socket); accepting deletes it, once.
CREATE TABLE seeks (
    id TEXT PRIMARY KEY,
    account TEXT NOT NULL REFERENCES accounts (id),
    speed TEXT NOT NULL,
    initial_ms BIGINT,
    increment_ms BIGINT,
    days_per_move BIGINT,
    rated BOOLEAN NOT NULL,
    colour TEXT NOT NULL,
    rating_min BIGINT,
    rating_max BIGINT,
    created_ms BIGINT NOT NULL,
    expires_ms BIGINT NOT NULL
);
CREATE INDEX seeks_by_account ON seeks (account);
CREATE INDEX seeks_by_expiry ON seeks (expires_ms);

-- A player waiting in a quick-pairing pool (`pool` names the time control, e.g. 5+3).
CREATE TABLE pool_entries (
    pool TEXT NOT NULL,
    account TEXT NOT NULL REFERENCES accounts (id),
    rating DOUBLE PRECISION NOT NULL,
    joined_ms BIGINT NOT NULL,
    expires_ms BIGINT NOT NULL,
    PRIMARY KEY (pool, account)
);

-- A challenge from one account to another: open until accepted (`game` set), declined,
-- cancelled or expired.
CREATE TABLE challenges (
    id TEXT PRIMARY KEY,
    challenger TEXT NOT NULL REFERENCES accounts (id),
    challenged TEXT NOT NULL REFERENCES accounts (id),
    speed TEXT NOT NULL,
    initial_ms BIGINT,
    increment_ms BIGINT,
    days_per_move BIGINT,
    rated BOOLEAN NOT NULL,
    colour TEXT NOT NULL,
    status TEXT NOT NULL,
    game TEXT,
    created_ms BIGINT NOT NULL,
    expires_ms BIGINT NOT NULL,
    decided_ms BIGINT
);
CREATE INDEX challenges_to ON challenges (challenged, status);
CREATE INDEX challenges_from ON challenges (challenger, status);

-- What an account is told of: its turn, a challenge, a draw offer, a game's end.
CREATE TABLE notifications (
    id TEXT PRIMARY KEY,
    account TEXT NOT NULL REFERENCES accounts (id),
    kind TEXT NOT NULL,
    game TEXT,
    other TEXT REFERENCES accounts (id),
    created_ms BIGINT NOT NULL,
    read_ms BIGINT
);
CREATE INDEX notifications_by_account ON notifications (account, created_ms);

-- A game's chat, the players' and the watchers' apart (`room`).
CREATE TABLE chat_messages (
    id TEXT PRIMARY KEY,
    game TEXT NOT NULL,
    room TEXT NOT NULL,
    author TEXT REFERENCES accounts (id),
    body TEXT NOT NULL,
    at_ms BIGINT NOT NULL
);
CREATE INDEX chat_messages_by_game ON chat_messages (game, room, at_ms);

-- Who blocked whom: a block stops the blocked one's challenges and chat.
CREATE TABLE blocks (
    account TEXT NOT NULL REFERENCES accounts (id),
    blocked TEXT NOT NULL REFERENCES accounts (id),
    created_ms BIGINT NOT NULL,
    PRIMARY KEY (account, blocked)
);

-- A report of a chat message, with a copy of it, for the operator.
CREATE TABLE reports (
    id TEXT PRIMARY KEY,
    reporter TEXT NOT NULL REFERENCES accounts (id),
    reported TEXT REFERENCES accounts (id),
    message TEXT,
    body TEXT NOT NULL,
    reason TEXT NOT NULL,
    created_ms BIGINT NOT NULL,
    closed_ms BIGINT
);
CREATE INDEX reports_open ON reports (closed_ms, created_ms);
