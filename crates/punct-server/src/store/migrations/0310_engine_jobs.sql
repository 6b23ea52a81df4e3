-- The engine's job queue, when `punct worker` processes do the searches (PostgreSQL with
-- `punct serve --engine workers`): one row per computer move or analysis position, taken
-- with FOR UPDATE SKIP LOCKED by the lane first (0: a game's move, 1: an analysis), then
-- the oldest. A computer move's id is its game's and the state's number, so that it is
-- queued once however many nodes ask. The worker holds a job until `lease_ms` and renews
-- it while it searches; one whose worker died is taken again once that has passed. The
-- first result written is kept. One text for SQLite and PostgreSQL (unused on SQLite).
CREATE TABLE engine_jobs (
    id TEXT PRIMARY KEY,
    lane INTEGER NOT NULL,
    game TEXT NOT NULL,
    seq BIGINT NOT NULL,
    job TEXT NOT NULL,
    created_ms BIGINT NOT NULL,
    worker TEXT,
    lease_ms BIGINT,
    attempts INTEGER NOT NULL DEFAULT 0,
    cancelled BOOLEAN NOT NULL DEFAULT FALSE,
    result TEXT,
    error TEXT,
    done_ms BIGINT
);
CREATE INDEX engine_jobs_waiting ON engine_jobs (lane, created_ms) WHERE done_ms IS NULL;
