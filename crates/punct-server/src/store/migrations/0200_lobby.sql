-- The lobby's open sockets, one row each, whose expiry its server pushes on while the socket
-- is open: a real-time seek (or pool entry) goes when its seeker has no socket left on any
-- server, and a dead server's rows run out by themselves.
CREATE TABLE lobby_sockets (
    id TEXT PRIMARY KEY,
    account TEXT NOT NULL REFERENCES accounts (id),
    expires_ms BIGINT NOT NULL
);
CREATE INDEX lobby_sockets_by_account ON lobby_sockets (account);
CREATE INDEX pool_entries_by_account ON pool_entries (account);
