-- Platforms' own access: API credentials an official issues to a platform (only their SHA-256
-- is kept; a revoked one stays, with who revoked it and when), and the drivers a platform
-- registered as working through it, each from a moment and until it ends the link.
CREATE TABLE platform_credentials (
    id TEXT PRIMARY KEY NOT NULL,
    platform_id TEXT NOT NULL REFERENCES platforms (id),
    token_hash TEXT NOT NULL UNIQUE,
    label TEXT NOT NULL,
    created_at TEXT NOT NULL,
    created_by TEXT NOT NULL,
    revoked_at TEXT,
    revoked_by TEXT,
    revoke_reason TEXT
);
CREATE INDEX platform_credentials_platform ON platform_credentials (platform_id);

CREATE TABLE platform_drivers (
    id TEXT PRIMARY KEY NOT NULL,
    platform_id TEXT NOT NULL REFERENCES platforms (id),
    driver_id TEXT NOT NULL REFERENCES drivers (id),
    registered_at TEXT NOT NULL,
    ended_at TEXT
);
-- A driver is registered once at a time with each platform.
CREATE UNIQUE INDEX platform_drivers_current ON platform_drivers (platform_id, driver_id)
    WHERE ended_at IS NULL;
