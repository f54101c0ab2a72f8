//! The macros every register file of both backends writes its SQL with: one body
//! expanded per pool type, events appended and checked, documents inserted.

/// Runs `$body` with `$pool` bound to the backend's pool and `$begin()` opening a write
/// transaction (`BEGIN IMMEDIATE` on SQLite, so check-then-write never deadlocks) whose
/// commit tells the node's caches (`changes::Tx`).
/// With a third name, `$pg` is `true` on PostgreSQL (for `FOR UPDATE`, which SQLite lacks
/// and does not need under `BEGIN IMMEDIATE`).
macro_rules! on_backend {
    ($store:expr, |$pool:ident, $begin:ident, $pg:ident| $body:expr) => {
        match $store {
            Store::Sqlite(r) => {
                let $pool = r.pool();
                let $begin = || {
                    $crate::storage::changes::Tx::open(
                        r.changes().clone(),
                        $pool.begin_with("BEGIN IMMEDIATE"),
                    )
                };
                let $pg = false;
                $body
            }
            Store::Postgres(r) => {
                let $pool = r.pool();
                // Every write transaction takes the audit chain's lock first: rows
                // join the chain in commit order, and always first, so it never deadlocks.
                let $begin = || async move {
                    let mut tx =
                        $crate::storage::changes::Tx::open(r.changes().clone(), $pool.begin())
                            .await?;
                    sqlx::query($crate::storage::sql::CHAIN_LOCK)
                        .execute(&mut *tx)
                        .await?;
                    Ok::<_, sqlx::Error>(tx)
                };
                let $pg = true;
                $body
            }
        }
    };
    ($store:expr, |$pool:ident, $begin:ident| $body:expr) => {
        on_backend!($store, |$pool, $begin, _is_pg| $body)
    };
}

/// Appends one event to the audit chain inside the open write transaction `$tx`:
/// reads the chain's head, hashes the row after it (`domain::audit`) and inserts it with both
/// hashes. Writers are serialized (`BEGIN IMMEDIATE`; on PostgreSQL the lock every write
/// transaction takes first), so the head read is the row this one follows. Text arguments
/// are anything `AsRef<str>`; `$reason` and `$lbv` are such text or `Option`s of it.
macro_rules! append_event {
    ($tx:expr, $entity_type:expr, $entity_id:expr, $kind:expr, $actor:expr, $reason:expr, $lbv:expr, $at:expr, $data:expr $(,)?) => {{
        let head: Option<(Option<String>,)> = sqlx::query_as($crate::storage::sql::CHAIN_HEAD)
            .fetch_optional(&mut *$tx)
            .await?;
        let prev = head
            .and_then(|(h,)| h)
            .unwrap_or_else(|| $crate::domain::audit::GENESIS.to_owned());
        let (entity_type, entity_id, kind, actor) = ($entity_type, $entity_id, $kind, $actor);
        let (reason, lbv, data) = ($reason, $lbv, $data);
        let fields = $crate::domain::audit::EventFields {
            entity_type: $crate::storage::text(&entity_type),
            entity_id: $crate::storage::text(&entity_id),
            kind: $crate::storage::text(&kind),
            actor: $crate::storage::text(&actor),
            reason: $crate::storage::opt_text(&reason),
            legal_basis_version: $crate::storage::opt_text(&lbv),
            occurred_at: $crate::domain::audit::to_micros($at),
            data: $crate::storage::text(&data),
        };
        let hash = fields.link(&prev);
        sqlx::query($crate::storage::sql::INSERT_EVENT)
            .bind(fields.entity_type)
            .bind(fields.entity_id)
            .bind(fields.kind)
            .bind(fields.actor)
            .bind(fields.reason)
            .bind(fields.legal_basis_version)
            .bind(fields.occurred_at)
            .bind(fields.data)
            .bind(&prev)
            .bind(&hash)
            .execute(&mut *$tx)
            .await?;
    }};
}

/// Inside the open write transaction `$tx`: `Err(Conflict("concurrent"))` unless the entity
/// of `$head` (a `charter::EntityHead`) still has the last event it had when read. Writers are
/// serialized (`on_backend!`), so the head read here is the one the commit follows.
macro_rules! ensure_head {
    ($tx:expr, $head:expr) => {{
        let head: &$crate::storage::charter::EntityHead<'_> = $head;
        let now: Option<i64> = sqlx::query_scalar($crate::storage::charter::LAST_EVENT)
            .bind(head.entity_type)
            .bind(head.entity_id.to_string())
            .fetch_one(&mut *$tx)
            .await?;
        if now != head.last_event {
            return Err($crate::storage::StorageError::Conflict("concurrent"));
        }
    }};
}

/// Appends `charter::NewEvent`s to `events` inside the open transaction `$tx`.
macro_rules! insert_events {
    ($tx:expr, $events:expr) => {
        for e in $events {
            append_event!(
                $tx,
                e.entity_type,
                e.entity_id.to_string(),
                e.kind,
                e.actor,
                e.reason,
                Some(&e.legal_basis_version),
                e.at,
                e.data.to_string(),
            );
        }
    };
}

/// Inserts `$signed` (a `documents::SignedDocument`) with its PDF bytes in the open
/// transaction `$tx`; one issued without the timestamp the deployment asks for says so in the
/// history of the record it is about.
macro_rules! insert_document {
    ($tx:expr, $d:expr, $pdf:expr) => {
        sqlx::query($crate::storage::documents::INSERT)
            .bind($d.id.to_string())
            .bind($d.kind.as_str())
            .bind(&$d.subject_type)
            .bind($d.subject_id.to_string())
            .bind($d.company_id.map(|c| c.to_string()))
            .bind($d.authorization_id.map(|a| a.to_string()))
            .bind($d.substitution_seq)
            .bind(&$d.number)
            .bind(&$d.verification_code)
            .bind(&$d.token)
            .bind(&$d.key_id)
            .bind(&$d.sha256)
            .bind(&$d.subject_key)
            .bind($d.valid_until)
            .bind(&$d.legal_basis_version)
            .bind($d.issued_at)
            .bind($d.facts.as_ref().map(ToString::to_string))
            .bind(&$d.issued_by)
            .bind(&$d.profile_version)
            .execute(&mut *$tx)
            .await?;
        sqlx::query($crate::storage::documents::INSERT_PDF)
            .bind($crate::storage::documents::content_key($pdf))
            .bind($pdf)
            .execute(&mut *$tx)
            .await?;
    };
    ($tx:expr, $signed:expr) => {
        let signed: &$crate::storage::documents::SignedDocument = &$signed;
        insert_document!($tx, signed.document, signed.pdf.as_slice());
        if let Some(why) = &signed.untimestamped {
            let d = &signed.document;
            append_event!(
                $tx,
                &d.subject_type,
                d.subject_id.to_string(),
                "issued_without_timestamp",
                "system",
                Some(why.as_str()),
                Some(&d.legal_basis_version),
                d.issued_at,
                serde_json::json!({
                    "document_id": d.id,
                    "kind": d.kind.as_str(),
                    "number": d.number,
                    "detail": "documento emitido sem carimbo do tempo: a autoridade de carimbo do tempo não respondeu",
                })
                .to_string(),
            );
        }
    };
}

/// Whether any ride-hailing authorization listed by `$query` for `$id` still binds its
/// driver and car at `$now` (APP-ART8): storage fetches the facts, `domain` decides.
/// Evaluates to `Result<bool, StorageError>`.
macro_rules! binds_any {
    ($conn:expr, $query:expr, $id:expr, $now:expr) => {
        binds_any!($conn, $query, $id, $now, None::<uuid::Uuid>)
    };
    ($conn:expr, $query:expr, $id:expr, $now:expr, $except:expr) => {
        async {
            let rows: Vec<(
                String,
                chrono::NaiveDate,
                Option<chrono::DateTime<chrono::Utc>>,
            )> = sqlx::query_as($query)
                .bind($id.to_string())
                .fetch_all(&mut *$conn)
                .await?;
            let except: Option<uuid::Uuid> = $except;
            let except = except.map(|e| e.to_string());
            for (authorization_id, valid_until, revoked_at) in rows {
                if except.as_deref() == Some(authorization_id.as_str()) {
                    continue;
                }
                let sanctions: Vec<$crate::storage::SanctionRow> =
                    sqlx::query_as($crate::storage::sql::SELECT_SANCTIONS)
                        .bind(&authorization_id)
                        .fetch_all(&mut *$conn)
                        .await?;
                let sanctions = sanctions
                    .into_iter()
                    .map($crate::domain::ride_hailing::sanctions::Sanction::try_from)
                    .collect::<Result<Vec<_>, _>>()?;
                if $crate::domain::ride_hailing::sanctions::binds_driver_and_vehicle(
                    valid_until,
                    revoked_at,
                    &sanctions,
                    $now,
                ) {
                    return Ok::<bool, $crate::storage::StorageError>(true);
                }
            }
            Ok(false)
        }
    };
}

/// The columns of the one documents table, as `documents::DocumentRow` reads them (alias `d`).
macro_rules! document_columns {
    () => {
        "d.id, d.kind, d.subject_type, d.subject_id, d.company_id, d.authorization_id, \
        d.substitution_seq, d.number, d.verification_code, d.token, d.key_id, d.sha256, d.subject_key, \
        d.valid_until, d.legal_basis_version, d.issued_at, d.facts, d.issued_by, d.profile_version"
    };
}

/// Applies `$migrator` on `$pool`, after bringing the records of reworded migrations up to
/// date (`storage::reworded`): `$has_table` counts the migrations table, `$reworded` lists the
/// backend's reworded versions. One body for both backends, whose pools differ in type.
macro_rules! migrate_reworded {
    ($pool:expr, $migrator:expr, $has_table:expr, $reworded:expr) => {
        async {
            let recorded: i64 = sqlx::query_scalar($has_table)
                .fetch_one($pool)
                .await
                .map_err(sqlx::migrate::MigrateError::Execute)?;
            if recorded > 0 {
                for (version, former, current) in
                    $crate::storage::reworded::updates(&$migrator, $reworded)
                {
                    sqlx::query($crate::storage::reworded::UPDATE)
                        .bind(current)
                        .bind(version)
                        .bind(former)
                        .execute($pool)
                        .await
                        .map_err(sqlx::migrate::MigrateError::Execute)?;
                }
            }
            $migrator.run($pool).await
        }
    };
}
