-- Data requests to platforms (art. 4º §§2º-3º): 24 hours from notice, minute by minute (DL-7).
CREATE TABLE data_requests (
    id TEXT PRIMARY KEY,
    platform_id TEXT NOT NULL REFERENCES platforms (id),
    justification TEXT NOT NULL,
    scope TEXT NOT NULL,
    notified_at TIMESTAMPTZ NOT NULL,
    due_at TIMESTAMPTZ NOT NULL,
    created_at TIMESTAMPTZ NOT NULL,
    created_by TEXT NOT NULL
);
CREATE TABLE data_request_deliveries (
    request_id TEXT PRIMARY KEY REFERENCES data_requests (id),
    delivered_at TIMESTAMPTZ NOT NULL,
    sha256 TEXT NOT NULL,
    signer TEXT NOT NULL,
    recorded_at TIMESTAMPTZ NOT NULL,
    recorded_by TEXT NOT NULL
);
CREATE TRIGGER data_requests_append_only BEFORE UPDATE OR DELETE ON data_requests
    FOR EACH ROW EXECUTE FUNCTION selo_append_only();
CREATE TRIGGER data_request_deliveries_append_only BEFORE UPDATE OR DELETE ON data_request_deliveries
    FOR EACH ROW EXECUTE FUNCTION selo_append_only();
