-- Ride-hailing grants and renewals a requirement of the legal basis sends to an official's
-- review (a prosecution under way, say): filed with their reasons, decided once — granted
-- (naming the authorization the grant made) or refused, with the decision's grounds. Each
-- step is also an event of the entity `app_grant_review`.
CREATE TABLE app_grant_reviews (
    id TEXT PRIMARY KEY,
    driver_id TEXT NOT NULL REFERENCES drivers (id),
    vehicle_id TEXT NOT NULL REFERENCES vehicles (id),
    renewal_of TEXT REFERENCES app_authorizations (id),
    fee_paid_on TEXT NOT NULL,
    protocolled_on TEXT NOT NULL,
    reasons TEXT NOT NULL,
    legal_basis_version TEXT NOT NULL,
    filed_at TEXT NOT NULL,
    filed_by TEXT NOT NULL,
    outcome TEXT CHECK (outcome IN ('deferido', 'indeferido')),
    grounds TEXT,
    decided_at TEXT,
    decided_by TEXT,
    authorization_id TEXT REFERENCES app_authorizations (id),
    CHECK ((outcome IS NULL) = (decided_at IS NULL)),
    CHECK (outcome = 'deferido' OR authorization_id IS NULL)
);
CREATE INDEX app_grant_reviews_pending ON app_grant_reviews (filed_at) WHERE outcome IS NULL;
CREATE INDEX app_grant_reviews_driver ON app_grant_reviews (driver_id);
CREATE INDEX app_grant_reviews_vehicle ON app_grant_reviews (vehicle_id);
