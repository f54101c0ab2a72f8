-- None of these tables notifies `selo_register` (migration 0016): no verification reads them.
-- The e-mail outbox: every message is written here, in the transaction of the act it tells
-- of, and sent afterwards by whichever node claims it first (a lease with an owner and an
-- end; on PostgreSQL the claim also skips rows another node holds). A message is `pending`
-- until the SMTP server accepts it (`sent`) or it fails for good (`failed`, shown to the
-- officials). Times that schedule work are microseconds since the Unix epoch.
CREATE TABLE outbox_messages (
    id TEXT PRIMARY KEY NOT NULL,
    recipient TEXT NOT NULL,
    subject TEXT NOT NULL,
    body TEXT NOT NULL,
    -- What the message is about (`sign_in_code`, …) and the record it concerns, if any.
    topic TEXT NOT NULL,
    entity_type TEXT,
    entity_id TEXT,
    created_at TIMESTAMPTZ NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('pending', 'sent', 'failed')),
    attempts BIGINT NOT NULL DEFAULT 0,
    next_attempt_us BIGINT NOT NULL,
    lease_owner TEXT,
    lease_until_us BIGINT,
    sent_at TIMESTAMPTZ,
    last_error TEXT
);
CREATE INDEX outbox_messages_due ON outbox_messages (status, next_attempt_us);
CREATE INDEX outbox_messages_entity ON outbox_messages (entity_type, entity_id);

-- Every attempt to hand a message to the SMTP server, with what the server or the network said.
CREATE TABLE outbox_attempts (
    message_id TEXT NOT NULL REFERENCES outbox_messages (id),
    attempt BIGINT NOT NULL,
    at TIMESTAMPTZ NOT NULL,
    node TEXT NOT NULL,
    outcome TEXT NOT NULL CHECK (outcome IN ('sent', 'retry', 'failed')),
    detail TEXT,
    PRIMARY KEY (message_id, attempt)
);

-- Applicants (drivers, companies' representatives) who sign in at /servicos, known by their
-- e-mail address; the CPF comes from an identity provider that vouches for it, never typed.
CREATE TABLE applicants (
    id TEXT PRIMARY KEY NOT NULL,
    email TEXT NOT NULL UNIQUE,
    cpf TEXT,
    created_at TIMESTAMPTZ NOT NULL,
    last_sign_in_at TIMESTAMPTZ
);

-- One-time sign-in codes sent by e-mail, stored as SHA-256 only; each lives minutes, allows
-- a few wrong tries and is used once. The challenge id is what the code form carries.
CREATE TABLE applicant_codes (
    challenge TEXT PRIMARY KEY NOT NULL,
    email TEXT NOT NULL,
    code_hash TEXT NOT NULL,
    created_at TIMESTAMPTZ NOT NULL,
    expires_us BIGINT NOT NULL,
    failures BIGINT NOT NULL DEFAULT 0,
    used_at TIMESTAMPTZ
);
CREATE INDEX applicant_codes_email ON applicant_codes (email, created_at);

-- Applicants' browser sessions, stored only as the SHA-256 of their id.
CREATE TABLE applicant_sessions (
    id_hash TEXT PRIMARY KEY NOT NULL,
    applicant_id TEXT NOT NULL REFERENCES applicants (id),
    csrf_token TEXT NOT NULL,
    created_at TIMESTAMPTZ NOT NULL,
    last_seen_at TIMESTAMPTZ NOT NULL,
    ended_at TIMESTAMPTZ
);
CREATE INDEX applicant_sessions_applicant ON applicant_sessions (applicant_id);
