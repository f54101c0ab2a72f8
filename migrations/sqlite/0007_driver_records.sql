-- The driver's record (art. 12, III, IV, §1º): certificates, traffic infractions, CTB 306.
-- Append-only snapshots; the latest one is the record in force.
CREATE TABLE driver_records (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    driver_id TEXT NOT NULL REFERENCES drivers (id),
    record TEXT NOT NULL,
    recorded_at TEXT NOT NULL,
    recorded_by TEXT NOT NULL
);
CREATE INDEX driver_records_driver ON driver_records (driver_id, id);
CREATE TRIGGER driver_records_append_only_u BEFORE UPDATE ON driver_records
BEGIN SELECT RAISE(ABORT, 'driver records are append-only'); END;
CREATE TRIGGER driver_records_append_only_d BEFORE DELETE ON driver_records
BEGIN SELECT RAISE(ABORT, 'driver records are append-only'); END;
