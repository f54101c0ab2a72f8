-- A ride-hailing authorization renewed for the next year is a new authorization that names
-- the one it renews (APP-ART3-PU, reading AMB-66). An authorization is renewed at most once.
ALTER TABLE app_authorizations ADD COLUMN renewal_of TEXT REFERENCES app_authorizations (id);
CREATE UNIQUE INDEX app_authorizations_renewal_of ON app_authorizations (renewal_of)
    WHERE renewal_of IS NOT NULL;
