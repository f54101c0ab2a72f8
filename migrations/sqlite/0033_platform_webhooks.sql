-- Webhooks: the address where a platform receives signed events about its drivers. One per
-- platform, set with its own credential; NULL url: it asked for none.
CREATE TABLE platform_webhooks (
    platform_id TEXT PRIMARY KEY NOT NULL REFERENCES platforms (id),
    url TEXT,
    updated_at TEXT NOT NULL,
    updated_by TEXT NOT NULL
);

-- What each platform was last told of each of its drivers (JSON: number, status, validity,
-- suspension, plate), and the day the standing may change by the calendar alone (expiry, the
-- end of a suspension), when the relay looks again even if no act was recorded.
ALTER TABLE platform_drivers ADD COLUMN notified_state TEXT;
ALTER TABLE platform_drivers ADD COLUMN recheck_on DATE;

-- Where the relay stopped reading the audit chain, and a counter every pass advances: a pass
-- commits only if no other node committed one since it read them.
CREATE TABLE webhook_relay (
    id INTEGER PRIMARY KEY NOT NULL CHECK (id = 1),
    last_event_id BIGINT NOT NULL,
    pass BIGINT NOT NULL
);
INSERT INTO webhook_relay (id, last_event_id, pass)
    VALUES (1, (SELECT COALESCE(MAX(id), 0) FROM events), 0);

-- Events queued for a platform's webhook, sent by whichever node claims them first (as the
-- e-mail outbox), each attempt recorded. `dedupe_key` keeps an event from being queued twice.
CREATE TABLE webhook_deliveries (
    id TEXT PRIMARY KEY NOT NULL,
    platform_id TEXT NOT NULL REFERENCES platforms (id),
    event_type TEXT NOT NULL,
    dedupe_key TEXT NOT NULL,
    payload TEXT NOT NULL,
    created_at TEXT NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('pending', 'delivered', 'failed')),
    attempts BIGINT NOT NULL DEFAULT 0,
    next_attempt_us BIGINT NOT NULL,
    lease_owner TEXT,
    lease_until_us BIGINT,
    delivered_at TEXT,
    last_error TEXT,
    UNIQUE (platform_id, dedupe_key)
);
CREATE INDEX webhook_deliveries_due ON webhook_deliveries (status, next_attempt_us);
CREATE INDEX webhook_deliveries_platform ON webhook_deliveries (platform_id, created_at);

CREATE TABLE webhook_attempts (
    delivery_id TEXT NOT NULL REFERENCES webhook_deliveries (id),
    attempt BIGINT NOT NULL,
    at TEXT NOT NULL,
    node TEXT NOT NULL,
    url TEXT NOT NULL,
    outcome TEXT NOT NULL CHECK (outcome IN ('delivered', 'retry', 'failed')),
    http_status BIGINT,
    detail TEXT,
    PRIMARY KEY (delivery_id, attempt)
);
