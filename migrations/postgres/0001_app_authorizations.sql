-- Ride-hailing register: drivers, vehicles, authorizations, documents, numbers, events.
-- Documents, events, authorizations and revocations are append-only (DESIGN invariant 3).

CREATE TABLE drivers (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    cpf CHAR(11) NOT NULL UNIQUE,
    cnh_number CHAR(11) NOT NULL UNIQUE,
    cnh_category TEXT NOT NULL,
    cnh_first_license_date DATE NOT NULL,
    cnh_ear BOOLEAN NOT NULL,
    cnh_expires_on DATE NOT NULL,
    created_at TIMESTAMPTZ NOT NULL
);

CREATE TABLE vehicles (
    id TEXT PRIMARY KEY,
    plate CHAR(7) NOT NULL,
    plate_mercosul CHAR(7) NOT NULL UNIQUE,
    renavam CHAR(11) NOT NULL UNIQUE,
    make TEXT NOT NULL,
    model TEXT NOT NULL,
    color TEXT NOT NULL,
    model_year INTEGER NOT NULL,
    doors INTEGER NOT NULL,
    air_conditioning BOOLEAN NOT NULL,
    capacity_including_driver INTEGER NOT NULL,
    registration_municipality_ibge INTEGER NOT NULL,
    created_at TIMESTAMPTZ NOT NULL
);

CREATE TABLE number_counters (
    series TEXT NOT NULL,
    year INTEGER NOT NULL,
    last_value BIGINT NOT NULL,
    PRIMARY KEY (series, year)
);

-- Every reserved number ends issued or voided (DESIGN invariant 2).
CREATE TABLE document_numbers (
    number TEXT PRIMARY KEY,
    series TEXT NOT NULL,
    year INTEGER NOT NULL,
    seq BIGINT NOT NULL,
    state TEXT NOT NULL CHECK (state IN ('reserved', 'issued', 'voided')),
    reserved_at TIMESTAMPTZ NOT NULL,
    closed_at TIMESTAMPTZ,
    void_reason TEXT,
    UNIQUE (series, year, seq)
);

CREATE TABLE app_authorizations (
    id TEXT PRIMARY KEY,
    number TEXT NOT NULL UNIQUE REFERENCES document_numbers (number),
    driver_id TEXT NOT NULL REFERENCES drivers (id),
    vehicle_id TEXT NOT NULL REFERENCES vehicles (id),
    fee_paid_on DATE NOT NULL,
    valid_from DATE NOT NULL,
    valid_until DATE NOT NULL,
    legal_basis_version TEXT NOT NULL,
    granted_at TIMESTAMPTZ NOT NULL,
    granted_by TEXT NOT NULL
);
CREATE INDEX app_authorizations_driver ON app_authorizations (driver_id, valid_until);
CREATE INDEX app_authorizations_vehicle ON app_authorizations (vehicle_id, valid_until);

CREATE TABLE app_authorization_revocations (
    authorization_id TEXT PRIMARY KEY REFERENCES app_authorizations (id),
    revoked_at TIMESTAMPTZ NOT NULL,
    revoked_by TEXT NOT NULL,
    reason TEXT NOT NULL
);

CREATE TABLE documents (
    id TEXT PRIMARY KEY,
    kind TEXT NOT NULL,
    authorization_id TEXT NOT NULL REFERENCES app_authorizations (id),
    number TEXT NOT NULL,
    verification_code TEXT NOT NULL UNIQUE,
    token TEXT NOT NULL,
    key_id TEXT NOT NULL,
    pdf BYTEA NOT NULL,
    sha256 TEXT NOT NULL,
    legal_basis_version TEXT NOT NULL,
    issued_at TIMESTAMPTZ NOT NULL
);
CREATE INDEX documents_authorization ON documents (authorization_id);

CREATE TABLE events (
    id BIGSERIAL PRIMARY KEY,
    entity_type TEXT NOT NULL,
    entity_id TEXT NOT NULL,
    kind TEXT NOT NULL,
    actor TEXT NOT NULL,
    reason TEXT,
    legal_basis_version TEXT,
    occurred_at TIMESTAMPTZ NOT NULL,
    data TEXT NOT NULL DEFAULT '{}'
);
CREATE INDEX events_entity ON events (entity_type, entity_id);

CREATE FUNCTION selo_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION '% is append-only', TG_TABLE_NAME;
END;
$$;
CREATE TRIGGER documents_append_only BEFORE UPDATE OR DELETE ON documents
    FOR EACH ROW EXECUTE FUNCTION selo_append_only();
CREATE TRIGGER events_append_only BEFORE UPDATE OR DELETE ON events
    FOR EACH ROW EXECUTE FUNCTION selo_append_only();
CREATE TRIGGER app_authorizations_append_only BEFORE UPDATE OR DELETE ON app_authorizations
    FOR EACH ROW EXECUTE FUNCTION selo_append_only();
CREATE TRIGGER revocations_append_only BEFORE UPDATE OR DELETE ON app_authorization_revocations
    FOR EACH ROW EXECUTE FUNCTION selo_append_only();
