-- Suspensions and cassações of ride-hailing authorizations (arts. 24 PU, 26). Append-only:
-- a sanction annulled on appeal is a new event, not a deletion.
CREATE TABLE app_authorization_sanctions (
    id BIGSERIAL PRIMARY KEY,
    authorization_id TEXT NOT NULL REFERENCES app_authorizations (id),
    kind TEXT NOT NULL CHECK (kind IN ('suspension', 'cassacao')),
    effective_from DATE NOT NULL,
    until DATE,
    reason TEXT NOT NULL,
    legal_basis TEXT NOT NULL,
    created_at TIMESTAMPTZ NOT NULL,
    created_by TEXT NOT NULL
);
CREATE INDEX app_authorization_sanctions_authorization ON app_authorization_sanctions (authorization_id);
CREATE TRIGGER app_sanctions_append_only BEFORE UPDATE OR DELETE ON app_authorization_sanctions
    FOR EACH ROW EXECUTE FUNCTION selo_append_only();
