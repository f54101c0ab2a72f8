-- The register's change log: every committed act appends, in the same transaction, the
-- scopes whose documents it may change (`d:` a ride-hailing driver, with all their
-- authorizations, certidões and autos; `c:` a charter company; `*` everything: the calendar,
-- the UPF, the legal bases). The status list re-judges only the documents of the scopes
-- logged since it was built, and the verification cache drops only the answers of those
-- scopes. Written by the triggers below, so no write path can forget it; a table that is
-- not listed is one no verification reads. Only the newest rows are kept: a reader further
-- behind than them judges the whole register again.

CREATE TABLE register_changes (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    scope TEXT NOT NULL
);
-- A charter company's documents, read when its scope changed.
CREATE INDEX documents_company ON documents (company_id);

CREATE TRIGGER drivers_changes_insert AFTER INSERT ON drivers
BEGIN
    INSERT INTO register_changes (scope) SELECT 'd:' || NEW.id WHERE NEW.id IS NOT NULL;
END;

CREATE TRIGGER drivers_changes_update AFTER UPDATE ON drivers
BEGIN
    INSERT INTO register_changes (scope) SELECT 'd:' || OLD.id WHERE OLD.id IS NOT NULL;
    INSERT INTO register_changes (scope) SELECT 'd:' || NEW.id WHERE NEW.id IS NOT NULL;
END;

CREATE TRIGGER drivers_changes_delete AFTER DELETE ON drivers
BEGIN
    INSERT INTO register_changes (scope) SELECT 'd:' || OLD.id WHERE OLD.id IS NOT NULL;
END;

CREATE TRIGGER vehicles_changes_insert AFTER INSERT ON vehicles
BEGIN
    INSERT INTO register_changes (scope) SELECT 'd:' || driver_id FROM app_authorizations WHERE vehicle_id = NEW.id UNION SELECT 'd:' || a.driver_id FROM app_vehicle_substitutions s JOIN app_authorizations a ON a.id = s.authorization_id WHERE s.old_vehicle_id = NEW.id OR s.new_vehicle_id = NEW.id;
END;

CREATE TRIGGER vehicles_changes_update AFTER UPDATE ON vehicles
BEGIN
    INSERT INTO register_changes (scope) SELECT 'd:' || driver_id FROM app_authorizations WHERE vehicle_id = OLD.id UNION SELECT 'd:' || a.driver_id FROM app_vehicle_substitutions s JOIN app_authorizations a ON a.id = s.authorization_id WHERE s.old_vehicle_id = OLD.id OR s.new_vehicle_id = OLD.id;
    INSERT INTO register_changes (scope) SELECT 'd:' || driver_id FROM app_authorizations WHERE vehicle_id = NEW.id UNION SELECT 'd:' || a.driver_id FROM app_vehicle_substitutions s JOIN app_authorizations a ON a.id = s.authorization_id WHERE s.old_vehicle_id = NEW.id OR s.new_vehicle_id = NEW.id;
END;

CREATE TRIGGER vehicles_changes_delete AFTER DELETE ON vehicles
BEGIN
    INSERT INTO register_changes (scope) SELECT 'd:' || driver_id FROM app_authorizations WHERE vehicle_id = OLD.id UNION SELECT 'd:' || a.driver_id FROM app_vehicle_substitutions s JOIN app_authorizations a ON a.id = s.authorization_id WHERE s.old_vehicle_id = OLD.id OR s.new_vehicle_id = OLD.id;
END;

CREATE TRIGGER app_authorizations_changes_insert AFTER INSERT ON app_authorizations
BEGIN
    INSERT INTO register_changes (scope) SELECT 'd:' || NEW.driver_id WHERE NEW.driver_id IS NOT NULL;
    INSERT INTO register_changes (scope) SELECT 'd:' || driver_id FROM app_authorizations WHERE vehicle_id = NEW.vehicle_id UNION SELECT 'd:' || a.driver_id FROM app_vehicle_substitutions s JOIN app_authorizations a ON a.id = s.authorization_id WHERE s.old_vehicle_id = NEW.vehicle_id OR s.new_vehicle_id = NEW.vehicle_id;
END;

CREATE TRIGGER app_authorizations_changes_update AFTER UPDATE ON app_authorizations
BEGIN
    INSERT INTO register_changes (scope) SELECT 'd:' || OLD.driver_id WHERE OLD.driver_id IS NOT NULL;
    INSERT INTO register_changes (scope) SELECT 'd:' || driver_id FROM app_authorizations WHERE vehicle_id = OLD.vehicle_id UNION SELECT 'd:' || a.driver_id FROM app_vehicle_substitutions s JOIN app_authorizations a ON a.id = s.authorization_id WHERE s.old_vehicle_id = OLD.vehicle_id OR s.new_vehicle_id = OLD.vehicle_id;
    INSERT INTO register_changes (scope) SELECT 'd:' || NEW.driver_id WHERE NEW.driver_id IS NOT NULL;
    INSERT INTO register_changes (scope) SELECT 'd:' || driver_id FROM app_authorizations WHERE vehicle_id = NEW.vehicle_id UNION SELECT 'd:' || a.driver_id FROM app_vehicle_substitutions s JOIN app_authorizations a ON a.id = s.authorization_id WHERE s.old_vehicle_id = NEW.vehicle_id OR s.new_vehicle_id = NEW.vehicle_id;
END;

CREATE TRIGGER app_authorizations_changes_delete AFTER DELETE ON app_authorizations
BEGIN
    INSERT INTO register_changes (scope) SELECT 'd:' || OLD.driver_id WHERE OLD.driver_id IS NOT NULL;
    INSERT INTO register_changes (scope) SELECT 'd:' || driver_id FROM app_authorizations WHERE vehicle_id = OLD.vehicle_id UNION SELECT 'd:' || a.driver_id FROM app_vehicle_substitutions s JOIN app_authorizations a ON a.id = s.authorization_id WHERE s.old_vehicle_id = OLD.vehicle_id OR s.new_vehicle_id = OLD.vehicle_id;
END;

CREATE TRIGGER app_authorization_revocations_changes_insert AFTER INSERT ON app_authorization_revocations
BEGIN
    INSERT INTO register_changes (scope) SELECT 'd:' || driver_id FROM app_authorizations WHERE id = NEW.authorization_id;
END;

CREATE TRIGGER app_authorization_revocations_changes_update AFTER UPDATE ON app_authorization_revocations
BEGIN
    INSERT INTO register_changes (scope) SELECT 'd:' || driver_id FROM app_authorizations WHERE id = OLD.authorization_id;
    INSERT INTO register_changes (scope) SELECT 'd:' || driver_id FROM app_authorizations WHERE id = NEW.authorization_id;
END;

CREATE TRIGGER app_authorization_revocations_changes_delete AFTER DELETE ON app_authorization_revocations
BEGIN
    INSERT INTO register_changes (scope) SELECT 'd:' || driver_id FROM app_authorizations WHERE id = OLD.authorization_id;
END;

CREATE TRIGGER app_authorization_sanctions_changes_insert AFTER INSERT ON app_authorization_sanctions
BEGIN
    INSERT INTO register_changes (scope) SELECT 'd:' || driver_id FROM app_authorizations WHERE id = NEW.authorization_id;
END;

CREATE TRIGGER app_authorization_sanctions_changes_update AFTER UPDATE ON app_authorization_sanctions
BEGIN
    INSERT INTO register_changes (scope) SELECT 'd:' || driver_id FROM app_authorizations WHERE id = OLD.authorization_id;
    INSERT INTO register_changes (scope) SELECT 'd:' || driver_id FROM app_authorizations WHERE id = NEW.authorization_id;
END;

CREATE TRIGGER app_authorization_sanctions_changes_delete AFTER DELETE ON app_authorization_sanctions
BEGIN
    INSERT INTO register_changes (scope) SELECT 'd:' || driver_id FROM app_authorizations WHERE id = OLD.authorization_id;
END;

CREATE TRIGGER app_vehicle_substitutions_changes_insert AFTER INSERT ON app_vehicle_substitutions
BEGIN
    INSERT INTO register_changes (scope) SELECT 'd:' || driver_id FROM app_authorizations WHERE id = NEW.authorization_id;
    INSERT INTO register_changes (scope) SELECT 'd:' || driver_id FROM app_authorizations WHERE vehicle_id = NEW.old_vehicle_id UNION SELECT 'd:' || a.driver_id FROM app_vehicle_substitutions s JOIN app_authorizations a ON a.id = s.authorization_id WHERE s.old_vehicle_id = NEW.old_vehicle_id OR s.new_vehicle_id = NEW.old_vehicle_id;
    INSERT INTO register_changes (scope) SELECT 'd:' || driver_id FROM app_authorizations WHERE vehicle_id = NEW.new_vehicle_id UNION SELECT 'd:' || a.driver_id FROM app_vehicle_substitutions s JOIN app_authorizations a ON a.id = s.authorization_id WHERE s.old_vehicle_id = NEW.new_vehicle_id OR s.new_vehicle_id = NEW.new_vehicle_id;
END;

CREATE TRIGGER app_vehicle_substitutions_changes_update AFTER UPDATE ON app_vehicle_substitutions
BEGIN
    INSERT INTO register_changes (scope) SELECT 'd:' || driver_id FROM app_authorizations WHERE id = OLD.authorization_id;
    INSERT INTO register_changes (scope) SELECT 'd:' || driver_id FROM app_authorizations WHERE vehicle_id = OLD.old_vehicle_id UNION SELECT 'd:' || a.driver_id FROM app_vehicle_substitutions s JOIN app_authorizations a ON a.id = s.authorization_id WHERE s.old_vehicle_id = OLD.old_vehicle_id OR s.new_vehicle_id = OLD.old_vehicle_id;
    INSERT INTO register_changes (scope) SELECT 'd:' || driver_id FROM app_authorizations WHERE vehicle_id = OLD.new_vehicle_id UNION SELECT 'd:' || a.driver_id FROM app_vehicle_substitutions s JOIN app_authorizations a ON a.id = s.authorization_id WHERE s.old_vehicle_id = OLD.new_vehicle_id OR s.new_vehicle_id = OLD.new_vehicle_id;
    INSERT INTO register_changes (scope) SELECT 'd:' || driver_id FROM app_authorizations WHERE id = NEW.authorization_id;
    INSERT INTO register_changes (scope) SELECT 'd:' || driver_id FROM app_authorizations WHERE vehicle_id = NEW.old_vehicle_id UNION SELECT 'd:' || a.driver_id FROM app_vehicle_substitutions s JOIN app_authorizations a ON a.id = s.authorization_id WHERE s.old_vehicle_id = NEW.old_vehicle_id OR s.new_vehicle_id = NEW.old_vehicle_id;
    INSERT INTO register_changes (scope) SELECT 'd:' || driver_id FROM app_authorizations WHERE vehicle_id = NEW.new_vehicle_id UNION SELECT 'd:' || a.driver_id FROM app_vehicle_substitutions s JOIN app_authorizations a ON a.id = s.authorization_id WHERE s.old_vehicle_id = NEW.new_vehicle_id OR s.new_vehicle_id = NEW.new_vehicle_id;
END;

CREATE TRIGGER app_vehicle_substitutions_changes_delete AFTER DELETE ON app_vehicle_substitutions
BEGIN
    INSERT INTO register_changes (scope) SELECT 'd:' || driver_id FROM app_authorizations WHERE id = OLD.authorization_id;
    INSERT INTO register_changes (scope) SELECT 'd:' || driver_id FROM app_authorizations WHERE vehicle_id = OLD.old_vehicle_id UNION SELECT 'd:' || a.driver_id FROM app_vehicle_substitutions s JOIN app_authorizations a ON a.id = s.authorization_id WHERE s.old_vehicle_id = OLD.old_vehicle_id OR s.new_vehicle_id = OLD.old_vehicle_id;
    INSERT INTO register_changes (scope) SELECT 'd:' || driver_id FROM app_authorizations WHERE vehicle_id = OLD.new_vehicle_id UNION SELECT 'd:' || a.driver_id FROM app_vehicle_substitutions s JOIN app_authorizations a ON a.id = s.authorization_id WHERE s.old_vehicle_id = OLD.new_vehicle_id OR s.new_vehicle_id = OLD.new_vehicle_id;
END;

CREATE TRIGGER app_sanction_rectifications_changes_insert AFTER INSERT ON app_sanction_rectifications
BEGIN
    INSERT INTO register_changes (scope) SELECT 'd:' || a.driver_id FROM app_authorization_sanctions s JOIN app_authorizations a ON a.id = s.authorization_id WHERE s.id = NEW.sanction_id;
END;

CREATE TRIGGER app_sanction_rectifications_changes_update AFTER UPDATE ON app_sanction_rectifications
BEGIN
    INSERT INTO register_changes (scope) SELECT 'd:' || a.driver_id FROM app_authorization_sanctions s JOIN app_authorizations a ON a.id = s.authorization_id WHERE s.id = OLD.sanction_id;
    INSERT INTO register_changes (scope) SELECT 'd:' || a.driver_id FROM app_authorization_sanctions s JOIN app_authorizations a ON a.id = s.authorization_id WHERE s.id = NEW.sanction_id;
END;

CREATE TRIGGER app_sanction_rectifications_changes_delete AFTER DELETE ON app_sanction_rectifications
BEGIN
    INSERT INTO register_changes (scope) SELECT 'd:' || a.driver_id FROM app_authorization_sanctions s JOIN app_authorizations a ON a.id = s.authorization_id WHERE s.id = OLD.sanction_id;
END;

CREATE TRIGGER app_infraction_autos_changes_insert AFTER INSERT ON app_infraction_autos
BEGIN
    INSERT INTO register_changes (scope) SELECT 'd:' || NEW.driver_id WHERE NEW.driver_id IS NOT NULL;
END;

CREATE TRIGGER app_infraction_autos_changes_update AFTER UPDATE ON app_infraction_autos
BEGIN
    INSERT INTO register_changes (scope) SELECT 'd:' || OLD.driver_id WHERE OLD.driver_id IS NOT NULL;
    INSERT INTO register_changes (scope) SELECT 'd:' || NEW.driver_id WHERE NEW.driver_id IS NOT NULL;
END;

CREATE TRIGGER app_infraction_autos_changes_delete AFTER DELETE ON app_infraction_autos
BEGIN
    INSERT INTO register_changes (scope) SELECT 'd:' || OLD.driver_id WHERE OLD.driver_id IS NOT NULL;
END;

CREATE TRIGGER app_auto_notifications_changes_insert AFTER INSERT ON app_auto_notifications
BEGIN
    INSERT INTO register_changes (scope) SELECT 'd:' || driver_id FROM app_infraction_autos WHERE id = NEW.auto_id;
END;

CREATE TRIGGER app_auto_notifications_changes_update AFTER UPDATE ON app_auto_notifications
BEGIN
    INSERT INTO register_changes (scope) SELECT 'd:' || driver_id FROM app_infraction_autos WHERE id = OLD.auto_id;
    INSERT INTO register_changes (scope) SELECT 'd:' || driver_id FROM app_infraction_autos WHERE id = NEW.auto_id;
END;

CREATE TRIGGER app_auto_notifications_changes_delete AFTER DELETE ON app_auto_notifications
BEGIN
    INSERT INTO register_changes (scope) SELECT 'd:' || driver_id FROM app_infraction_autos WHERE id = OLD.auto_id;
END;

CREATE TRIGGER app_auto_notification_rectifications_changes_insert AFTER INSERT ON app_auto_notification_rectifications
BEGIN
    INSERT INTO register_changes (scope) SELECT 'd:' || driver_id FROM app_infraction_autos WHERE id = NEW.auto_id;
END;

CREATE TRIGGER app_auto_notification_rectifications_changes_update AFTER UPDATE ON app_auto_notification_rectifications
BEGIN
    INSERT INTO register_changes (scope) SELECT 'd:' || driver_id FROM app_infraction_autos WHERE id = OLD.auto_id;
    INSERT INTO register_changes (scope) SELECT 'd:' || driver_id FROM app_infraction_autos WHERE id = NEW.auto_id;
END;

CREATE TRIGGER app_auto_notification_rectifications_changes_delete AFTER DELETE ON app_auto_notification_rectifications
BEGIN
    INSERT INTO register_changes (scope) SELECT 'd:' || driver_id FROM app_infraction_autos WHERE id = OLD.auto_id;
END;

CREATE TRIGGER electronic_notices_changes_insert AFTER INSERT ON electronic_notices
BEGIN
    INSERT INTO register_changes (scope) SELECT 'd:' || driver_id FROM app_infraction_autos WHERE id = NEW.auto_id;
END;

CREATE TRIGGER electronic_notices_changes_update AFTER UPDATE ON electronic_notices
BEGIN
    INSERT INTO register_changes (scope) SELECT 'd:' || driver_id FROM app_infraction_autos WHERE id = OLD.auto_id;
    INSERT INTO register_changes (scope) SELECT 'd:' || driver_id FROM app_infraction_autos WHERE id = NEW.auto_id;
END;

CREATE TRIGGER electronic_notices_changes_delete AFTER DELETE ON electronic_notices
BEGIN
    INSERT INTO register_changes (scope) SELECT 'd:' || driver_id FROM app_infraction_autos WHERE id = OLD.auto_id;
END;

CREATE TRIGGER driver_records_changes_insert AFTER INSERT ON driver_records
BEGIN
    INSERT INTO register_changes (scope) SELECT 'd:' || NEW.driver_id WHERE NEW.driver_id IS NOT NULL;
END;

CREATE TRIGGER driver_records_changes_update AFTER UPDATE ON driver_records
BEGIN
    INSERT INTO register_changes (scope) SELECT 'd:' || OLD.driver_id WHERE OLD.driver_id IS NOT NULL;
    INSERT INTO register_changes (scope) SELECT 'd:' || NEW.driver_id WHERE NEW.driver_id IS NOT NULL;
END;

CREATE TRIGGER driver_records_changes_delete AFTER DELETE ON driver_records
BEGIN
    INSERT INTO register_changes (scope) SELECT 'd:' || OLD.driver_id WHERE OLD.driver_id IS NOT NULL;
END;

CREATE TRIGGER driver_photos_changes_insert AFTER INSERT ON driver_photos
BEGIN
    INSERT INTO register_changes (scope) SELECT 'd:' || NEW.driver_id WHERE NEW.driver_id IS NOT NULL;
END;

CREATE TRIGGER driver_photos_changes_update AFTER UPDATE ON driver_photos
BEGIN
    INSERT INTO register_changes (scope) SELECT 'd:' || OLD.driver_id WHERE OLD.driver_id IS NOT NULL;
    INSERT INTO register_changes (scope) SELECT 'd:' || NEW.driver_id WHERE NEW.driver_id IS NOT NULL;
END;

CREATE TRIGGER driver_photos_changes_delete AFTER DELETE ON driver_photos
BEGIN
    INSERT INTO register_changes (scope) SELECT 'd:' || OLD.driver_id WHERE OLD.driver_id IS NOT NULL;
END;

CREATE TRIGGER app_grant_reviews_changes_insert AFTER INSERT ON app_grant_reviews
BEGIN
    INSERT INTO register_changes (scope) SELECT 'd:' || NEW.driver_id WHERE NEW.driver_id IS NOT NULL;
END;

CREATE TRIGGER app_grant_reviews_changes_update AFTER UPDATE ON app_grant_reviews
BEGIN
    INSERT INTO register_changes (scope) SELECT 'd:' || OLD.driver_id WHERE OLD.driver_id IS NOT NULL;
    INSERT INTO register_changes (scope) SELECT 'd:' || NEW.driver_id WHERE NEW.driver_id IS NOT NULL;
END;

CREATE TRIGGER app_grant_reviews_changes_delete AFTER DELETE ON app_grant_reviews
BEGIN
    INSERT INTO register_changes (scope) SELECT 'd:' || OLD.driver_id WHERE OLD.driver_id IS NOT NULL;
END;

CREATE TRIGGER charter_companies_changes_insert AFTER INSERT ON charter_companies
BEGIN
    INSERT INTO register_changes (scope) SELECT 'c:' || NEW.id WHERE NEW.id IS NOT NULL;
END;

CREATE TRIGGER charter_companies_changes_update AFTER UPDATE ON charter_companies
BEGIN
    INSERT INTO register_changes (scope) SELECT 'c:' || OLD.id WHERE OLD.id IS NOT NULL;
    INSERT INTO register_changes (scope) SELECT 'c:' || NEW.id WHERE NEW.id IS NOT NULL;
END;

CREATE TRIGGER charter_companies_changes_delete AFTER DELETE ON charter_companies
BEGIN
    INSERT INTO register_changes (scope) SELECT 'c:' || OLD.id WHERE OLD.id IS NOT NULL;
END;

CREATE TRIGGER charter_vehicles_changes_insert AFTER INSERT ON charter_vehicles
BEGIN
    INSERT INTO register_changes (scope) SELECT 'c:' || NEW.company_id WHERE NEW.company_id IS NOT NULL;
END;

CREATE TRIGGER charter_vehicles_changes_update AFTER UPDATE ON charter_vehicles
BEGIN
    INSERT INTO register_changes (scope) SELECT 'c:' || OLD.company_id WHERE OLD.company_id IS NOT NULL;
    INSERT INTO register_changes (scope) SELECT 'c:' || NEW.company_id WHERE NEW.company_id IS NOT NULL;
END;

CREATE TRIGGER charter_vehicles_changes_delete AFTER DELETE ON charter_vehicles
BEGIN
    INSERT INTO register_changes (scope) SELECT 'c:' || OLD.company_id WHERE OLD.company_id IS NOT NULL;
END;

CREATE TRIGGER charter_drivers_changes_insert AFTER INSERT ON charter_drivers
BEGIN
    INSERT INTO register_changes (scope) SELECT 'c:' || NEW.company_id WHERE NEW.company_id IS NOT NULL;
END;

CREATE TRIGGER charter_drivers_changes_update AFTER UPDATE ON charter_drivers
BEGIN
    INSERT INTO register_changes (scope) SELECT 'c:' || OLD.company_id WHERE OLD.company_id IS NOT NULL;
    INSERT INTO register_changes (scope) SELECT 'c:' || NEW.company_id WHERE NEW.company_id IS NOT NULL;
END;

CREATE TRIGGER charter_drivers_changes_delete AFTER DELETE ON charter_drivers
BEGIN
    INSERT INTO register_changes (scope) SELECT 'c:' || OLD.company_id WHERE OLD.company_id IS NOT NULL;
END;

CREATE TRIGGER charter_contracts_changes_insert AFTER INSERT ON charter_contracts
BEGIN
    INSERT INTO register_changes (scope) SELECT 'c:' || NEW.company_id WHERE NEW.company_id IS NOT NULL;
END;

CREATE TRIGGER charter_contracts_changes_update AFTER UPDATE ON charter_contracts
BEGIN
    INSERT INTO register_changes (scope) SELECT 'c:' || OLD.company_id WHERE OLD.company_id IS NOT NULL;
    INSERT INTO register_changes (scope) SELECT 'c:' || NEW.company_id WHERE NEW.company_id IS NOT NULL;
END;

CREATE TRIGGER charter_contracts_changes_delete AFTER DELETE ON charter_contracts
BEGIN
    INSERT INTO register_changes (scope) SELECT 'c:' || OLD.company_id WHERE OLD.company_id IS NOT NULL;
END;

CREATE TRIGGER charter_termos_changes_insert AFTER INSERT ON charter_termos
BEGIN
    INSERT INTO register_changes (scope) SELECT 'c:' || NEW.company_id WHERE NEW.company_id IS NOT NULL;
END;

CREATE TRIGGER charter_termos_changes_update AFTER UPDATE ON charter_termos
BEGIN
    INSERT INTO register_changes (scope) SELECT 'c:' || OLD.company_id WHERE OLD.company_id IS NOT NULL;
    INSERT INTO register_changes (scope) SELECT 'c:' || NEW.company_id WHERE NEW.company_id IS NOT NULL;
END;

CREATE TRIGGER charter_termos_changes_delete AFTER DELETE ON charter_termos
BEGIN
    INSERT INTO register_changes (scope) SELECT 'c:' || OLD.company_id WHERE OLD.company_id IS NOT NULL;
END;

CREATE TRIGGER charter_autos_changes_insert AFTER INSERT ON charter_autos
BEGIN
    INSERT INTO register_changes (scope) SELECT 'c:' || NEW.company_id WHERE NEW.company_id IS NOT NULL;
END;

CREATE TRIGGER charter_autos_changes_update AFTER UPDATE ON charter_autos
BEGIN
    INSERT INTO register_changes (scope) SELECT 'c:' || OLD.company_id WHERE OLD.company_id IS NOT NULL;
    INSERT INTO register_changes (scope) SELECT 'c:' || NEW.company_id WHERE NEW.company_id IS NOT NULL;
END;

CREATE TRIGGER charter_autos_changes_delete AFTER DELETE ON charter_autos
BEGIN
    INSERT INTO register_changes (scope) SELECT 'c:' || OLD.company_id WHERE OLD.company_id IS NOT NULL;
END;

CREATE TRIGGER documents_changes_insert AFTER INSERT ON documents
BEGIN
    INSERT INTO register_changes (scope) SELECT 'd:' || driver_id FROM app_authorizations WHERE id = NEW.authorization_id;
    INSERT INTO register_changes (scope) SELECT 'd:' || driver_id FROM app_authorizations WHERE id = NEW.subject_id;
    INSERT INTO register_changes (scope) SELECT 'd:' || driver_id FROM app_infraction_autos WHERE id = NEW.subject_id;
    INSERT INTO register_changes (scope) SELECT 'c:' || NEW.company_id WHERE NEW.company_id IS NOT NULL;
END;

CREATE TRIGGER documents_changes_update AFTER UPDATE ON documents
BEGIN
    INSERT INTO register_changes (scope) SELECT 'd:' || driver_id FROM app_authorizations WHERE id = OLD.authorization_id;
    INSERT INTO register_changes (scope) SELECT 'd:' || driver_id FROM app_authorizations WHERE id = OLD.subject_id;
    INSERT INTO register_changes (scope) SELECT 'd:' || driver_id FROM app_infraction_autos WHERE id = OLD.subject_id;
    INSERT INTO register_changes (scope) SELECT 'c:' || OLD.company_id WHERE OLD.company_id IS NOT NULL;
    INSERT INTO register_changes (scope) SELECT 'd:' || driver_id FROM app_authorizations WHERE id = NEW.authorization_id;
    INSERT INTO register_changes (scope) SELECT 'd:' || driver_id FROM app_authorizations WHERE id = NEW.subject_id;
    INSERT INTO register_changes (scope) SELECT 'd:' || driver_id FROM app_infraction_autos WHERE id = NEW.subject_id;
    INSERT INTO register_changes (scope) SELECT 'c:' || NEW.company_id WHERE NEW.company_id IS NOT NULL;
END;

CREATE TRIGGER documents_changes_delete AFTER DELETE ON documents
BEGIN
    INSERT INTO register_changes (scope) SELECT 'd:' || driver_id FROM app_authorizations WHERE id = OLD.authorization_id;
    INSERT INTO register_changes (scope) SELECT 'd:' || driver_id FROM app_authorizations WHERE id = OLD.subject_id;
    INSERT INTO register_changes (scope) SELECT 'd:' || driver_id FROM app_infraction_autos WHERE id = OLD.subject_id;
    INSERT INTO register_changes (scope) SELECT 'c:' || OLD.company_id WHERE OLD.company_id IS NOT NULL;
END;

CREATE TRIGGER calendar_days_changes_insert AFTER INSERT ON calendar_days
BEGIN
    INSERT INTO register_changes (scope) SELECT '*';
END;

CREATE TRIGGER calendar_days_changes_update AFTER UPDATE ON calendar_days
BEGIN
    INSERT INTO register_changes (scope) SELECT '*';
    INSERT INTO register_changes (scope) SELECT '*';
END;

CREATE TRIGGER calendar_days_changes_delete AFTER DELETE ON calendar_days
BEGIN
    INSERT INTO register_changes (scope) SELECT '*';
END;

CREATE TRIGGER upf_values_changes_insert AFTER INSERT ON upf_values
BEGIN
    INSERT INTO register_changes (scope) SELECT '*';
END;

CREATE TRIGGER upf_values_changes_update AFTER UPDATE ON upf_values
BEGIN
    INSERT INTO register_changes (scope) SELECT '*';
    INSERT INTO register_changes (scope) SELECT '*';
END;

CREATE TRIGGER upf_values_changes_delete AFTER DELETE ON upf_values
BEGIN
    INSERT INTO register_changes (scope) SELECT '*';
END;

CREATE TRIGGER legal_basis_versions_changes_insert AFTER INSERT ON legal_basis_versions
BEGIN
    INSERT INTO register_changes (scope) SELECT '*';
END;

CREATE TRIGGER legal_basis_versions_changes_update AFTER UPDATE ON legal_basis_versions
BEGIN
    INSERT INTO register_changes (scope) SELECT '*';
    INSERT INTO register_changes (scope) SELECT '*';
END;

CREATE TRIGGER legal_basis_versions_changes_delete AFTER DELETE ON legal_basis_versions
BEGIN
    INSERT INTO register_changes (scope) SELECT '*';
END;

CREATE TRIGGER legal_suspensions_changes_insert AFTER INSERT ON legal_suspensions
BEGIN
    INSERT INTO register_changes (scope) SELECT '*';
END;

CREATE TRIGGER legal_suspensions_changes_update AFTER UPDATE ON legal_suspensions
BEGIN
    INSERT INTO register_changes (scope) SELECT '*';
    INSERT INTO register_changes (scope) SELECT '*';
END;

CREATE TRIGGER legal_suspensions_changes_delete AFTER DELETE ON legal_suspensions
BEGIN
    INSERT INTO register_changes (scope) SELECT '*';
END;

CREATE TRIGGER events_changes_insert AFTER INSERT ON events
BEGIN
    INSERT INTO register_changes (scope) SELECT 'd:' || NEW.entity_id WHERE NEW.entity_type = 'driver';
    INSERT INTO register_changes (scope) SELECT 'd:' || driver_id FROM app_authorizations WHERE NEW.entity_type = 'vehicle' AND vehicle_id = NEW.entity_id UNION SELECT 'd:' || a.driver_id FROM app_vehicle_substitutions s JOIN app_authorizations a ON a.id = s.authorization_id WHERE NEW.entity_type = 'vehicle' AND (s.old_vehicle_id = NEW.entity_id OR s.new_vehicle_id = NEW.entity_id);
    INSERT INTO register_changes (scope) SELECT 'd:' || driver_id FROM app_authorizations WHERE id = NEW.entity_id AND NEW.entity_type = 'app_authorization';
    INSERT INTO register_changes (scope) SELECT 'd:' || driver_id FROM app_infraction_autos WHERE id = NEW.entity_id AND NEW.entity_type = 'app_infraction_auto';
    INSERT INTO register_changes (scope) SELECT 'c:' || NEW.entity_id WHERE NEW.entity_type = 'charter_company';
    INSERT INTO register_changes (scope) SELECT 'c:' || company_id FROM charter_vehicles WHERE id = NEW.entity_id AND NEW.entity_type = 'charter_vehicle';
    INSERT INTO register_changes (scope) SELECT 'c:' || company_id FROM charter_drivers WHERE id = NEW.entity_id AND NEW.entity_type = 'charter_driver';
    INSERT INTO register_changes (scope) SELECT 'c:' || company_id FROM charter_contracts WHERE id = NEW.entity_id AND NEW.entity_type = 'charter_contract';
    INSERT INTO register_changes (scope) SELECT 'c:' || company_id FROM charter_termos WHERE id = NEW.entity_id AND NEW.entity_type = 'charter_termo';
    INSERT INTO register_changes (scope) SELECT 'c:' || company_id FROM charter_autos WHERE id = NEW.entity_id AND NEW.entity_type = 'charter_auto';
    INSERT INTO register_changes (scope) SELECT '*' WHERE NEW.entity_type NOT IN ('driver', 'vehicle', 'app_authorization', 'app_infraction_auto', 'charter_company', 'charter_vehicle', 'charter_driver', 'charter_contract', 'charter_termo', 'charter_auto', 'document_number', 'filing', 'applicant', 'passenger_report', 'platform', 'data_request', 'official', 'app_grant_review');
END;

CREATE TRIGGER events_changes_update AFTER UPDATE ON events
BEGIN
    INSERT INTO register_changes (scope) SELECT 'd:' || OLD.entity_id WHERE OLD.entity_type = 'driver';
    INSERT INTO register_changes (scope) SELECT 'd:' || driver_id FROM app_authorizations WHERE OLD.entity_type = 'vehicle' AND vehicle_id = OLD.entity_id UNION SELECT 'd:' || a.driver_id FROM app_vehicle_substitutions s JOIN app_authorizations a ON a.id = s.authorization_id WHERE OLD.entity_type = 'vehicle' AND (s.old_vehicle_id = OLD.entity_id OR s.new_vehicle_id = OLD.entity_id);
    INSERT INTO register_changes (scope) SELECT 'd:' || driver_id FROM app_authorizations WHERE id = OLD.entity_id AND OLD.entity_type = 'app_authorization';
    INSERT INTO register_changes (scope) SELECT 'd:' || driver_id FROM app_infraction_autos WHERE id = OLD.entity_id AND OLD.entity_type = 'app_infraction_auto';
    INSERT INTO register_changes (scope) SELECT 'c:' || OLD.entity_id WHERE OLD.entity_type = 'charter_company';
    INSERT INTO register_changes (scope) SELECT 'c:' || company_id FROM charter_vehicles WHERE id = OLD.entity_id AND OLD.entity_type = 'charter_vehicle';
    INSERT INTO register_changes (scope) SELECT 'c:' || company_id FROM charter_drivers WHERE id = OLD.entity_id AND OLD.entity_type = 'charter_driver';
    INSERT INTO register_changes (scope) SELECT 'c:' || company_id FROM charter_contracts WHERE id = OLD.entity_id AND OLD.entity_type = 'charter_contract';
    INSERT INTO register_changes (scope) SELECT 'c:' || company_id FROM charter_termos WHERE id = OLD.entity_id AND OLD.entity_type = 'charter_termo';
    INSERT INTO register_changes (scope) SELECT 'c:' || company_id FROM charter_autos WHERE id = OLD.entity_id AND OLD.entity_type = 'charter_auto';
    INSERT INTO register_changes (scope) SELECT '*' WHERE OLD.entity_type NOT IN ('driver', 'vehicle', 'app_authorization', 'app_infraction_auto', 'charter_company', 'charter_vehicle', 'charter_driver', 'charter_contract', 'charter_termo', 'charter_auto', 'document_number', 'filing', 'applicant', 'passenger_report', 'platform', 'data_request', 'official', 'app_grant_review');
    INSERT INTO register_changes (scope) SELECT 'd:' || NEW.entity_id WHERE NEW.entity_type = 'driver';
    INSERT INTO register_changes (scope) SELECT 'd:' || driver_id FROM app_authorizations WHERE NEW.entity_type = 'vehicle' AND vehicle_id = NEW.entity_id UNION SELECT 'd:' || a.driver_id FROM app_vehicle_substitutions s JOIN app_authorizations a ON a.id = s.authorization_id WHERE NEW.entity_type = 'vehicle' AND (s.old_vehicle_id = NEW.entity_id OR s.new_vehicle_id = NEW.entity_id);
    INSERT INTO register_changes (scope) SELECT 'd:' || driver_id FROM app_authorizations WHERE id = NEW.entity_id AND NEW.entity_type = 'app_authorization';
    INSERT INTO register_changes (scope) SELECT 'd:' || driver_id FROM app_infraction_autos WHERE id = NEW.entity_id AND NEW.entity_type = 'app_infraction_auto';
    INSERT INTO register_changes (scope) SELECT 'c:' || NEW.entity_id WHERE NEW.entity_type = 'charter_company';
    INSERT INTO register_changes (scope) SELECT 'c:' || company_id FROM charter_vehicles WHERE id = NEW.entity_id AND NEW.entity_type = 'charter_vehicle';
    INSERT INTO register_changes (scope) SELECT 'c:' || company_id FROM charter_drivers WHERE id = NEW.entity_id AND NEW.entity_type = 'charter_driver';
    INSERT INTO register_changes (scope) SELECT 'c:' || company_id FROM charter_contracts WHERE id = NEW.entity_id AND NEW.entity_type = 'charter_contract';
    INSERT INTO register_changes (scope) SELECT 'c:' || company_id FROM charter_termos WHERE id = NEW.entity_id AND NEW.entity_type = 'charter_termo';
    INSERT INTO register_changes (scope) SELECT 'c:' || company_id FROM charter_autos WHERE id = NEW.entity_id AND NEW.entity_type = 'charter_auto';
    INSERT INTO register_changes (scope) SELECT '*' WHERE NEW.entity_type NOT IN ('driver', 'vehicle', 'app_authorization', 'app_infraction_auto', 'charter_company', 'charter_vehicle', 'charter_driver', 'charter_contract', 'charter_termo', 'charter_auto', 'document_number', 'filing', 'applicant', 'passenger_report', 'platform', 'data_request', 'official', 'app_grant_review');
END;

CREATE TRIGGER events_changes_delete AFTER DELETE ON events
BEGIN
    INSERT INTO register_changes (scope) SELECT 'd:' || OLD.entity_id WHERE OLD.entity_type = 'driver';
    INSERT INTO register_changes (scope) SELECT 'd:' || driver_id FROM app_authorizations WHERE OLD.entity_type = 'vehicle' AND vehicle_id = OLD.entity_id UNION SELECT 'd:' || a.driver_id FROM app_vehicle_substitutions s JOIN app_authorizations a ON a.id = s.authorization_id WHERE OLD.entity_type = 'vehicle' AND (s.old_vehicle_id = OLD.entity_id OR s.new_vehicle_id = OLD.entity_id);
    INSERT INTO register_changes (scope) SELECT 'd:' || driver_id FROM app_authorizations WHERE id = OLD.entity_id AND OLD.entity_type = 'app_authorization';
    INSERT INTO register_changes (scope) SELECT 'd:' || driver_id FROM app_infraction_autos WHERE id = OLD.entity_id AND OLD.entity_type = 'app_infraction_auto';
    INSERT INTO register_changes (scope) SELECT 'c:' || OLD.entity_id WHERE OLD.entity_type = 'charter_company';
    INSERT INTO register_changes (scope) SELECT 'c:' || company_id FROM charter_vehicles WHERE id = OLD.entity_id AND OLD.entity_type = 'charter_vehicle';
    INSERT INTO register_changes (scope) SELECT 'c:' || company_id FROM charter_drivers WHERE id = OLD.entity_id AND OLD.entity_type = 'charter_driver';
    INSERT INTO register_changes (scope) SELECT 'c:' || company_id FROM charter_contracts WHERE id = OLD.entity_id AND OLD.entity_type = 'charter_contract';
    INSERT INTO register_changes (scope) SELECT 'c:' || company_id FROM charter_termos WHERE id = OLD.entity_id AND OLD.entity_type = 'charter_termo';
    INSERT INTO register_changes (scope) SELECT 'c:' || company_id FROM charter_autos WHERE id = OLD.entity_id AND OLD.entity_type = 'charter_auto';
    INSERT INTO register_changes (scope) SELECT '*' WHERE OLD.entity_type NOT IN ('driver', 'vehicle', 'app_authorization', 'app_infraction_auto', 'charter_company', 'charter_vehicle', 'charter_driver', 'charter_contract', 'charter_termo', 'charter_auto', 'document_number', 'filing', 'applicant', 'passenger_report', 'platform', 'data_request', 'official', 'app_grant_review');
END;
