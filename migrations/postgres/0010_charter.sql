-- Charter register (Lei 4.937/2025). Each row holds the facts as filed, as JSON checked by
-- the domain on every read; every later act (vistoria, ITV report, baixa, sanction, notice,
-- decision…) is an append-only event of the entity. Rows and documents are append-only.
-- register_documents holds every signed document other than the ride-hailing authorization
-- and sticker: Termos, selos, autos and certidões of both laws.

CREATE TABLE charter_companies (
    id TEXT PRIMARY KEY,
    cnpj TEXT NOT NULL,
    data TEXT NOT NULL,
    created_at TIMESTAMPTZ NOT NULL,
    created_by TEXT NOT NULL
);
CREATE UNIQUE INDEX charter_companies_cnpj ON charter_companies (cnpj);

CREATE TABLE charter_vehicles (
    id TEXT PRIMARY KEY,
    company_id TEXT NOT NULL REFERENCES charter_companies (id),
    plate TEXT NOT NULL,
    renavam TEXT NOT NULL UNIQUE,
    data TEXT NOT NULL,
    created_at TIMESTAMPTZ NOT NULL,
    created_by TEXT NOT NULL
);
CREATE UNIQUE INDEX charter_vehicles_plate ON charter_vehicles (plate);
CREATE INDEX charter_vehicles_company ON charter_vehicles (company_id);

CREATE TABLE charter_drivers (
    id TEXT PRIMARY KEY,
    company_id TEXT NOT NULL REFERENCES charter_companies (id),
    cpf TEXT NOT NULL,
    data TEXT NOT NULL,
    created_at TIMESTAMPTZ NOT NULL,
    created_by TEXT NOT NULL,
    UNIQUE (company_id, cpf)
);
CREATE INDEX charter_drivers_company ON charter_drivers (company_id);

CREATE TABLE charter_contracts (
    id TEXT PRIMARY KEY,
    company_id TEXT NOT NULL REFERENCES charter_companies (id),
    reference TEXT NOT NULL,
    data TEXT NOT NULL,
    created_at TIMESTAMPTZ NOT NULL,
    created_by TEXT NOT NULL
);
CREATE UNIQUE INDEX charter_contracts_reference ON charter_contracts (reference);
CREATE INDEX charter_contracts_company ON charter_contracts (company_id);

CREATE TABLE charter_termos (
    id TEXT PRIMARY KEY,
    company_id TEXT NOT NULL REFERENCES charter_companies (id),
    number TEXT NOT NULL,
    data TEXT NOT NULL,
    created_at TIMESTAMPTZ NOT NULL,
    created_by TEXT NOT NULL
);
CREATE UNIQUE INDEX charter_termos_number ON charter_termos (number);
CREATE INDEX charter_termos_company ON charter_termos (company_id);

CREATE TABLE charter_autos (
    id TEXT PRIMARY KEY,
    company_id TEXT NOT NULL REFERENCES charter_companies (id),
    number TEXT NOT NULL,
    data TEXT NOT NULL,
    created_at TIMESTAMPTZ NOT NULL,
    created_by TEXT NOT NULL
);
CREATE UNIQUE INDEX charter_autos_number ON charter_autos (number);
CREATE INDEX charter_autos_company ON charter_autos (company_id);

CREATE TABLE register_documents (
    id TEXT PRIMARY KEY,
    kind TEXT NOT NULL,
    subject_type TEXT NOT NULL,
    subject_id TEXT NOT NULL,
    -- The charter company, for charter documents; NULL for ride-hailing ones.
    company_id TEXT REFERENCES charter_companies (id),
    number TEXT NOT NULL,
    verification_code TEXT NOT NULL UNIQUE,
    token TEXT NOT NULL,
    key_id TEXT NOT NULL,
    pdf BYTEA NOT NULL,
    sha256 TEXT NOT NULL,
    subject_key TEXT NOT NULL,
    valid_until DATE,
    legal_basis_version TEXT NOT NULL,
    issued_at TIMESTAMPTZ NOT NULL
);
CREATE INDEX register_documents_subject ON register_documents (subject_type, subject_id);
CREATE INDEX register_documents_sha256 ON register_documents (sha256);

CREATE TRIGGER charter_companies_append_only BEFORE UPDATE OR DELETE ON charter_companies
    FOR EACH ROW EXECUTE FUNCTION selo_append_only();
CREATE TRIGGER charter_vehicles_append_only BEFORE UPDATE OR DELETE ON charter_vehicles
    FOR EACH ROW EXECUTE FUNCTION selo_append_only();
CREATE TRIGGER charter_drivers_append_only BEFORE UPDATE OR DELETE ON charter_drivers
    FOR EACH ROW EXECUTE FUNCTION selo_append_only();
CREATE TRIGGER charter_contracts_append_only BEFORE UPDATE OR DELETE ON charter_contracts
    FOR EACH ROW EXECUTE FUNCTION selo_append_only();
CREATE TRIGGER charter_termos_append_only BEFORE UPDATE OR DELETE ON charter_termos
    FOR EACH ROW EXECUTE FUNCTION selo_append_only();
CREATE TRIGGER charter_autos_append_only BEFORE UPDATE OR DELETE ON charter_autos
    FOR EACH ROW EXECUTE FUNCTION selo_append_only();
CREATE TRIGGER register_documents_append_only BEFORE UPDATE OR DELETE ON register_documents
    FOR EACH ROW EXECUTE FUNCTION selo_append_only();
