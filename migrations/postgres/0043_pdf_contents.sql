-- A signed PDF's bytes are kept by their SHA-256, the hash each document's row already
-- carries (`documents.sha256`): the same file stored twice is kept once, and the bytes are
-- reached from a document by its hash. Append-only, as the documents are.
CREATE TABLE pdf_contents (
    sha256 TEXT PRIMARY KEY NOT NULL,
    pdf BYTEA NOT NULL
);
INSERT INTO pdf_contents (sha256, pdf)
    SELECT d.sha256, p.pdf FROM documents d JOIN document_pdfs p ON p.document_id = d.id
    ON CONFLICT (sha256) DO NOTHING;
DROP TABLE document_pdfs;
CREATE TRIGGER pdf_contents_append_only BEFORE UPDATE OR DELETE ON pdf_contents
    FOR EACH ROW EXECUTE FUNCTION selo_append_only();
