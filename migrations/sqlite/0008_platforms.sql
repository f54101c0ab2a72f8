-- Technology platforms registered with the SMF (arts. 3º, 5º X, 6º). Append-only.
CREATE TABLE platforms (
    id TEXT PRIMARY KEY NOT NULL,
    cnpj TEXT NOT NULL UNIQUE,
    name TEXT NOT NULL,
    insurance_policy TEXT NOT NULL,
    insurer TEXT NOT NULL,
    insurance_cover_centavos INTEGER NOT NULL,
    insurance_valid_until TEXT NOT NULL,
    fee_paid_on TEXT NOT NULL,
    valid_until TEXT NOT NULL,
    legal_basis_version TEXT NOT NULL,
    created_at TEXT NOT NULL,
    created_by TEXT NOT NULL
);
CREATE TRIGGER platforms_append_only_u BEFORE UPDATE ON platforms
BEGIN SELECT RAISE(ABORT, 'platforms are append-only'); END;
CREATE TRIGGER platforms_append_only_d BEFORE DELETE ON platforms
BEGIN SELECT RAISE(ABORT, 'platforms are append-only'); END;
