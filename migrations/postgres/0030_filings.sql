-- Filings (requerimentos) applicants make at /servicos. A filing is put together as a draft,
-- then protocolled: it takes a number of the `REQ` series and the protocol date the law
-- counts from. Officials examine its files, may ask for more (an exigência with a deadline)
-- and decide it through the same act as at the desk; what the decision issued is linked here.
CREATE TABLE filings (
    id TEXT PRIMARY KEY NOT NULL,
    applicant_id TEXT NOT NULL REFERENCES applicants (id),
    kind TEXT NOT NULL,
    -- The record the filing is about (the authorization to renew).
    subject_id TEXT NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('rascunho', 'protocolado', 'exigencia', 'decidido')),
    number TEXT UNIQUE,
    protocolled_on DATE,
    filed_at TIMESTAMPTZ,
    demand TEXT,
    demand_due DATE,
    demanded_by TEXT,
    outcome TEXT CHECK (outcome IN ('deferido', 'indeferido', 'em_revisao')),
    outcome_note TEXT,
    result_id TEXT,
    decided_at TIMESTAMPTZ,
    decided_by TEXT,
    created_at TIMESTAMPTZ NOT NULL,
    updated_at TIMESTAMPTZ NOT NULL
);
CREATE INDEX filings_applicant ON filings (applicant_id, created_at);
CREATE INDEX filings_queue ON filings (status, filed_at);

-- The files of a filing, kept whole with their SHA-256. A file is `pendente` until an official
-- accepts it or refuses it with the reason the applicant reads; a newer file in the same slot
-- replaces a refused or pending one.
CREATE TABLE filing_files (
    id TEXT PRIMARY KEY NOT NULL,
    filing_id TEXT NOT NULL REFERENCES filings (id),
    slot TEXT NOT NULL,
    file_name TEXT NOT NULL,
    media_type TEXT NOT NULL CHECK (media_type IN ('application/pdf', 'image/jpeg', 'image/png')),
    size_bytes BIGINT NOT NULL,
    sha256 TEXT NOT NULL,
    content BYTEA NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('pendente', 'aceito', 'recusado', 'substituido')),
    reason TEXT,
    examined_by TEXT,
    examined_at TIMESTAMPTZ,
    uploaded_at TIMESTAMPTZ NOT NULL
);
CREATE INDEX filing_files_filing ON filing_files (filing_id, uploaded_at);
