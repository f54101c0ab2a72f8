-- Technology platforms registered with the SMF (arts. 3º, 5º X, 6º). Append-only.
CREATE TABLE platforms (
    id TEXT PRIMARY KEY,
    cnpj CHAR(14) NOT NULL UNIQUE,
    name TEXT NOT NULL,
    insurance_policy TEXT NOT NULL,
    insurer TEXT NOT NULL,
    insurance_cover_centavos BIGINT NOT NULL,
    insurance_valid_until DATE NOT NULL,
    fee_paid_on DATE NOT NULL,
    valid_until DATE NOT NULL,
    legal_basis_version TEXT NOT NULL,
    created_at TIMESTAMPTZ NOT NULL,
    created_by TEXT NOT NULL
);
CREATE TRIGGER platforms_append_only BEFORE UPDATE OR DELETE ON platforms
    FOR EACH ROW EXECUTE FUNCTION selo_append_only();
