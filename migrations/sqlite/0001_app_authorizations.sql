-- Ride-hailing register: drivers, vehicles, authorizations, documents, numbers, events.
-- Documents, events, authorizations and revocations are append-only (DESIGN invariant 3).

CREATE TABLE drivers (
    id TEXT PRIMARY KEY NOT NULL,
    name TEXT NOT NULL,
    cpf TEXT NOT NULL UNIQUE,
    cnh_number TEXT NOT NULL UNIQUE,
    cnh_category TEXT NOT NULL,
    cnh_first_license_date TEXT NOT NULL,
    cnh_ear INTEGER NOT NULL,
    cnh_expires_on TEXT NOT NULL,
    created_at TEXT NOT NULL
);

CREATE TABLE vehicles (
    id TEXT PRIMARY KEY NOT NULL,
    plate TEXT NOT NULL,
    plate_mercosul TEXT NOT NULL UNIQUE,
    renavam TEXT NOT NULL UNIQUE,
    make TEXT NOT NULL,
    model TEXT NOT NULL,
    color TEXT NOT NULL,
    model_year INTEGER NOT NULL,
    doors INTEGER NOT NULL,
    air_conditioning INTEGER NOT NULL,
    capacity_including_driver INTEGER NOT NULL,
    registration_municipality_ibge INTEGER NOT NULL,
    created_at TEXT NOT NULL
);

CREATE TABLE number_counters (
    series TEXT NOT NULL,
    year INTEGER NOT NULL,
    last_value INTEGER NOT NULL,
    PRIMARY KEY (series, year)
);

-- Every reserved number ends issued or voided (DESIGN invariant 2).
CREATE TABLE document_numbers (
    number TEXT PRIMARY KEY NOT NULL,
    series TEXT NOT NULL,
    year INTEGER NOT NULL,
    seq INTEGER NOT NULL,
    state TEXT NOT NULL CHECK (state IN ('reserved', 'issued', 'voided')),
    reserved_at TEXT NOT NULL,
    closed_at TEXT,
    void_reason TEXT,
    UNIQUE (series, year, seq)
);

CREATE TABLE app_authorizations (
    id TEXT PRIMARY KEY NOT NULL,
    number TEXT NOT NULL UNIQUE REFERENCES document_numbers (number),
    driver_id TEXT NOT NULL REFERENCES drivers (id),
    vehicle_id TEXT NOT NULL REFERENCES vehicles (id),
    fee_paid_on TEXT NOT NULL,
    valid_from TEXT NOT NULL,
    valid_until TEXT NOT NULL,
    legal_basis_version TEXT NOT NULL,
    granted_at TEXT NOT NULL,
    granted_by TEXT NOT NULL
);
CREATE INDEX app_authorizations_driver ON app_authorizations (driver_id, valid_until);
CREATE INDEX app_authorizations_vehicle ON app_authorizations (vehicle_id, valid_until);

CREATE TABLE app_authorization_revocations (
    authorization_id TEXT PRIMARY KEY NOT NULL REFERENCES app_authorizations (id),
    revoked_at TEXT NOT NULL,
    revoked_by TEXT NOT NULL,
    reason TEXT NOT NULL
);

CREATE TABLE documents (
    id TEXT PRIMARY KEY NOT NULL,
    kind TEXT NOT NULL,
    authorization_id TEXT NOT NULL REFERENCES app_authorizations (id),
    number TEXT NOT NULL,
    verification_code TEXT NOT NULL UNIQUE,
    token TEXT NOT NULL,
    key_id TEXT NOT NULL,
    pdf BLOB NOT NULL,
    sha256 TEXT NOT NULL,
    legal_basis_version TEXT NOT NULL,
    issued_at TEXT NOT NULL
);
CREATE INDEX documents_authorization ON documents (authorization_id);

CREATE TABLE events (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    entity_type TEXT NOT NULL,
    entity_id TEXT NOT NULL,
    kind TEXT NOT NULL,
    actor TEXT NOT NULL,
    reason TEXT,
    legal_basis_version TEXT,
    occurred_at TEXT NOT NULL,
    data TEXT NOT NULL DEFAULT '{}'
);
CREATE INDEX events_entity ON events (entity_type, entity_id);

CREATE TRIGGER documents_append_only_u BEFORE UPDATE ON documents
BEGIN SELECT RAISE(ABORT, 'documents are append-only'); END;
CREATE TRIGGER documents_append_only_d BEFORE DELETE ON documents
BEGIN SELECT RAISE(ABORT, 'documents are append-only'); END;
CREATE TRIGGER events_append_only_u BEFORE UPDATE ON events
BEGIN SELECT RAISE(ABORT, 'events are append-only'); END;
CREATE TRIGGER events_append_only_d BEFORE DELETE ON events
BEGIN SELECT RAISE(ABORT, 'events are append-only'); END;
CREATE TRIGGER app_authorizations_append_only_u BEFORE UPDATE ON app_authorizations
BEGIN SELECT RAISE(ABORT, 'authorizations are append-only'); END;
CREATE TRIGGER app_authorizations_append_only_d BEFORE DELETE ON app_authorizations
BEGIN SELECT RAISE(ABORT, 'authorizations are append-only'); END;
CREATE TRIGGER revocations_append_only_u BEFORE UPDATE ON app_authorization_revocations
BEGIN SELECT RAISE(ABORT, 'revocations are append-only'); END;
CREATE TRIGGER revocations_append_only_d BEFORE DELETE ON app_authorization_revocations
BEGIN SELECT RAISE(ABORT, 'revocations are append-only'); END;
