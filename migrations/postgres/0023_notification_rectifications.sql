-- A ride-hailing auto's notification entered wrongly is rectified by a new
-- record with its reason and date, never by editing the first (append-only, like it). The
-- view is the notification in force: the latest rectification, else the one first recorded.
CREATE TABLE app_auto_notification_rectifications (
    auto_id TEXT NOT NULL REFERENCES app_infraction_autos (id),
    seq INTEGER NOT NULL CHECK (seq >= 1),
    method TEXT NOT NULL CHECK (method IN ('post', 'electronic', 'edital')),
    notified_on DATE NOT NULL,
    juntada_on DATE NOT NULL,
    reason TEXT NOT NULL,
    rectified_on DATE NOT NULL,
    recorded_at TIMESTAMPTZ NOT NULL,
    recorded_by TEXT NOT NULL,
    PRIMARY KEY (auto_id, seq)
);
CREATE VIEW app_auto_notices_in_force AS
SELECT n.auto_id,
    COALESCE(r.method, n.method) AS method,
    COALESCE(r.notified_on, n.notified_on) AS notified_on,
    COALESCE(r.juntada_on, n.juntada_on) AS juntada_on
FROM app_auto_notifications n
LEFT JOIN app_auto_notification_rectifications r ON r.auto_id = n.auto_id
    AND r.seq = (SELECT MAX(x.seq) FROM app_auto_notification_rectifications x
                 WHERE x.auto_id = n.auto_id);
CREATE TRIGGER app_auto_notification_rectifications_append_only BEFORE UPDATE OR DELETE
ON app_auto_notification_rectifications FOR EACH ROW EXECUTE FUNCTION selo_append_only();
