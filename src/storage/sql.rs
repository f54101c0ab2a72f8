//! SQL shared by both backends (explicit column lists; `$N` placeholders).

/// SQL: the car an authorization `a` binds now, the latest replacement's or the granted one.
macro_rules! current_vehicle {
    () => {
        "COALESCE((SELECT s.new_vehicle_id FROM app_vehicle_substitutions s \
        WHERE s.authorization_id = a.id ORDER BY s.seq DESC LIMIT 1), a.vehicle_id)"
    };
}

pub const INSERT_DRIVER: &str = "INSERT INTO drivers (id, name, cpf, cnh_number, cnh_category, \
    cnh_first_license_date, cnh_ear, cnh_expires_on, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)";
pub const SELECT_DRIVER: &str = "SELECT id, name, cpf, cnh_number, cnh_category, cnh_first_license_date, \
    cnh_ear, cnh_expires_on, created_at, (SELECT r.record FROM driver_records r WHERE r.driver_id = drivers.id \
    ORDER BY r.id DESC LIMIT 1) AS record FROM drivers WHERE id = $1";
pub const INSERT_DRIVER_RECORD: &str = "INSERT INTO driver_records (driver_id, record, recorded_at, recorded_by) \
    VALUES ($1, $2, $3, $4)";
pub const DRIVER_EXISTS: &str = "SELECT COUNT(*) FROM drivers WHERE id = $1";
pub const UPSERT_DRIVER_PHOTO: &str = "INSERT INTO driver_photos (driver_id, jpeg, sha256, width, height, \
    uploaded_at, uploaded_by) VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (driver_id) DO UPDATE SET \
    jpeg = excluded.jpeg, sha256 = excluded.sha256, width = excluded.width, height = excluded.height, \
    uploaded_at = excluded.uploaded_at, uploaded_by = excluded.uploaded_by";
pub const SELECT_DRIVER_PHOTO: &str = "SELECT jpeg FROM driver_photos WHERE driver_id = $1";
pub const INSERT_VEHICLE: &str = "INSERT INTO vehicles (id, plate, plate_mercosul, renavam, make, model, color, \
    model_year, doors, air_conditioning, capacity_including_driver, registration_municipality_ibge, created_at, \
    in_service_since, owner_type, owner_document, manufacture_year) \
    VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17)";
pub const SELECT_VEHICLE: &str = "SELECT id, plate, renavam, make, model, color, model_year, doors, \
    air_conditioning, capacity_including_driver, registration_municipality_ibge, created_at, in_service_since, \
    owner_type, owner_document, manufacture_year FROM vehicles WHERE id = $1";
pub const AUTHORIZATION_FACTS_OF_DRIVER: &str = "SELECT a.id, a.valid_from, a.valid_until, r.revoked_at \
    FROM app_authorizations a LEFT JOIN app_authorization_revocations r ON r.authorization_id = a.id \
    WHERE a.driver_id = $1";
pub const AUTHORIZATIONS_OF_DRIVER: &str = "SELECT a.id, a.valid_until, r.revoked_at FROM app_authorizations a \
    LEFT JOIN app_authorization_revocations r ON r.authorization_id = a.id WHERE a.driver_id = $1";
/// The authorizations whose car is now vehicle `$1`: granted with it and not replaced
/// since, or given it by the latest replacement (APP-ART8-P2). The candidates are a union of
/// two index look-ups: as an `OR`, PostgreSQL read every authorization (a grant's check that
/// the car has no other one, under the commit's lock).
pub const AUTHORIZATIONS_OF_VEHICLE: &str = concat!(
    "SELECT a.id, a.valid_until, r.revoked_at FROM app_authorizations a \
    LEFT JOIN app_authorization_revocations r ON r.authorization_id = a.id \
    WHERE a.id IN (SELECT g.id FROM app_authorizations g WHERE g.vehicle_id = $1 \
    UNION SELECT s.authorization_id FROM app_vehicle_substitutions s WHERE s.new_vehicle_id = $1) AND ",
    current_vehicle!(),
    " = $1"
);
/// The ride-hailing authorizations not revoked whose last day is `$1` or later, with the car
/// each binds now and whether it was renewed (the worklist), and the query's tail: one
/// driver's (`AND a.driver_id = $2`) or a page by id.
macro_rules! authorizations_in_force {
    ($tail:literal) => {
        concat!(
            "SELECT a.id, a.number, a.valid_until, a.granted_at, a.driver_id, ",
            current_vehicle!(),
            " AS vehicle_id, \
            (SELECT COUNT(*) FROM app_authorizations x WHERE x.renewal_of = a.id) AS renewals \
            FROM app_authorizations a \
            LEFT JOIN app_authorization_revocations r ON r.authorization_id = a.id \
            WHERE r.authorization_id IS NULL AND a.valid_until >= $1 ",
            $tail
        )
    };
}
pub const AUTHORIZATIONS_IN_FORCE_PAGE: &str =
    authorizations_in_force!("AND a.id > $2 ORDER BY a.id LIMIT $3");
/// The driver's name and the plate of the car it binds now of the authorizations listed
/// after it (`IN ($1, …)`).
pub const AUTHORIZATION_LABELS: &str = concat!(
    "SELECT a.id, d.name, v.plate FROM app_authorizations a \
    JOIN drivers d ON d.id = a.driver_id JOIN vehicles v ON v.id = ",
    current_vehicle!(),
    " WHERE a.id IN"
);
pub const AUTHORIZATIONS_IN_FORCE_OF: &str =
    authorizations_in_force!("AND a.driver_id = $2 ORDER BY a.valid_until, a.number");
pub const BUMP_COUNTER: &str = "INSERT INTO number_counters (series, year, last_value) VALUES ($1, $2, 1) \
    ON CONFLICT (series, year) DO UPDATE SET last_value = number_counters.last_value + 1 RETURNING last_value";
pub const INSERT_NUMBER: &str = "INSERT INTO document_numbers (number, series, year, seq, state, reserved_at, reserved_by) \
    VALUES ($1, $2, $3, $4, 'reserved', $5, $6)";
pub const VOID_NUMBER: &str = "UPDATE document_numbers SET state = 'voided', closed_at = $2, void_reason = $3 \
    WHERE number = $1 AND state = 'reserved'";
pub const STALE_RESERVATIONS: &str = "SELECT number FROM document_numbers \
    WHERE state = 'reserved' AND reserved_at < $1 ORDER BY number";
pub const ISSUE_NUMBER: &str = "UPDATE document_numbers SET state = 'issued', closed_at = $2 \
    WHERE number = $1 AND state = 'reserved'";
pub const INSERT_AUTHORIZATION: &str = "INSERT INTO app_authorizations (id, number, driver_id, vehicle_id, \
    fee_paid_on, valid_from, valid_until, legal_basis_version, granted_at, granted_by, protocolled_on, \
    renewal_of) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)";
/// The authorization that renews `$1`, if any: its id and number.
pub const RENEWAL_OF: &str = "SELECT id, number FROM app_authorizations WHERE renewal_of = $1";
pub const INSERT_EVENT: &str = "INSERT INTO events (entity_type, entity_id, kind, actor, reason, \
    legal_basis_version, occurred_at, data, prev_hash, hash) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)";
/// The hash of the audit chain's last row (`None` before the chain began).
pub const CHAIN_HEAD: &str = "SELECT hash FROM events ORDER BY id DESC LIMIT 1";
/// PostgreSQL: the lock every write transaction takes first, so that rows join
/// the audit chain in commit order.
pub const CHAIN_LOCK: &str = "SELECT pg_advisory_xact_lock(5370014)";
/// The authorization with the car it binds now (`vehicle_id`) and how many times the car
/// was replaced (`substitutions`).
pub const SELECT_AUTHORIZATION: &str = concat!(
    "SELECT a.id, a.number, a.driver_id, ",
    current_vehicle!(),
    " AS vehicle_id, a.fee_paid_on, \
    a.valid_from, a.valid_until, a.legal_basis_version, a.granted_at, a.granted_by, a.protocolled_on, \
    r.revoked_at, r.revoked_by, \
    r.reason, (SELECT COUNT(*) FROM app_vehicle_substitutions s WHERE s.authorization_id = a.id) AS substitutions, \
    a.renewal_of FROM app_authorizations a LEFT JOIN app_authorization_revocations r ON r.authorization_id = a.id \
    WHERE a.id = $1"
);
/// The documents in force of an authorization: those of its latest car (APP-ART8-P2).
pub const SELECT_DOCUMENTS_OF: &str = concat!(
    "SELECT ",
    document_columns!(),
    " FROM documents d \
    WHERE d.authorization_id = $1 AND COALESCE(d.substitution_seq, 0) = COALESCE((SELECT MAX(s.seq) \
    FROM app_vehicle_substitutions s WHERE s.authorization_id = d.authorization_id), 0) ORDER BY d.kind"
);
pub const SELECT_DECREED_DAYS: &str =
    "SELECT date, kind, description, act FROM calendar_days ORDER BY date";
pub const INSERT_DECREED_DAY: &str = "INSERT INTO calendar_days (date, kind, description, act, created_at, \
    created_by) VALUES ($1, $2, $3, $4, $5, $6)";
pub const INSERT_SANCTION: &str = "INSERT INTO app_authorization_sanctions (authorization_id, kind, \
    effective_from, until, reason, legal_basis, created_at, created_by) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)";
pub const SELECT_SANCTIONS: &str = "SELECT kind, effective_from, until, reason, legal_basis \
    FROM app_authorization_sanctions_in_force WHERE authorization_id = $1 ORDER BY id";
/// The acts in force (rectifications applied, and left out).
pub const SELECT_EVENTS: &str = "SELECT e.id, e.kind, e.actor, COALESCE(o.name, e.actor) AS actor_name, \
    e.reason, e.legal_basis_version, e.occurred_at, e.data \
    FROM events_in_force e LEFT JOIN officials o ON o.id = e.actor \
    WHERE e.entity_type = $1 AND e.entity_id = $2 ORDER BY e.id";
/// Every act as recorded, rectifications included (the history endpoints).
pub const SELECT_HISTORY: &str = "SELECT e.id, e.kind, e.actor, COALESCE(o.name, e.actor) AS actor_name, \
    e.reason, e.legal_basis_version, e.occurred_at, e.data \
    FROM events e LEFT JOIN officials o ON o.id = e.actor \
    WHERE e.entity_type = $1 AND e.entity_id = $2 ORDER BY e.id";
pub const INSERT_UPF: &str = "INSERT INTO upf_values (year, centavos, act, created_at, created_by) \
    VALUES ($1, $2, $3, $4, $5)";
pub const SELECT_UPF: &str = "SELECT centavos FROM upf_values WHERE year = $1";
pub const SELECT_UPF_ENTRY: &str = "SELECT centavos, act FROM upf_values WHERE year = $1";
pub const SELECT_PRIOR_AUTOS: &str = "SELECT infraction_id, committed_on FROM app_infraction_autos WHERE driver_id = $1 ORDER BY committed_on";
pub const INSERT_ISSUED_NUMBER: &str = "INSERT INTO document_numbers (number, series, year, seq, state, \
    reserved_at, closed_at, reserved_by) VALUES ($1, $2, $3, $4, 'issued', $5, $5, $6)";
pub const INSERT_AUTO: &str = "INSERT INTO app_infraction_autos (id, number, infraction_id, driver_id, \
    authorization_id, committed_at, committed_on, place, facts, inspector, drawn_up_at, fine_upf, fine_centavos, \
    consequences, legal_basis_version, created_by) \
    VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16)";
pub const SELECT_AUTO: &str = "SELECT a.id, a.number, a.infraction_id, a.driver_id, a.authorization_id, \
    a.committed_at, a.committed_on, a.place, a.facts, a.inspector, a.drawn_up_at, a.fine_upf, a.fine_centavos, \
    a.consequences, a.legal_basis_version, n.method, n.notified_on, n.juntada_on FROM app_infraction_autos a \
    LEFT JOIN app_auto_notices_in_force n ON n.auto_id = a.id WHERE a.id = $1";
pub const SELECT_AUTOS_OF_DRIVER: &str = "SELECT a.id, a.number, a.infraction_id, a.driver_id, \
    a.authorization_id, a.committed_at, a.committed_on, a.place, a.facts, a.inspector, a.drawn_up_at, a.fine_upf, \
    a.fine_centavos, a.consequences, a.legal_basis_version, n.method, n.notified_on, n.juntada_on \
    FROM app_infraction_autos a LEFT JOIN app_auto_notices_in_force n ON n.auto_id = a.id WHERE a.driver_id = $1 \
    ORDER BY a.committed_at DESC, a.number DESC";
pub const AUTO_EXISTS: &str = "SELECT COUNT(*) FROM app_infraction_autos WHERE id = $1";
pub const INSERT_NOTIFICATION: &str = "INSERT INTO app_auto_notifications (auto_id, method, notified_on, \
    juntada_on, recorded_at, recorded_by) VALUES ($1, $2, $3, $4, $5, $6)";
pub const INSERT_PLATFORM: &str = "INSERT INTO platforms (id, cnpj, name, insurance_policy, insurer, \
    insurance_cover_centavos, insurance_valid_until, fee_paid_on, valid_until, legal_basis_version, created_at, \
    created_by) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)";
pub const SELECT_PLATFORM: &str = "SELECT id, cnpj, name, insurance_policy, insurer, insurance_cover_centavos, \
    insurance_valid_until, fee_paid_on, valid_until, legal_basis_version, created_at FROM platforms WHERE id = $1";
pub const INSERT_DATA_REQUEST: &str = "INSERT INTO data_requests (id, platform_id, justification, scope, \
    notified_at, due_at, created_at, created_by) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)";
pub const SELECT_DATA_REQUEST: &str = "SELECT r.id, r.platform_id, r.justification, r.scope, r.notified_at, \
    r.due_at, d.delivered_at, d.sha256, d.signer FROM data_requests r \
    LEFT JOIN data_request_deliveries_in_force d ON d.request_id = r.id WHERE r.id = $1";
/// The data requests no delivery answers yet, the oldest deadline first.
pub const SELECT_PENDING_DATA_REQUESTS: &str = "SELECT r.id, r.platform_id, r.justification, r.scope, \
    r.notified_at, r.due_at, d.delivered_at, d.sha256, d.signer FROM data_requests r \
    LEFT JOIN data_request_deliveries_in_force d ON d.request_id = r.id \
    WHERE d.delivered_at IS NULL ORDER BY r.due_at, r.id";
pub const INSERT_DELIVERY: &str = "INSERT INTO data_request_deliveries (request_id, delivered_at, sha256, signer, \
    recorded_at, recorded_by) VALUES ($1, $2, $3, $4, $5, $6)";
/// The columns of [`SELECT_DOCUMENT_STATUS`].
macro_rules! document_status_columns {
    () => {
        concat!(
            "SELECT ",
            document_columns!(),
            ", v.plate, a.valid_until AS authorization_valid_until, \
    r.revoked_at, a.granted_at, (SELECT MAX(s.seq) \
    FROM app_vehicle_substitutions s WHERE s.authorization_id = a.id) AS latest_substitution, a.driver_id, ",
            current_vehicle!(),
            " AS vehicle_id, sa.kind AS sanction_kind, sa.effective_from AS sanction_from, \
    sa.until AS sanction_until, sa.reason AS sanction_reason, sa.legal_basis AS sanction_basis, \
    v.make AS vehicle_make, v.model AS vehicle_model, v.color AS vehicle_color, dr.name AS driver_name, \
    (SELECT COUNT(*) FROM driver_photos ph WHERE ph.driver_id = a.driver_id) AS driver_photos"
        )
    };
}

/// The tables of [`SELECT_DOCUMENT_STATUS`].
macro_rules! document_status_tables {
    () => {
        " FROM documents d JOIN app_authorizations a ON a.id = d.authorization_id \
    JOIN vehicles v ON v.id = COALESCE((SELECT s.new_vehicle_id FROM app_vehicle_substitutions s \
    WHERE s.authorization_id = a.id AND s.seq = d.substitution_seq), a.vehicle_id) \
    JOIN drivers dr ON dr.id = a.driver_id \
    LEFT JOIN app_authorization_revocations r ON r.authorization_id = a.id \
    LEFT JOIN app_authorization_sanctions_in_force sa ON sa.authorization_id = a.id"
    };
}

/// A document with the plate of the car it was issued for, whether a replacement of the
/// car has superseded it since (APP-ART8-P2), and its authorization's sanctions: one row
/// per sanction (one row when none), so verification reads it all in one round trip.
pub const SELECT_DOCUMENT_STATUS: &str = concat!(
    document_status_columns!(),
    document_status_tables!(),
    " WHERE d.id = $1 ORDER BY sa.id"
);

/// The events in force an authorization's standing reads, from `events_in_force e`: the
/// authorization's events of the kinds in `$kinds`, and those of kind `$register_kind` of its
/// driver and of its car. Each argument is SQL (a column or a placeholder).
macro_rules! standing_events {
    ($authorization:expr, $driver:expr, $vehicle:expr, $kinds:expr, $register_kind:expr) => {
        concat!(
            "FROM events_in_force e WHERE (e.entity_type = 'app_authorization' AND e.entity_id = ",
            $authorization,
            " AND e.kind IN (",
            $kinds,
            ")) OR (e.kind = ",
            $register_kind,
            " AND ((e.entity_type = 'driver' AND e.entity_id = ",
            $driver,
            ") OR (e.entity_type = 'vehicle' AND e.entity_id = ",
            $vehicle,
            ")))"
        )
    };
}

/// The same as a correlated condition on the status query's authorization `a`: kinds `$2`
/// and `$3` of it, kind `$4` of its driver and of the car it names now.
macro_rules! standing_events_of_a {
    () => {
        standing_events!("a.id", "a.driver_id", current_vehicle!(), "$2, $3", "$4")
    };
}

/// An authorization's standing events on their own, in the order recorded: `$1` the
/// authorization, `$2` its driver, `$3` its car; kinds `$4` and `$5` of the authorization, `$6`
/// of the driver and the car.
pub const STANDING_EVENTS: &str = concat!(
    "SELECT e.entity_type, e.kind, e.data ",
    standing_events!("$1", "$2", "$3", "$4, $5", "$6"),
    " ORDER BY e.id"
);

/// [`SELECT_DOCUMENT_STATUS`]'s columns and tables with the events of the authorization's
/// standing in one more column, `standing`: a JSON array of `[entity_type, kind, data]` in the
/// order recorded; then `$which`, the documents read and their rows' order. SQLite.
macro_rules! status_standing_sqlite {
    ($which:expr) => {
        concat!(
            document_status_columns!(),
            ", (SELECT json_group_array(json_array(e.entity_type, e.kind, e.data) ORDER BY e.id) ",
            standing_events_of_a!(),
            ") AS standing",
            document_status_tables!(),
            $which
        )
    };
}
/// The same, PostgreSQL.
macro_rules! status_standing_pg {
    ($which:expr) => {
        concat!(
            document_status_columns!(),
            ", (SELECT COALESCE(json_agg(json_build_array(e.entity_type, e.kind, e.data) ORDER BY e.id), \
    '[]'::json)::text ",
            standing_events_of_a!(),
            ") AS standing",
            document_status_tables!(),
            $which
        )
    };
}

/// [`SELECT_DOCUMENT_STATUS`] with the events of the authorization's standing. The
/// verification of a ride-hailing document reads it all in one round trip. SQLite.
pub const SELECT_DOCUMENT_STATUS_STANDING_SQLITE: &str =
    status_standing_sqlite!(" WHERE d.id = $1 ORDER BY sa.id");
/// The same, PostgreSQL.
pub const SELECT_DOCUMENT_STATUS_STANDING_PG: &str =
    status_standing_pg!(" WHERE d.id = $1 ORDER BY sa.id");
/// [`SELECT_DOCUMENT_STATUS_STANDING_SQLITE`] of the documents listed in `$1` (a JSON array of
/// ids), each one's rows together: the scans' reads gathered in one statement.
pub const SELECT_DOCUMENT_STATUSES_STANDING_SQLITE: &str = status_standing_sqlite!(
    " WHERE d.id IN (SELECT value FROM json_each($1)) ORDER BY d.id, sa.id"
);
/// The same, PostgreSQL: `$1` an array of ids.
pub const SELECT_DOCUMENT_STATUSES_STANDING_PG: &str =
    status_standing_pg!(" WHERE d.id = ANY($1) ORDER BY d.id, sa.id");
pub const SELECT_REVOCATION: &str = "SELECT revoked_at, revoked_by, reason FROM app_authorization_revocations \
    WHERE authorization_id = $1";
pub const AUTHORIZATION_EXISTS: &str = "SELECT COUNT(*) FROM app_authorizations WHERE id = $1";
pub const LOCK_DRIVER: &str = "SELECT id FROM drivers WHERE id = $1 FOR UPDATE";
pub const LOCK_VEHICLE: &str = "SELECT id FROM vehicles WHERE id = $1 FOR UPDATE";
pub const LOCK_AUTHORIZATION: &str =
    "SELECT COUNT(*) FROM (SELECT id FROM app_authorizations WHERE id = $1 FOR UPDATE) x";
pub const INSERT_REVOCATION: &str = "INSERT INTO app_authorization_revocations (authorization_id, revoked_at, \
    revoked_by, reason) VALUES ($1, $2, $3, $4)";
