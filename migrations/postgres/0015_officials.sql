-- Officials with personal accounts and roles. Every event, document and number
-- reservation names the official who made it (events.actor holds the official's id).
CREATE TABLE officials (
    id TEXT PRIMARY KEY NOT NULL,
    login TEXT NOT NULL UNIQUE,
    name TEXT NOT NULL,
    -- Comma-separated role names: admin, ride_hailing_issuer, charter_issuer, inspector, auditor.
    roles TEXT NOT NULL,
    active BOOLEAN NOT NULL,
    -- Argon2id, PHC string format.
    password_hash TEXT NOT NULL,
    created_at TIMESTAMPTZ NOT NULL,
    updated_at TIMESTAMPTZ NOT NULL
);

-- Personal API tokens, stored only as their SHA-256 (the token itself is shown once).
CREATE TABLE official_tokens (
    token_hash TEXT PRIMARY KEY NOT NULL,
    official_id TEXT NOT NULL REFERENCES officials (id),
    created_at TIMESTAMPTZ NOT NULL,
    revoked_at TIMESTAMPTZ
);
CREATE INDEX official_tokens_official ON official_tokens (official_id);

-- Browser sessions, stored only as the SHA-256 of their id, so logging out or disabling an
-- official ends them at once.
CREATE TABLE official_sessions (
    id_hash TEXT PRIMARY KEY NOT NULL,
    official_id TEXT NOT NULL REFERENCES officials (id),
    csrf_token TEXT NOT NULL,
    created_at TIMESTAMPTZ NOT NULL,
    last_seen_at TIMESTAMPTZ NOT NULL,
    ended_at TIMESTAMPTZ
);
CREATE INDEX official_sessions_official ON official_sessions (official_id);

-- Two pseudo-officials, never active (no one signs in as them; '!' matches no password), so
-- the events they made name them: the development token (SELO_ADMIN_TOKEN outside production)
-- and the server's command line (`selo officials …`).
INSERT INTO officials (id, login, name, roles, active, password_hash, created_at, updated_at)
VALUES ('00000000-0000-0000-0000-000000000000', 'token-dev', 'token de desenvolvimento',
    'admin,auditor,charter_issuer,inspector,ride_hailing_issuer', FALSE, '!',
    '2026-12-01T00:00:00Z', '2026-12-01T00:00:00Z');
INSERT INTO officials (id, login, name, roles, active, password_hash, created_at, updated_at)
VALUES ('00000000-0000-0000-0000-000000000001', 'linha-de-comando',
    'linha de comando do servidor', 'admin', FALSE, '!',
    '2026-12-01T00:00:00Z', '2026-12-01T00:00:00Z');

ALTER TABLE document_numbers ADD COLUMN reserved_by TEXT;
ALTER TABLE documents ADD COLUMN issued_by TEXT;
