-- Files a platform sends with its own credential: its monthly report to the Secretaria
-- Municipal de Finanças (one per month) and the file that answers a data request (its
-- delivery is recorded beside it, in data_request_deliveries). Kept whole with their SHA-256,
-- read only by officials.
CREATE TABLE platform_files (
    id TEXT PRIMARY KEY NOT NULL,
    platform_id TEXT NOT NULL REFERENCES platforms (id),
    purpose TEXT NOT NULL CHECK (purpose IN ('monthly_report', 'data_request')),
    -- AAAA-MM, for a monthly report; the request answered, for a data request.
    period TEXT,
    request_id TEXT REFERENCES data_requests (id),
    media_type TEXT NOT NULL CHECK (media_type IN ('application/pdf', 'text/csv', 'application/json')),
    size_bytes BIGINT NOT NULL,
    sha256 TEXT NOT NULL,
    content BYTEA NOT NULL,
    received_at TIMESTAMPTZ NOT NULL,
    credential_id TEXT NOT NULL,
    CHECK ((purpose = 'monthly_report') = (period IS NOT NULL)),
    CHECK ((purpose = 'data_request') = (request_id IS NOT NULL)),
    UNIQUE (platform_id, period),
    UNIQUE (request_id)
);
CREATE TRIGGER platform_files_append_only BEFORE UPDATE OR DELETE ON platform_files
    FOR EACH ROW EXECUTE FUNCTION selo_append_only();
