-- The signed PDFs leave the documents table for their own: what a verification, a status
-- list or a search reads of a document stays a few hundred bytes, and the bytes (tens of
-- kilobytes each) are read only when a PDF is downloaded, checked or backed up. Append-only,
-- as the documents are.
CREATE TABLE document_pdfs (
    document_id TEXT PRIMARY KEY NOT NULL REFERENCES documents (id),
    pdf BYTEA NOT NULL
);
INSERT INTO document_pdfs (document_id, pdf) SELECT id, pdf FROM documents;
ALTER TABLE documents DROP COLUMN pdf;
CREATE TRIGGER document_pdfs_append_only BEFORE UPDATE OR DELETE ON document_pdfs
    FOR EACH ROW EXECUTE FUNCTION selo_append_only();
