-- The driver's record (art. 12, III, IV, §1º): certificates, traffic infractions, CTB 306.
-- Append-only snapshots; the latest one is the record in force.
CREATE TABLE driver_records (
    id BIGSERIAL PRIMARY KEY,
    driver_id TEXT NOT NULL REFERENCES drivers (id),
    record TEXT NOT NULL,
    recorded_at TIMESTAMPTZ NOT NULL,
    recorded_by TEXT NOT NULL
);
CREATE INDEX driver_records_driver ON driver_records (driver_id, id);
CREATE TRIGGER driver_records_append_only BEFORE UPDATE OR DELETE ON driver_records
    FOR EACH ROW EXECUTE FUNCTION selo_append_only();
