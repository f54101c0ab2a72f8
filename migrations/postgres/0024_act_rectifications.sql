-- An act of the register entered wrongly (a vistoria, an ITV report, a
-- document filing, a data-change report, a sanction, a register act…) is rectified by a new
-- event `act_rectified` on the same entity, with its reason, never by editing the first: its
-- data name the event it corrects (`event`), the act as it should have been (`data`), what
-- was recorded (`previous`) and the day of the rectification (`rectified_on`). The audit
-- chain covers it like any event. The view is the history in force: each act with the data
-- of its latest rectification, the rectifications themselves left out; folding readers read
-- it, the history endpoints read `events` and show both.
CREATE VIEW events_in_force AS
SELECT e.id, e.entity_type, e.entity_id, e.kind, e.actor, e.reason, e.legal_basis_version,
    e.occurred_at,
    COALESCE((SELECT (r.data::jsonb -> 'data')::text FROM events r
              WHERE r.entity_type = e.entity_type AND r.entity_id = e.entity_id
                AND r.kind = 'act_rectified' AND (r.data::jsonb ->> 'event')::bigint = e.id
              ORDER BY r.id DESC LIMIT 1), e.data) AS data
FROM events e
WHERE e.kind <> 'act_rectified';

-- A platform's delivery of requested data (art. 4º, §3º) entered wrongly: rectified by a
-- new record with its reason and day, never by editing the first; the view is the delivery
-- in force (the latest rectification, else the one first recorded). Each rectification also
-- appends a `delivery_rectified` event of the request, in the audit chain.
CREATE TABLE data_request_delivery_rectifications (
    request_id TEXT NOT NULL REFERENCES data_request_deliveries (request_id),
    seq INTEGER NOT NULL CHECK (seq >= 1),
    delivered_at TIMESTAMPTZ NOT NULL,
    sha256 TEXT NOT NULL,
    signer TEXT NOT NULL,
    reason TEXT NOT NULL,
    rectified_on DATE NOT NULL,
    recorded_at TIMESTAMPTZ NOT NULL,
    recorded_by TEXT NOT NULL,
    PRIMARY KEY (request_id, seq)
);
CREATE VIEW data_request_deliveries_in_force AS
SELECT d.request_id,
    COALESCE(r.delivered_at, d.delivered_at) AS delivered_at,
    COALESCE(r.sha256, d.sha256) AS sha256,
    COALESCE(r.signer, d.signer) AS signer
FROM data_request_deliveries d
LEFT JOIN data_request_delivery_rectifications r ON r.request_id = d.request_id
    AND r.seq = (SELECT MAX(x.seq) FROM data_request_delivery_rectifications x
                 WHERE x.request_id = d.request_id);
CREATE TRIGGER data_request_delivery_rectifications_append_only BEFORE UPDATE OR DELETE
ON data_request_delivery_rectifications FOR EACH ROW EXECUTE FUNCTION selo_append_only();

-- A ride-hailing sanction's period (its start and end, art. 26 V and §1º) entered wrongly:
-- rectified by a new record with its reason and day, never by editing; its kind stays (a
-- different sanction is a new decision). The view is every sanction as it stands; the
-- verification path and the authorization read it. Each rectification also appends an
-- `act_rectified` event naming the `sanctioned` event, in the audit chain.
CREATE TABLE app_sanction_rectifications (
    sanction_id BIGINT NOT NULL REFERENCES app_authorization_sanctions (id),
    seq INTEGER NOT NULL CHECK (seq >= 1),
    effective_from DATE NOT NULL,
    until DATE,
    reason TEXT NOT NULL,
    rectified_on DATE NOT NULL,
    recorded_at TIMESTAMPTZ NOT NULL,
    recorded_by TEXT NOT NULL,
    PRIMARY KEY (sanction_id, seq)
);
CREATE VIEW app_authorization_sanctions_in_force AS
SELECT s.id, s.authorization_id, s.kind,
    COALESCE(r.effective_from, s.effective_from) AS effective_from,
    CASE WHEN r.sanction_id IS NULL THEN s.until ELSE r.until END AS until,
    s.reason, s.legal_basis, s.created_at, s.created_by
FROM app_authorization_sanctions s
LEFT JOIN app_sanction_rectifications r ON r.sanction_id = s.id
    AND r.seq = (SELECT MAX(x.seq) FROM app_sanction_rectifications x
                 WHERE x.sanction_id = s.id);
CREATE TRIGGER app_sanction_rectifications_append_only BEFORE UPDATE OR DELETE
ON app_sanction_rectifications FOR EACH ROW EXECUTE FUNCTION selo_append_only();
