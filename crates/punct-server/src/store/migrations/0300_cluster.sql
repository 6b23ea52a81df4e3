CREATE TABLE nodes (
    id TEXT PRIMARY KEY,
    started_ms BIGINT NOT NULL,
    alive_ms BIGINT NOT NULL
);
CREATE TABLE game_owners (
    game TEXT PRIMARY KEY,
    node TEXT NOT NULL,
    since_ms BIGINT NOT NULL
);
CREATE INDEX game_owners_node ON game_owners (node);
