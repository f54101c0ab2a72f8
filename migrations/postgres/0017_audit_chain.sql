-- An audit log no one can edit unnoticed. Every event row carries the hash of its
-- content and of the previous row (one chain, in `id` order): `hash` = SHA-256 of the JSON
-- array ["selo-audit-v1", prev_hash, entity_type, entity_id, kind, actor, reason,
-- legal_basis_version, occurred_at (RFC 3339, microseconds, Z), data]. Rows written before
-- this migration have no hash: the chain starts at the first row that has one, from
-- 64 zeros. `selo audit verify` walks it. Every write transaction takes one advisory lock
-- first (storage.rs, `on_backend!`), so rows join the chain in commit order.
ALTER TABLE events ADD COLUMN prev_hash TEXT;
ALTER TABLE events ADD COLUMN hash TEXT;

-- Signed checkpoints of the chain's head (COSE_Sign1, the document keys), one a day at least,
-- published at GET /api/v1/audit/checkpoints so that a copy can be held outside the database.
CREATE TABLE audit_checkpoints (
    id BIGSERIAL PRIMARY KEY,
    day TEXT NOT NULL,
    event_id BIGINT NOT NULL,
    events BIGINT NOT NULL,
    head_hash TEXT NOT NULL,
    signed_at TIMESTAMPTZ NOT NULL,
    kid TEXT NOT NULL,
    token TEXT NOT NULL
);
CREATE INDEX audit_checkpoints_day ON audit_checkpoints (day);
CREATE TRIGGER audit_checkpoints_append_only BEFORE UPDATE OR DELETE ON audit_checkpoints
    FOR EACH ROW EXECUTE FUNCTION selo_append_only();
