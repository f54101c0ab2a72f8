-- The register's change log: every committed act appends, in the same transaction, the
-- scopes whose documents it may change (`d:` a ride-hailing driver, with all their
-- authorizations, certidões and autos; `c:` a charter company; `*` everything: the calendar,
-- the UPF, the legal bases). The status list re-judges only the documents of the scopes
-- logged since it was built, and the verification cache drops only the answers of those
-- scopes. Written by the triggers below, so no write path can forget it; a table that is
-- not listed is one no verification reads. Only the newest rows are kept: a reader further
-- behind than them judges the whole register again.

CREATE TABLE register_changes (
    seq BIGSERIAL PRIMARY KEY,
    scope TEXT NOT NULL
);
-- A charter company's documents, read when its scope changed.
CREATE INDEX documents_company ON documents (company_id);

CREATE FUNCTION drivers_changes() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    -- The chain's lock (re-entrant; every register write holds it already): the log's
    -- sequence is then the commit order.
    PERFORM pg_advisory_xact_lock(5370014);
    IF TG_OP IN ('UPDATE', 'DELETE') THEN
        INSERT INTO register_changes (scope) SELECT 'd:' || OLD.id WHERE OLD.id IS NOT NULL;
    END IF;
    IF TG_OP IN ('INSERT', 'UPDATE') THEN
        INSERT INTO register_changes (scope) SELECT 'd:' || NEW.id WHERE NEW.id IS NOT NULL;
    END IF;
    RETURN NULL;
END;
$$;
CREATE TRIGGER drivers_changes AFTER INSERT OR UPDATE OR DELETE ON drivers
    FOR EACH ROW EXECUTE FUNCTION drivers_changes();

CREATE FUNCTION vehicles_changes() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    -- The chain's lock (re-entrant; every register write holds it already): the log's
    -- sequence is then the commit order.
    PERFORM pg_advisory_xact_lock(5370014);
    IF TG_OP IN ('UPDATE', 'DELETE') THEN
        INSERT INTO register_changes (scope) SELECT 'd:' || driver_id FROM app_authorizations WHERE vehicle_id = OLD.id UNION SELECT 'd:' || a.driver_id FROM app_vehicle_substitutions s JOIN app_authorizations a ON a.id = s.authorization_id WHERE s.old_vehicle_id = OLD.id OR s.new_vehicle_id = OLD.id;
    END IF;
    IF TG_OP IN ('INSERT', 'UPDATE') THEN
        INSERT INTO register_changes (scope) SELECT 'd:' || driver_id FROM app_authorizations WHERE vehicle_id = NEW.id UNION SELECT 'd:' || a.driver_id FROM app_vehicle_substitutions s JOIN app_authorizations a ON a.id = s.authorization_id WHERE s.old_vehicle_id = NEW.id OR s.new_vehicle_id = NEW.id;
    END IF;
    RETURN NULL;
END;
$$;
CREATE TRIGGER vehicles_changes AFTER INSERT OR UPDATE OR DELETE ON vehicles
    FOR EACH ROW EXECUTE FUNCTION vehicles_changes();

CREATE FUNCTION app_authorizations_changes() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    -- The chain's lock (re-entrant; every register write holds it already): the log's
    -- sequence is then the commit order.
    PERFORM pg_advisory_xact_lock(5370014);
    IF TG_OP IN ('UPDATE', 'DELETE') THEN
        INSERT INTO register_changes (scope) SELECT 'd:' || OLD.driver_id WHERE OLD.driver_id IS NOT NULL;
        INSERT INTO register_changes (scope) SELECT 'd:' || driver_id FROM app_authorizations WHERE vehicle_id = OLD.vehicle_id UNION SELECT 'd:' || a.driver_id FROM app_vehicle_substitutions s JOIN app_authorizations a ON a.id = s.authorization_id WHERE s.old_vehicle_id = OLD.vehicle_id OR s.new_vehicle_id = OLD.vehicle_id;
    END IF;
    IF TG_OP IN ('INSERT', 'UPDATE') THEN
        INSERT INTO register_changes (scope) SELECT 'd:' || NEW.driver_id WHERE NEW.driver_id IS NOT NULL;
        INSERT INTO register_changes (scope) SELECT 'd:' || driver_id FROM app_authorizations WHERE vehicle_id = NEW.vehicle_id UNION SELECT 'd:' || a.driver_id FROM app_vehicle_substitutions s JOIN app_authorizations a ON a.id = s.authorization_id WHERE s.old_vehicle_id = NEW.vehicle_id OR s.new_vehicle_id = NEW.vehicle_id;
    END IF;
    RETURN NULL;
END;
$$;
CREATE TRIGGER app_authorizations_changes AFTER INSERT OR UPDATE OR DELETE ON app_authorizations
    FOR EACH ROW EXECUTE FUNCTION app_authorizations_changes();

CREATE FUNCTION app_authorization_revocations_changes() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    -- The chain's lock (re-entrant; every register write holds it already): the log's
    -- sequence is then the commit order.
    PERFORM pg_advisory_xact_lock(5370014);
    IF TG_OP IN ('UPDATE', 'DELETE') THEN
        INSERT INTO register_changes (scope) SELECT 'd:' || driver_id FROM app_authorizations WHERE id = OLD.authorization_id;
    END IF;
    IF TG_OP IN ('INSERT', 'UPDATE') THEN
        INSERT INTO register_changes (scope) SELECT 'd:' || driver_id FROM app_authorizations WHERE id = NEW.authorization_id;
    END IF;
    RETURN NULL;
END;
$$;
CREATE TRIGGER app_authorization_revocations_changes AFTER INSERT OR UPDATE OR DELETE ON app_authorization_revocations
    FOR EACH ROW EXECUTE FUNCTION app_authorization_revocations_changes();

CREATE FUNCTION app_authorization_sanctions_changes() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    -- The chain's lock (re-entrant; every register write holds it already): the log's
    -- sequence is then the commit order.
    PERFORM pg_advisory_xact_lock(5370014);
    IF TG_OP IN ('UPDATE', 'DELETE') THEN
        INSERT INTO register_changes (scope) SELECT 'd:' || driver_id FROM app_authorizations WHERE id = OLD.authorization_id;
    END IF;
    IF TG_OP IN ('INSERT', 'UPDATE') THEN
        INSERT INTO register_changes (scope) SELECT 'd:' || driver_id FROM app_authorizations WHERE id = NEW.authorization_id;
    END IF;
    RETURN NULL;
END;
$$;
CREATE TRIGGER app_authorization_sanctions_changes AFTER INSERT OR UPDATE OR DELETE ON app_authorization_sanctions
    FOR EACH ROW EXECUTE FUNCTION app_authorization_sanctions_changes();

CREATE FUNCTION app_vehicle_substitutions_changes() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    -- The chain's lock (re-entrant; every register write holds it already): the log's
    -- sequence is then the commit order.
    PERFORM pg_advisory_xact_lock(5370014);
    IF TG_OP IN ('UPDATE', 'DELETE') THEN
        INSERT INTO register_changes (scope) SELECT 'd:' || driver_id FROM app_authorizations WHERE id = OLD.authorization_id;
        INSERT INTO register_changes (scope) SELECT 'd:' || driver_id FROM app_authorizations WHERE vehicle_id = OLD.old_vehicle_id UNION SELECT 'd:' || a.driver_id FROM app_vehicle_substitutions s JOIN app_authorizations a ON a.id = s.authorization_id WHERE s.old_vehicle_id = OLD.old_vehicle_id OR s.new_vehicle_id = OLD.old_vehicle_id;
        INSERT INTO register_changes (scope) SELECT 'd:' || driver_id FROM app_authorizations WHERE vehicle_id = OLD.new_vehicle_id UNION SELECT 'd:' || a.driver_id FROM app_vehicle_substitutions s JOIN app_authorizations a ON a.id = s.authorization_id WHERE s.old_vehicle_id = OLD.new_vehicle_id OR s.new_vehicle_id = OLD.new_vehicle_id;
    END IF;
    IF TG_OP IN ('INSERT', 'UPDATE') THEN
        INSERT INTO register_changes (scope) SELECT 'd:' || driver_id FROM app_authorizations WHERE id = NEW.authorization_id;
        INSERT INTO register_changes (scope) SELECT 'd:' || driver_id FROM app_authorizations WHERE vehicle_id = NEW.old_vehicle_id UNION SELECT 'd:' || a.driver_id FROM app_vehicle_substitutions s JOIN app_authorizations a ON a.id = s.authorization_id WHERE s.old_vehicle_id = NEW.old_vehicle_id OR s.new_vehicle_id = NEW.old_vehicle_id;
        INSERT INTO register_changes (scope) SELECT 'd:' || driver_id FROM app_authorizations WHERE vehicle_id = NEW.new_vehicle_id UNION SELECT 'd:' || a.driver_id FROM app_vehicle_substitutions s JOIN app_authorizations a ON a.id = s.authorization_id WHERE s.old_vehicle_id = NEW.new_vehicle_id OR s.new_vehicle_id = NEW.new_vehicle_id;
    END IF;
    RETURN NULL;
END;
$$;
CREATE TRIGGER app_vehicle_substitutions_changes AFTER INSERT OR UPDATE OR DELETE ON app_vehicle_substitutions
    FOR EACH ROW EXECUTE FUNCTION app_vehicle_substitutions_changes();

CREATE FUNCTION app_sanction_rectifications_changes() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    -- The chain's lock (re-entrant; every register write holds it already): the log's
    -- sequence is then the commit order.
    PERFORM pg_advisory_xact_lock(5370014);
    IF TG_OP IN ('UPDATE', 'DELETE') THEN
        INSERT INTO register_changes (scope) SELECT 'd:' || a.driver_id FROM app_authorization_sanctions s JOIN app_authorizations a ON a.id = s.authorization_id WHERE s.id = OLD.sanction_id;
    END IF;
    IF TG_OP IN ('INSERT', 'UPDATE') THEN
        INSERT INTO register_changes (scope) SELECT 'd:' || a.driver_id FROM app_authorization_sanctions s JOIN app_authorizations a ON a.id = s.authorization_id WHERE s.id = NEW.sanction_id;
    END IF;
    RETURN NULL;
END;
$$;
CREATE TRIGGER app_sanction_rectifications_changes AFTER INSERT OR UPDATE OR DELETE ON app_sanction_rectifications
    FOR EACH ROW EXECUTE FUNCTION app_sanction_rectifications_changes();

CREATE FUNCTION app_infraction_autos_changes() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    -- The chain's lock (re-entrant; every register write holds it already): the log's
    -- sequence is then the commit order.
    PERFORM pg_advisory_xact_lock(5370014);
    IF TG_OP IN ('UPDATE', 'DELETE') THEN
        INSERT INTO register_changes (scope) SELECT 'd:' || OLD.driver_id WHERE OLD.driver_id IS NOT NULL;
    END IF;
    IF TG_OP IN ('INSERT', 'UPDATE') THEN
        INSERT INTO register_changes (scope) SELECT 'd:' || NEW.driver_id WHERE NEW.driver_id IS NOT NULL;
    END IF;
    RETURN NULL;
END;
$$;
CREATE TRIGGER app_infraction_autos_changes AFTER INSERT OR UPDATE OR DELETE ON app_infraction_autos
    FOR EACH ROW EXECUTE FUNCTION app_infraction_autos_changes();

CREATE FUNCTION app_auto_notifications_changes() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    -- The chain's lock (re-entrant; every register write holds it already): the log's
    -- sequence is then the commit order.
    PERFORM pg_advisory_xact_lock(5370014);
    IF TG_OP IN ('UPDATE', 'DELETE') THEN
        INSERT INTO register_changes (scope) SELECT 'd:' || driver_id FROM app_infraction_autos WHERE id = OLD.auto_id;
    END IF;
    IF TG_OP IN ('INSERT', 'UPDATE') THEN
        INSERT INTO register_changes (scope) SELECT 'd:' || driver_id FROM app_infraction_autos WHERE id = NEW.auto_id;
    END IF;
    RETURN NULL;
END;
$$;
CREATE TRIGGER app_auto_notifications_changes AFTER INSERT OR UPDATE OR DELETE ON app_auto_notifications
    FOR EACH ROW EXECUTE FUNCTION app_auto_notifications_changes();

CREATE FUNCTION app_auto_notification_rectifications_changes() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    -- The chain's lock (re-entrant; every register write holds it already): the log's
    -- sequence is then the commit order.
    PERFORM pg_advisory_xact_lock(5370014);
    IF TG_OP IN ('UPDATE', 'DELETE') THEN
        INSERT INTO register_changes (scope) SELECT 'd:' || driver_id FROM app_infraction_autos WHERE id = OLD.auto_id;
    END IF;
    IF TG_OP IN ('INSERT', 'UPDATE') THEN
        INSERT INTO register_changes (scope) SELECT 'd:' || driver_id FROM app_infraction_autos WHERE id = NEW.auto_id;
    END IF;
    RETURN NULL;
END;
$$;
CREATE TRIGGER app_auto_notification_rectifications_changes AFTER INSERT OR UPDATE OR DELETE ON app_auto_notification_rectifications
    FOR EACH ROW EXECUTE FUNCTION app_auto_notification_rectifications_changes();

CREATE FUNCTION electronic_notices_changes() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    -- The chain's lock (re-entrant; every register write holds it already): the log's
    -- sequence is then the commit order.
    PERFORM pg_advisory_xact_lock(5370014);
    IF TG_OP IN ('UPDATE', 'DELETE') THEN
        INSERT INTO register_changes (scope) SELECT 'd:' || driver_id FROM app_infraction_autos WHERE id = OLD.auto_id;
    END IF;
    IF TG_OP IN ('INSERT', 'UPDATE') THEN
        INSERT INTO register_changes (scope) SELECT 'd:' || driver_id FROM app_infraction_autos WHERE id = NEW.auto_id;
    END IF;
    RETURN NULL;
END;
$$;
CREATE TRIGGER electronic_notices_changes AFTER INSERT OR UPDATE OR DELETE ON electronic_notices
    FOR EACH ROW EXECUTE FUNCTION electronic_notices_changes();

CREATE FUNCTION driver_records_changes() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    -- The chain's lock (re-entrant; every register write holds it already): the log's
    -- sequence is then the commit order.
    PERFORM pg_advisory_xact_lock(5370014);
    IF TG_OP IN ('UPDATE', 'DELETE') THEN
        INSERT INTO register_changes (scope) SELECT 'd:' || OLD.driver_id WHERE OLD.driver_id IS NOT NULL;
    END IF;
    IF TG_OP IN ('INSERT', 'UPDATE') THEN
        INSERT INTO register_changes (scope) SELECT 'd:' || NEW.driver_id WHERE NEW.driver_id IS NOT NULL;
    END IF;
    RETURN NULL;
END;
$$;
CREATE TRIGGER driver_records_changes AFTER INSERT OR UPDATE OR DELETE ON driver_records
    FOR EACH ROW EXECUTE FUNCTION driver_records_changes();

CREATE FUNCTION driver_photos_changes() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    -- The chain's lock (re-entrant; every register write holds it already): the log's
    -- sequence is then the commit order.
    PERFORM pg_advisory_xact_lock(5370014);
    IF TG_OP IN ('UPDATE', 'DELETE') THEN
        INSERT INTO register_changes (scope) SELECT 'd:' || OLD.driver_id WHERE OLD.driver_id IS NOT NULL;
    END IF;
    IF TG_OP IN ('INSERT', 'UPDATE') THEN
        INSERT INTO register_changes (scope) SELECT 'd:' || NEW.driver_id WHERE NEW.driver_id IS NOT NULL;
    END IF;
    RETURN NULL;
END;
$$;
CREATE TRIGGER driver_photos_changes AFTER INSERT OR UPDATE OR DELETE ON driver_photos
    FOR EACH ROW EXECUTE FUNCTION driver_photos_changes();

CREATE FUNCTION app_grant_reviews_changes() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    -- The chain's lock (re-entrant; every register write holds it already): the log's
    -- sequence is then the commit order.
    PERFORM pg_advisory_xact_lock(5370014);
    IF TG_OP IN ('UPDATE', 'DELETE') THEN
        INSERT INTO register_changes (scope) SELECT 'd:' || OLD.driver_id WHERE OLD.driver_id IS NOT NULL;
    END IF;
    IF TG_OP IN ('INSERT', 'UPDATE') THEN
        INSERT INTO register_changes (scope) SELECT 'd:' || NEW.driver_id WHERE NEW.driver_id IS NOT NULL;
    END IF;
    RETURN NULL;
END;
$$;
CREATE TRIGGER app_grant_reviews_changes AFTER INSERT OR UPDATE OR DELETE ON app_grant_reviews
    FOR EACH ROW EXECUTE FUNCTION app_grant_reviews_changes();

CREATE FUNCTION charter_companies_changes() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    -- The chain's lock (re-entrant; every register write holds it already): the log's
    -- sequence is then the commit order.
    PERFORM pg_advisory_xact_lock(5370014);
    IF TG_OP IN ('UPDATE', 'DELETE') THEN
        INSERT INTO register_changes (scope) SELECT 'c:' || OLD.id WHERE OLD.id IS NOT NULL;
    END IF;
    IF TG_OP IN ('INSERT', 'UPDATE') THEN
        INSERT INTO register_changes (scope) SELECT 'c:' || NEW.id WHERE NEW.id IS NOT NULL;
    END IF;
    RETURN NULL;
END;
$$;
CREATE TRIGGER charter_companies_changes AFTER INSERT OR UPDATE OR DELETE ON charter_companies
    FOR EACH ROW EXECUTE FUNCTION charter_companies_changes();

CREATE FUNCTION charter_vehicles_changes() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    -- The chain's lock (re-entrant; every register write holds it already): the log's
    -- sequence is then the commit order.
    PERFORM pg_advisory_xact_lock(5370014);
    IF TG_OP IN ('UPDATE', 'DELETE') THEN
        INSERT INTO register_changes (scope) SELECT 'c:' || OLD.company_id WHERE OLD.company_id IS NOT NULL;
    END IF;
    IF TG_OP IN ('INSERT', 'UPDATE') THEN
        INSERT INTO register_changes (scope) SELECT 'c:' || NEW.company_id WHERE NEW.company_id IS NOT NULL;
    END IF;
    RETURN NULL;
END;
$$;
CREATE TRIGGER charter_vehicles_changes AFTER INSERT OR UPDATE OR DELETE ON charter_vehicles
    FOR EACH ROW EXECUTE FUNCTION charter_vehicles_changes();

CREATE FUNCTION charter_drivers_changes() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    -- The chain's lock (re-entrant; every register write holds it already): the log's
    -- sequence is then the commit order.
    PERFORM pg_advisory_xact_lock(5370014);
    IF TG_OP IN ('UPDATE', 'DELETE') THEN
        INSERT INTO register_changes (scope) SELECT 'c:' || OLD.company_id WHERE OLD.company_id IS NOT NULL;
    END IF;
    IF TG_OP IN ('INSERT', 'UPDATE') THEN
        INSERT INTO register_changes (scope) SELECT 'c:' || NEW.company_id WHERE NEW.company_id IS NOT NULL;
    END IF;
    RETURN NULL;
END;
$$;
CREATE TRIGGER charter_drivers_changes AFTER INSERT OR UPDATE OR DELETE ON charter_drivers
    FOR EACH ROW EXECUTE FUNCTION charter_drivers_changes();

CREATE FUNCTION charter_contracts_changes() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    -- The chain's lock (re-entrant; every register write holds it already): the log's
    -- sequence is then the commit order.
    PERFORM pg_advisory_xact_lock(5370014);
    IF TG_OP IN ('UPDATE', 'DELETE') THEN
        INSERT INTO register_changes (scope) SELECT 'c:' || OLD.company_id WHERE OLD.company_id IS NOT NULL;
    END IF;
    IF TG_OP IN ('INSERT', 'UPDATE') THEN
        INSERT INTO register_changes (scope) SELECT 'c:' || NEW.company_id WHERE NEW.company_id IS NOT NULL;
    END IF;
    RETURN NULL;
END;
$$;
CREATE TRIGGER charter_contracts_changes AFTER INSERT OR UPDATE OR DELETE ON charter_contracts
    FOR EACH ROW EXECUTE FUNCTION charter_contracts_changes();

CREATE FUNCTION charter_termos_changes() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    -- The chain's lock (re-entrant; every register write holds it already): the log's
    -- sequence is then the commit order.
    PERFORM pg_advisory_xact_lock(5370014);
    IF TG_OP IN ('UPDATE', 'DELETE') THEN
        INSERT INTO register_changes (scope) SELECT 'c:' || OLD.company_id WHERE OLD.company_id IS NOT NULL;
    END IF;
    IF TG_OP IN ('INSERT', 'UPDATE') THEN
        INSERT INTO register_changes (scope) SELECT 'c:' || NEW.company_id WHERE NEW.company_id IS NOT NULL;
    END IF;
    RETURN NULL;
END;
$$;
CREATE TRIGGER charter_termos_changes AFTER INSERT OR UPDATE OR DELETE ON charter_termos
    FOR EACH ROW EXECUTE FUNCTION charter_termos_changes();

CREATE FUNCTION charter_autos_changes() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    -- The chain's lock (re-entrant; every register write holds it already): the log's
    -- sequence is then the commit order.
    PERFORM pg_advisory_xact_lock(5370014);
    IF TG_OP IN ('UPDATE', 'DELETE') THEN
        INSERT INTO register_changes (scope) SELECT 'c:' || OLD.company_id WHERE OLD.company_id IS NOT NULL;
    END IF;
    IF TG_OP IN ('INSERT', 'UPDATE') THEN
        INSERT INTO register_changes (scope) SELECT 'c:' || NEW.company_id WHERE NEW.company_id IS NOT NULL;
    END IF;
    RETURN NULL;
END;
$$;
CREATE TRIGGER charter_autos_changes AFTER INSERT OR UPDATE OR DELETE ON charter_autos
    FOR EACH ROW EXECUTE FUNCTION charter_autos_changes();

CREATE FUNCTION documents_changes() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    -- The chain's lock (re-entrant; every register write holds it already): the log's
    -- sequence is then the commit order.
    PERFORM pg_advisory_xact_lock(5370014);
    IF TG_OP IN ('UPDATE', 'DELETE') THEN
        INSERT INTO register_changes (scope) SELECT 'd:' || driver_id FROM app_authorizations WHERE id = OLD.authorization_id;
        INSERT INTO register_changes (scope) SELECT 'd:' || driver_id FROM app_authorizations WHERE id = OLD.subject_id;
        INSERT INTO register_changes (scope) SELECT 'd:' || driver_id FROM app_infraction_autos WHERE id = OLD.subject_id;
        INSERT INTO register_changes (scope) SELECT 'c:' || OLD.company_id WHERE OLD.company_id IS NOT NULL;
    END IF;
    IF TG_OP IN ('INSERT', 'UPDATE') THEN
        INSERT INTO register_changes (scope) SELECT 'd:' || driver_id FROM app_authorizations WHERE id = NEW.authorization_id;
        INSERT INTO register_changes (scope) SELECT 'd:' || driver_id FROM app_authorizations WHERE id = NEW.subject_id;
        INSERT INTO register_changes (scope) SELECT 'd:' || driver_id FROM app_infraction_autos WHERE id = NEW.subject_id;
        INSERT INTO register_changes (scope) SELECT 'c:' || NEW.company_id WHERE NEW.company_id IS NOT NULL;
    END IF;
    RETURN NULL;
END;
$$;
CREATE TRIGGER documents_changes AFTER INSERT OR UPDATE OR DELETE ON documents
    FOR EACH ROW EXECUTE FUNCTION documents_changes();

CREATE FUNCTION calendar_days_changes() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    -- The chain's lock (re-entrant; every register write holds it already): the log's
    -- sequence is then the commit order.
    PERFORM pg_advisory_xact_lock(5370014);
    IF TG_OP IN ('UPDATE', 'DELETE') THEN
        INSERT INTO register_changes (scope) SELECT '*';
    END IF;
    IF TG_OP IN ('INSERT', 'UPDATE') THEN
        INSERT INTO register_changes (scope) SELECT '*';
    END IF;
    RETURN NULL;
END;
$$;
CREATE TRIGGER calendar_days_changes AFTER INSERT OR UPDATE OR DELETE ON calendar_days
    FOR EACH ROW EXECUTE FUNCTION calendar_days_changes();

CREATE FUNCTION upf_values_changes() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    -- The chain's lock (re-entrant; every register write holds it already): the log's
    -- sequence is then the commit order.
    PERFORM pg_advisory_xact_lock(5370014);
    IF TG_OP IN ('UPDATE', 'DELETE') THEN
        INSERT INTO register_changes (scope) SELECT '*';
    END IF;
    IF TG_OP IN ('INSERT', 'UPDATE') THEN
        INSERT INTO register_changes (scope) SELECT '*';
    END IF;
    RETURN NULL;
END;
$$;
CREATE TRIGGER upf_values_changes AFTER INSERT OR UPDATE OR DELETE ON upf_values
    FOR EACH ROW EXECUTE FUNCTION upf_values_changes();

CREATE FUNCTION legal_basis_versions_changes() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    -- The chain's lock (re-entrant; every register write holds it already): the log's
    -- sequence is then the commit order.
    PERFORM pg_advisory_xact_lock(5370014);
    IF TG_OP IN ('UPDATE', 'DELETE') THEN
        INSERT INTO register_changes (scope) SELECT '*';
    END IF;
    IF TG_OP IN ('INSERT', 'UPDATE') THEN
        INSERT INTO register_changes (scope) SELECT '*';
    END IF;
    RETURN NULL;
END;
$$;
CREATE TRIGGER legal_basis_versions_changes AFTER INSERT OR UPDATE OR DELETE ON legal_basis_versions
    FOR EACH ROW EXECUTE FUNCTION legal_basis_versions_changes();

CREATE FUNCTION legal_suspensions_changes() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    -- The chain's lock (re-entrant; every register write holds it already): the log's
    -- sequence is then the commit order.
    PERFORM pg_advisory_xact_lock(5370014);
    IF TG_OP IN ('UPDATE', 'DELETE') THEN
        INSERT INTO register_changes (scope) SELECT '*';
    END IF;
    IF TG_OP IN ('INSERT', 'UPDATE') THEN
        INSERT INTO register_changes (scope) SELECT '*';
    END IF;
    RETURN NULL;
END;
$$;
CREATE TRIGGER legal_suspensions_changes AFTER INSERT OR UPDATE OR DELETE ON legal_suspensions
    FOR EACH ROW EXECUTE FUNCTION legal_suspensions_changes();

CREATE FUNCTION events_changes() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    -- The chain's lock (re-entrant; every register write holds it already): the log's
    -- sequence is then the commit order.
    PERFORM pg_advisory_xact_lock(5370014);
    IF TG_OP IN ('UPDATE', 'DELETE') THEN
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
    END IF;
    IF TG_OP IN ('INSERT', 'UPDATE') THEN
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
    END IF;
    RETURN NULL;
END;
$$;
CREATE TRIGGER events_changes AFTER INSERT OR UPDATE OR DELETE ON events
    FOR EACH ROW EXECUTE FUNCTION events_changes();
