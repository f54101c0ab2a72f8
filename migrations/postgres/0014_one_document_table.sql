-- One table for every issued document of both laws. The ride-hailing authorization and
-- sticker (until now in `documents`) and every other kind (until now in
-- `register_documents`) become rows of the same `documents`: each names its kind, its
-- subject and what the token's subject field carries; ride-hailing rows also name their
-- authorization and the car replacement they were issued for. Every row moves unchanged, so
-- every token, printed code and PDF issued before keeps verifying.
CREATE TABLE documents_all (
    id TEXT PRIMARY KEY,
    kind TEXT NOT NULL,
    subject_type TEXT NOT NULL,
    subject_id TEXT NOT NULL,
    -- The charter company, for charter documents.
    company_id TEXT REFERENCES charter_companies (id),
    -- The ride-hailing authorization, for its authorization and sticker.
    authorization_id TEXT REFERENCES app_authorizations (id),
    -- The car replacement the document was issued for (APP-ART8-P2); NULL: with the grant.
    substitution_seq INTEGER,
    number TEXT NOT NULL,
    verification_code TEXT NOT NULL UNIQUE,
    token TEXT NOT NULL,
    key_id TEXT NOT NULL,
    pdf BYTEA NOT NULL,
    sha256 TEXT NOT NULL,
    -- What the token's subject field carries: plate, CNPJ or number, canonical.
    subject_key TEXT NOT NULL,
    valid_until DATE,
    legal_basis_version TEXT NOT NULL,
    issued_at TIMESTAMPTZ NOT NULL,
    -- What a certidão certified at issue, JSON.
    facts TEXT
);
INSERT INTO documents_all (id, kind, subject_type, subject_id, company_id, authorization_id,
    substitution_seq, number, verification_code, token, key_id, pdf, sha256, subject_key,
    valid_until, legal_basis_version, issued_at, facts)
SELECT d.id, d.kind, 'app_authorization', d.authorization_id, NULL, d.authorization_id,
    d.substitution_seq, d.number, d.verification_code, d.token, d.key_id, d.pdf, d.sha256,
    v.plate, a.valid_until, d.legal_basis_version, d.issued_at, NULL
FROM documents d
JOIN app_authorizations a ON a.id = d.authorization_id
JOIN vehicles v ON v.id = COALESCE((SELECT s.new_vehicle_id FROM app_vehicle_substitutions s
    WHERE s.authorization_id = a.id AND s.seq = d.substitution_seq), a.vehicle_id);
INSERT INTO documents_all (id, kind, subject_type, subject_id, company_id, authorization_id,
    substitution_seq, number, verification_code, token, key_id, pdf, sha256, subject_key,
    valid_until, legal_basis_version, issued_at, facts)
SELECT id, kind, subject_type, subject_id, company_id, NULL, NULL, number, verification_code,
    token, key_id, pdf, sha256, subject_key, valid_until, legal_basis_version, issued_at, facts
FROM register_documents;

DROP TABLE documents;
DROP TABLE register_documents;
ALTER TABLE documents_all RENAME TO documents;
ALTER INDEX documents_all_pkey RENAME TO documents_pkey;
ALTER INDEX documents_all_verification_code_key RENAME TO documents_verification_code_key;

CREATE INDEX documents_subject ON documents (subject_type, subject_id);
CREATE INDEX documents_authorization ON documents (authorization_id);
CREATE INDEX documents_sha256 ON documents (sha256);
-- Every insert claims its code (codes already issued were claimed before the move).
CREATE TRIGGER documents_claim_code AFTER INSERT ON documents
    FOR EACH ROW EXECUTE FUNCTION selo_claim_code();
CREATE TRIGGER documents_append_only BEFORE UPDATE OR DELETE ON documents
    FOR EACH ROW EXECUTE FUNCTION selo_append_only();
