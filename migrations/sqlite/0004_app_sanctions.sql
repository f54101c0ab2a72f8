-- Suspensions and cassações of ride-hailing authorizations (arts. 24 PU, 26). Append-only:
-- a sanction annulled on appeal is a new event, not a deletion.
CREATE TABLE app_authorization_sanctions (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    authorization_id TEXT NOT NULL REFERENCES app_authorizations (id),
    kind TEXT NOT NULL CHECK (kind IN ('suspension', 'cassacao')),
    effective_from TEXT NOT NULL,
    until TEXT,
    reason TEXT NOT NULL,
    legal_basis TEXT NOT NULL,
    created_at TEXT NOT NULL,
    created_by TEXT NOT NULL
);
CREATE INDEX app_authorization_sanctions_authorization ON app_authorization_sanctions (authorization_id);
CREATE TRIGGER app_sanctions_append_only_u BEFORE UPDATE ON app_authorization_sanctions
BEGIN SELECT RAISE(ABORT, 'sanctions are append-only'); END;
CREATE TRIGGER app_sanctions_append_only_d BEFORE DELETE ON app_authorization_sanctions
BEGIN SELECT RAISE(ABORT, 'sanctions are append-only'); END;
