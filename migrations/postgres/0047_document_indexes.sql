-- What a document's row costs besides its own columns.
--
-- The printed codes had a table of their own, claimed by a trigger on every insert, from
-- when documents lived in two tables; in one table, its unique index on `verification_code`
-- already guarantees a code names one document.
DROP TRIGGER documents_claim_code ON documents;
DROP TABLE verification_codes;
DROP FUNCTION selo_claim_code();

-- A ride-hailing authorization's documents are found by `authorization_id` (its own index);
-- the subject index serves the other kinds only (a Termo, a bus, an auto, a certidão), whose
-- rows have no authorization. Lookups by subject say `authorization_id IS NULL`.
DROP INDEX documents_subject;
CREATE INDEX documents_subject ON documents (subject_id) WHERE authorization_id IS NULL;

-- A PDF uploaded for checking finds its document by hash: the first 16 hex digits (64 bits)
-- single it out, the full hash is compared on the row.
DROP INDEX documents_sha256;
CREATE INDEX documents_sha256 ON documents (substr(sha256, 1, 16));

-- Only charter documents name a company.
DROP INDEX documents_company;
CREATE INDEX documents_company ON documents (company_id) WHERE company_id IS NOT NULL;
