-- Data requests to platforms (art. 4º §§2º-3º): 24 hours from notice, minute by minute (DL-7).
CREATE TABLE data_requests (
    id TEXT PRIMARY KEY NOT NULL,
    platform_id TEXT NOT NULL REFERENCES platforms (id),
    justification TEXT NOT NULL,
    scope TEXT NOT NULL,
    notified_at TEXT NOT NULL,
    due_at TEXT NOT NULL,
    created_at TEXT NOT NULL,
    created_by TEXT NOT NULL
);
CREATE TABLE data_request_deliveries (
    request_id TEXT PRIMARY KEY NOT NULL REFERENCES data_requests (id),
    delivered_at TEXT NOT NULL,
    sha256 TEXT NOT NULL,
    signer TEXT NOT NULL,
    recorded_at TEXT NOT NULL,
    recorded_by TEXT NOT NULL
);
CREATE TRIGGER data_requests_append_only_u BEFORE UPDATE ON data_requests
BEGIN SELECT RAISE(ABORT, 'data requests are append-only'); END;
CREATE TRIGGER data_request_deliveries_append_only_u BEFORE UPDATE ON data_request_deliveries
BEGIN SELECT RAISE(ABORT, 'deliveries are append-only'); END;
