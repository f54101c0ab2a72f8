-- APP-ART15: in whose name the CRLV is and how the driver holds the car; NULL for a car
-- registered before selo asked (a grant then fails APP-ART15 until it is declared).
ALTER TABLE vehicles ADD COLUMN owner_type TEXT
    CHECK (owner_type IN ('proprietario', 'fiduciante', 'arrendatario', 'locadora_pj', 'autorizacao_expressa'));
ALTER TABLE vehicles ADD COLUMN owner_document TEXT;

-- APP-ART8-P2: the car an authorization binds can be replaced. Each replacement is a row,
-- numbered per authorization (the latest names the car bound now); append-only.
CREATE TABLE app_vehicle_substitutions (
    authorization_id TEXT NOT NULL REFERENCES app_authorizations (id),
    seq INTEGER NOT NULL CHECK (seq >= 1),
    old_vehicle_id TEXT NOT NULL REFERENCES vehicles (id),
    new_vehicle_id TEXT NOT NULL REFERENCES vehicles (id),
    cause TEXT NOT NULL CHECK (cause IN ('sinistro', 'venda', 'locacao')),
    vistoria_on DATE NOT NULL,
    effective_at TIMESTAMPTZ NOT NULL,
    created_by TEXT NOT NULL,
    PRIMARY KEY (authorization_id, seq)
);
CREATE INDEX app_vehicle_substitutions_new ON app_vehicle_substitutions (new_vehicle_id);
CREATE TRIGGER app_vehicle_substitutions_append_only BEFORE UPDATE OR DELETE ON app_vehicle_substitutions
    FOR EACH ROW EXECUTE FUNCTION selo_append_only();

-- The documents issued on a replacement carry its number; NULL: issued with the grant.
ALTER TABLE documents ADD COLUMN substitution_seq INTEGER;
