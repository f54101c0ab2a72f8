-- The records an applicant follows at /servicos: a ride-hailing driver (linked by an
-- authorization's number and the driver's CPF together) or a charter company (by a Termo's
-- number and the company's CNPJ together). A link is what lets selo write to the applicant
-- about that record: the reminders before an expiry, and an auto's electronic notice.
CREATE TABLE applicant_links (
    applicant_id TEXT NOT NULL REFERENCES applicants (id),
    entity_type TEXT NOT NULL CHECK (entity_type IN ('driver', 'company')),
    entity_id TEXT NOT NULL,
    linked_at TEXT NOT NULL,
    PRIMARY KEY (applicant_id, entity_type, entity_id)
);
CREATE INDEX applicant_links_entity ON applicant_links (entity_type, entity_id);

-- Each reminder sent (the message itself is in the outbox): one per applicant, record, expiry
-- date and number of days before it, so a reminder is queued once whatever the nodes.
CREATE TABLE reminders_sent (
    applicant_id TEXT NOT NULL REFERENCES applicants (id),
    reminder_key TEXT NOT NULL,
    queued_at TEXT NOT NULL,
    PRIMARY KEY (applicant_id, reminder_key)
);
