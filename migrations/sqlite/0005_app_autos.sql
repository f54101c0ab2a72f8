-- UPF value per year, from the annual decree (the UPF is fixed by decree each year); insert-only.
CREATE TABLE upf_values (
    year INTEGER PRIMARY KEY NOT NULL,
    centavos INTEGER NOT NULL CHECK (centavos > 0),
    act TEXT NOT NULL,
    created_at TEXT NOT NULL,
    created_by TEXT NOT NULL
);

-- Autos de infração of the ride-hailing law (arts. 22–27) and their notification (art. 22 §§1º-2º).
CREATE TABLE app_infraction_autos (
    id TEXT PRIMARY KEY NOT NULL,
    number TEXT NOT NULL UNIQUE,
    infraction_id TEXT NOT NULL,
    driver_id TEXT NOT NULL REFERENCES drivers (id),
    authorization_id TEXT REFERENCES app_authorizations (id),
    committed_at TEXT NOT NULL,
    committed_on TEXT NOT NULL,
    place TEXT NOT NULL,
    facts TEXT NOT NULL,
    inspector TEXT NOT NULL,
    drawn_up_at TEXT NOT NULL,
    fine_upf INTEGER NOT NULL,
    fine_centavos INTEGER,
    consequences TEXT NOT NULL,
    legal_basis_version TEXT NOT NULL,
    created_by TEXT NOT NULL
);
CREATE INDEX app_infraction_autos_driver ON app_infraction_autos (driver_id, infraction_id);

CREATE TABLE app_auto_notifications (
    auto_id TEXT PRIMARY KEY NOT NULL REFERENCES app_infraction_autos (id),
    method TEXT NOT NULL CHECK (method IN ('post', 'electronic', 'edital')),
    notified_on TEXT NOT NULL,
    juntada_on TEXT NOT NULL,
    recorded_at TEXT NOT NULL,
    recorded_by TEXT NOT NULL
);

CREATE TRIGGER upf_values_append_only_u BEFORE UPDATE ON upf_values
BEGIN SELECT RAISE(ABORT, 'upf values are append-only'); END;
CREATE TRIGGER app_autos_append_only_u BEFORE UPDATE ON app_infraction_autos
BEGIN SELECT RAISE(ABORT, 'autos are append-only'); END;
CREATE TRIGGER app_autos_append_only_d BEFORE DELETE ON app_infraction_autos
BEGIN SELECT RAISE(ABORT, 'autos are append-only'); END;
CREATE TRIGGER app_auto_notifications_append_only_u BEFORE UPDATE ON app_auto_notifications
BEGIN SELECT RAISE(ABORT, 'notifications are append-only'); END;
