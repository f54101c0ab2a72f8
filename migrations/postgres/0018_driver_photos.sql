-- The driver's photo a passenger sees beside a valid sticker (LGPD art. 7º, passenger
-- safety). One photo per driver, re-encoded as JPEG without metadata; replaced, never versioned
-- (the events table records each upload with the photo's SHA-256).
CREATE TABLE driver_photos (
    driver_id TEXT PRIMARY KEY NOT NULL REFERENCES drivers (id),
    jpeg BYTEA NOT NULL,
    sha256 TEXT NOT NULL,
    width INTEGER NOT NULL,
    height INTEGER NOT NULL,
    uploaded_at TIMESTAMPTZ NOT NULL,
    uploaded_by TEXT NOT NULL
);
-- Every node drops its cached verification answers when a photo changes (migration 0016).
CREATE TRIGGER selo_notify_change AFTER INSERT OR UPDATE OR DELETE ON driver_photos
    FOR EACH STATEMENT EXECUTE FUNCTION selo_notify_change();
