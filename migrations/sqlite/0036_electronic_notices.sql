-- The notification of a ride-hailing auto sent electronically (where the legal basis allows
-- it) to each applicant who follows the driver at /servicos: when it was sent, and when that
-- applicant first opened it (the proof of delivery the official files before recording the
-- notification).
CREATE TABLE electronic_notices (
    id TEXT PRIMARY KEY NOT NULL,
    auto_id TEXT NOT NULL REFERENCES app_infraction_autos (id),
    applicant_id TEXT NOT NULL REFERENCES applicants (id),
    sent_at TEXT NOT NULL,
    sent_by TEXT NOT NULL,
    read_at TEXT,
    UNIQUE (auto_id, applicant_id)
);
CREATE INDEX electronic_notices_applicant ON electronic_notices (applicant_id, sent_at);
