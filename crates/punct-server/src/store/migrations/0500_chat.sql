-- Chat in a game: the seat of a player who wrote without an account (a friend game's
-- anonymous player), and who sent each message ("account:<id>", or "address:<network>" for
-- someone not signed in), by which messages are rate-limited on every server alike.
ALTER TABLE chat_messages ADD COLUMN seat TEXT;
ALTER TABLE chat_messages ADD COLUMN sender TEXT;
CREATE INDEX chat_messages_by_sender ON chat_messages (sender, at_ms);

-- How many sockets watch each game on each server (`node`), kept fresh by a heartbeat
-- (`seen_ms`): the spectator count is the sum over the servers heard from recently, so
-- that a server that died stops counting without anyone cleaning up after it.
CREATE TABLE game_watchers (
    node TEXT NOT NULL,
    game TEXT NOT NULL,
    sockets BIGINT NOT NULL,
    seen_ms BIGINT NOT NULL,
    PRIMARY KEY (node, game)
);
CREATE INDEX game_watchers_by_game ON game_watchers (game, seen_ms);
