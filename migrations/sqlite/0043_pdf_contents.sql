-- A signed PDF's bytes are kept by their SHA-256, the hash each document's row already
-- carries (`documents.sha256`): the same file stored twice is kept once, and the bytes are
-- reached from a document by its hash. Append-only, as the documents are.
CREATE TABLE pdf_contents (
    sha256 TEXT PRIMARY KEY NOT NULL,
    pdf BLOB NOT NULL
);
INSERT OR IGNORE INTO pdf_contents (sha256, pdf)
    SELECT d.sha256, p.pdf FROM documents d JOIN document_pdfs p ON p.document_id = d.id;
DROP TABLE document_pdfs;
CREATE TRIGGER pdf_contents_append_only_u BEFORE UPDATE ON pdf_contents
BEGIN SELECT RAISE(ABORT, 'pdf_contents is append-only'); END;
CREATE TRIGGER pdf_contents_append_only_d BEFORE DELETE ON pdf_contents
BEGIN SELECT RAISE(ABORT, 'pdf_contents is append-only'); END;
