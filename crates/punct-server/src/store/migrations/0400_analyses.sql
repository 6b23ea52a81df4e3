-- A finished game's computer analysis, asked once and kept: the stored form of
-- analysis::review::GameAnalysis as JSON. One text for SQLite and PostgreSQL.
CREATE TABLE game_analyses (
    game TEXT PRIMARY KEY,
    analysis TEXT NOT NULL,
    created_ms BIGINT NOT NULL
);
