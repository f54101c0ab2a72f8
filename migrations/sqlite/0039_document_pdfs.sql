-- The signed PDFs leave the documents table for their own: what a verification, a status
-- list or a search reads of a document stays a few hundred bytes, and the bytes (tens of
-- kilobytes each) are read only when a PDF is downloaded, checked or backed up. Append-only,
-- as the documents are.
CREATE TABLE document_pdfs (
    document_id TEXT PRIMARY KEY NOT NULL REFERENCES documents (id),
    pdf BLOB NOT NULL
);
INSERT INTO document_pdfs (document_id, pdf) SELECT id, pdf FROM documents;
ALTER TABLE documents DROP COLUMN pdf;
CREATE TRIGGER document_pdfs_append_only_u BEFORE UPDATE ON document_pdfs
BEGIN SELECT RAISE(ABORT, 'document_pdfs is append-only'); END;
CREATE TRIGGER document_pdfs_append_only_d BEFORE DELETE ON document_pdfs
BEGIN SELECT RAISE(ABORT, 'document_pdfs is append-only'); END;
