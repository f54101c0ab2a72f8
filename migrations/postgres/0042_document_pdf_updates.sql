-- A signed PDF gains, over its life, the updates its certification allows: fresh long-term
-- validation data and archive timestamps (PAdES B-LTA) that keep its signature provable after
-- the certificates expire. Each update is kept as the bytes appended to the file, so the file
-- a citizen downloads is the original (document_pdfs, byte for byte) followed by its updates in
-- order. `sha256` is the whole file's after the update (an uploaded copy of any revision is
-- found by it); `protected_until` is when the certificate of the update's archive timestamp
-- expires, before which the next update is due. Append-only.
CREATE TABLE document_pdf_updates (
    document_id TEXT NOT NULL REFERENCES documents (id),
    seq BIGINT NOT NULL,
    added_at TIMESTAMPTZ NOT NULL,
    sha256 TEXT NOT NULL,
    protected_until TIMESTAMPTZ NOT NULL,
    bytes BYTEA NOT NULL,
    PRIMARY KEY (document_id, seq)
);
CREATE INDEX document_pdf_updates_sha256 ON document_pdf_updates (sha256);
CREATE TRIGGER document_pdf_updates_append_only BEFORE UPDATE OR DELETE ON document_pdf_updates
    FOR EACH ROW EXECUTE FUNCTION selo_append_only();
