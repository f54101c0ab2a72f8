-- The sanctions in force, as before (each with its latest rectification, if any), written as
-- one table with its rectification read per row: a document's status read joins it by its
-- authorization through the sanctions' index, where the earlier view, a join itself, was
-- computed whole for every verification (its cost grew with every sanction ever applied).
DROP VIEW app_authorization_sanctions_in_force;
CREATE VIEW app_authorization_sanctions_in_force AS
SELECT s.id, s.authorization_id, s.kind,
    COALESCE((SELECT r.effective_from FROM app_sanction_rectifications r
              WHERE r.sanction_id = s.id ORDER BY r.seq DESC LIMIT 1), s.effective_from)
        AS effective_from,
    CASE WHEN EXISTS (SELECT 1 FROM app_sanction_rectifications r WHERE r.sanction_id = s.id)
        THEN (SELECT r.until FROM app_sanction_rectifications r
              WHERE r.sanction_id = s.id ORDER BY r.seq DESC LIMIT 1)
        ELSE s.until END AS until,
    s.reason, s.legal_basis, s.created_at, s.created_by
FROM app_authorization_sanctions s;
