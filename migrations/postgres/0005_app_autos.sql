-- UPF value per year, from the annual decree (the UPF is fixed by decree each year); insert-only.
CREATE TABLE upf_values (
    year INTEGER PRIMARY KEY,
    centavos BIGINT NOT NULL CHECK (centavos > 0),
    act TEXT NOT NULL,
    created_at TIMESTAMPTZ NOT NULL,
    created_by TEXT NOT NULL
);

-- Autos de infração of the ride-hailing law (arts. 22–27) and their notification (art. 22 §§1º-2º).
CREATE TABLE app_infraction_autos (
    id TEXT PRIMARY KEY,
    number TEXT NOT NULL UNIQUE,
    infraction_id TEXT NOT NULL,
    driver_id TEXT NOT NULL REFERENCES drivers (id),
    authorization_id TEXT REFERENCES app_authorizations (id),
    committed_at TIMESTAMPTZ NOT NULL,
    committed_on DATE NOT NULL,
    place TEXT NOT NULL,
    facts TEXT NOT NULL,
    inspector TEXT NOT NULL,
    drawn_up_at TIMESTAMPTZ NOT NULL,
    fine_upf BIGINT NOT NULL,
    fine_centavos BIGINT,
    consequences TEXT NOT NULL,
    legal_basis_version TEXT NOT NULL,
    created_by TEXT NOT NULL
);
CREATE INDEX app_infraction_autos_driver ON app_infraction_autos (driver_id, infraction_id);

CREATE TABLE app_auto_notifications (
    auto_id TEXT PRIMARY KEY REFERENCES app_infraction_autos (id),
    method TEXT NOT NULL CHECK (method IN ('post', 'electronic', 'edital')),
    notified_on DATE NOT NULL,
    juntada_on DATE NOT NULL,
    recorded_at TIMESTAMPTZ NOT NULL,
    recorded_by TEXT NOT NULL
);

CREATE TRIGGER upf_values_append_only BEFORE UPDATE OR DELETE ON upf_values
    FOR EACH ROW EXECUTE FUNCTION selo_append_only();
CREATE TRIGGER app_autos_append_only BEFORE UPDATE OR DELETE ON app_infraction_autos
    FOR EACH ROW EXECUTE FUNCTION selo_append_only();
CREATE TRIGGER app_auto_notifications_append_only BEFORE UPDATE OR DELETE ON app_auto_notifications
    FOR EACH ROW EXECUTE FUNCTION selo_append_only();
