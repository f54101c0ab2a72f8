-- Reports (denúncias) passengers send from the verification page, with no account. What the
-- page showed is kept beside the account: the verdict and, when the page named a document, its
-- kind, number and plate. No name, no CPF, no client address; the optional contact e-mail is
-- erased when the Ouvidoria answers, and a closed report is deleted after the retention the
-- city configures.
CREATE TABLE passenger_reports (
    id TEXT PRIMARY KEY NOT NULL,
    number TEXT NOT NULL UNIQUE,
    verdict TEXT NOT NULL,
    document_kind TEXT,
    document_number TEXT,
    plate TEXT,
    -- The law of the document (`ride_hailing`, `charter`), when there was one.
    law TEXT,
    category TEXT NOT NULL,
    account TEXT NOT NULL,
    occurred_on DATE NOT NULL,
    occurred_time TEXT,
    contact_email TEXT,
    status TEXT NOT NULL CHECK (status IN ('recebida', 'encerrada')),
    outcome TEXT,
    closed_by TEXT,
    closed_at TIMESTAMPTZ,
    created_at TIMESTAMPTZ NOT NULL
);
CREATE INDEX passenger_reports_queue ON passenger_reports (status, created_at);
CREATE INDEX passenger_reports_closed ON passenger_reports (closed_at);
