-- Find a document by the SHA-256 of its signed PDF (POST /api/v1/verify/pdf).
CREATE INDEX documents_sha256 ON documents (sha256);
