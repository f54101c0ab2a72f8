//! The two migration folders kept in step: a fresh SQLite and a fresh PostgreSQL database,
//! each migrated by selo itself, have the same tables with the same columns (name,
//! nullability, and kind mapped between the dialects).

use std::collections::BTreeMap;

use serde_json::{Value, json};
use sqlx::Connection;

/// A column's kind as both dialects can state it: SQLite keeps dates, instants and fixed
/// strings as TEXT and booleans as INTEGER, so PostgreSQL's kinds are folded onto those.
fn kind_of(declared: &str) -> &'static str {
    let d = declared.to_ascii_lowercase();
    if d.contains("int") || d.contains("serial") || d == "boolean" {
        "integer"
    } else if d == "blob" || d == "bytea" {
        "blob"
    } else if d.contains("real") || d.contains("double") || d.contains("numeric") {
        "real"
    } else {
        "text"
    }
}

/// table → column → (kind, nullable)
type Schema = BTreeMap<String, BTreeMap<String, (&'static str, bool)>>;

async fn sqlite_schema() -> Schema {
    let dir = tempfile::tempdir().unwrap();
    let url = format!("sqlite://{}/schema.db", dir.path().display());
    let repo = selo::storage::sqlite::SqliteRepository::connect(&url)
        .await
        .unwrap();
    let rows: Vec<(String, String, String, i64, i64)> = sqlx::query_as(
        "SELECT m.name, p.name, p.type, p.\"notnull\", p.pk \
         FROM sqlite_master m JOIN pragma_table_info(m.name) p \
         WHERE m.type = 'table' AND m.name NOT LIKE 'sqlite_%' AND m.name NOT LIKE '_sqlx%'",
    )
    .fetch_all(repo.pool())
    .await
    .unwrap();
    let mut schema = Schema::new();
    for (table, column, declared, not_null, pk) in rows {
        // A PRIMARY KEY column is never NULL in PostgreSQL; SQLite reports it nullable unless
        // declared NOT NULL.
        let nullable = not_null == 0 && pk == 0;
        schema
            .entry(table)
            .or_default()
            .insert(column, (kind_of(&declared), nullable));
    }
    schema
}

/// A new PostgreSQL register, migrated, on the server of `base_url`.
async fn postgres_register(base_url: &str) -> selo::storage::postgres::PgRepository {
    let mut admin = sqlx::PgConnection::connect(base_url).await.unwrap();
    let name = format!("selo_test_{}", uuid::Uuid::new_v4().simple());
    sqlx::query(sqlx::AssertSqlSafe(format!("CREATE DATABASE {name}")))
        .execute(&mut admin)
        .await
        .unwrap();
    let base = base_url.rsplit_once('/').map_or(base_url, |(b, _)| b);
    selo::storage::postgres::PgRepository::connect(&format!("{base}/{name}"))
        .await
        .unwrap()
}

/// A new PostgreSQL register on the server of `TEST_DATABASE_URL`.
async fn test_postgres_register() -> selo::storage::postgres::PgRepository {
    let url = std::env::var("TEST_DATABASE_URL")
        .expect("TEST_DATABASE_URL must name a PostgreSQL server for this test");
    postgres_register(&url).await
}

async fn postgres_schema(base_url: &str) -> Schema {
    let repo = postgres_register(base_url).await;
    let rows: Vec<(String, String, String, String)> = sqlx::query_as(
        "SELECT c.table_name::text, c.column_name::text, c.data_type::text, c.is_nullable::text \
         FROM information_schema.columns c \
         JOIN information_schema.tables t \
           ON t.table_schema = c.table_schema AND t.table_name = c.table_name \
         WHERE c.table_schema = 'public' AND t.table_type = 'BASE TABLE' \
           AND c.table_name NOT LIKE '\\_sqlx%'",
    )
    .fetch_all(repo.pool())
    .await
    .unwrap();
    let mut schema = Schema::new();
    for (table, column, declared, nullable) in rows {
        schema
            .entry(table)
            .or_default()
            .insert(column, (kind_of(&declared), nullable == "YES"));
    }
    schema
}

/// Tables that index another's text for search, built differently by each backend.
const SEARCH_INDEXES: &[&str] = &["driver_names"];

/// Runs where `TEST_DATABASE_URL` names a PostgreSQL server (`.ci/run` runs it there with
/// `--include-ignored`); it never passes without comparing both.
#[tokio::test]
#[ignore = "needs TEST_DATABASE_URL (a PostgreSQL server); .ci/run runs it"]
async fn both_migration_folders_produce_the_same_tables_and_columns() {
    let url = std::env::var("TEST_DATABASE_URL")
        .expect("TEST_DATABASE_URL must name a PostgreSQL server for this test");
    let mut sqlite = sqlite_schema().await;
    let mut postgres = postgres_schema(&url).await;
    // The names' search index is each backend's own: a full-text table (with the tables it
    // keeps) on SQLite, a table with a trigram index on PostgreSQL.
    for index in SEARCH_INDEXES {
        assert!(sqlite.contains_key(*index) && postgres.contains_key(*index));
        sqlite.retain(|t, _| t != index && !t.starts_with(&format!("{index}_")));
        postgres.remove(*index);
    }
    assert!(sqlite.len() > 10, "SQLite has tables: {sqlite:?}");
    let tables = |s: &Schema| s.keys().cloned().collect::<Vec<_>>();
    assert_eq!(tables(&sqlite), tables(&postgres), "the same tables");
    for (table, columns) in &sqlite {
        assert_eq!(
            columns, &postgres[table],
            "table {table}: columns (kind, nullable) differ between SQLite and PostgreSQL"
        );
    }
}

#[test]
fn dialect_kinds_fold_onto_each_other() {
    assert_eq!(kind_of("TIMESTAMPTZ"), kind_of("TEXT"));
    assert_eq!(kind_of("character"), "text");
    assert_eq!(kind_of("bigint"), kind_of("INTEGER"));
    assert_eq!(kind_of("boolean"), "integer");
    assert_eq!(kind_of("bytea"), kind_of("BLOB"));
    assert_ne!(kind_of("bytea"), kind_of("TEXT"));
}

/// The last schema with two document tables (the ride-hailing authorization and sticker in
/// `documents`, every other kind in `register_documents`).
const TWO_TABLE_VERSION: &str = "0013";

/// A migrator of the first migrations of `dialect`, up to the two-table schema, read from
/// copies of the very files selo embeds (so their checksums match when selo later migrates
/// the same database to the latest schema).
async fn two_table_migrator(dialect: &str) -> (tempfile::TempDir, sqlx::migrate::Migrator) {
    let dir = tempfile::tempdir().unwrap();
    let src = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("migrations")
        .join(dialect);
    for entry in std::fs::read_dir(&src).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        if name.as_str() <= format!("{TWO_TABLE_VERSION}_~").as_str() {
            std::fs::copy(&path, dir.path().join(&name)).unwrap();
        }
    }
    let migrator = sqlx::migrate::Migrator::new(dir.path()).await.unwrap();
    (dir, migrator)
}

/// Tables of the two-table schema whose rows are copied as they are (the document tables are
/// split by kind, and verification codes are claimed again by the old triggers on SQLite).
fn plain_tables(all: &[String]) -> Vec<String> {
    all.iter()
        .filter(|t| {
            !matches!(
                t.as_str(),
                "documents" | "register_documents" | "verification_codes"
            ) && !t.starts_with("_sqlx")
                && !t.starts_with("sqlite_")
        })
        .cloned()
        .collect()
}

const OLD_APP_COLUMNS: &str = "id, kind, authorization_id, number, verification_code, token, \
    key_id, pdf, sha256, legal_basis_version, issued_at, substitution_seq";
const OLD_REGISTER_COLUMNS: &str = "id, kind, subject_type, subject_id, company_id, number, \
    verification_code, token, key_id, pdf, sha256, subject_key, valid_until, legal_basis_version, \
    issued_at, facts";
const APP_KINDS: &str = "('app_authorization', 'app_sticker')";
/// The latest schema's documents with their PDFs, as one row each (`{schema}` the SQLite
/// schema's prefix, or empty).
fn documents_with_pdfs(schema: &str) -> String {
    format!(
        "(SELECT d.*, p.pdf FROM {schema}documents d JOIN {schema}pdf_contents p \
         ON p.sha256 = d.sha256) AS documents"
    )
}

/// Writes every row of SQLite database `from` (latest schema) into `to`, a database at the
/// two-table schema, in the shape selo stored them before the move.
async fn sqlite_into_two_tables(from: &str, to: &str) {
    use std::str::FromStr;
    if let Some(dir) = std::path::Path::new(to.trim_start_matches("sqlite://")).parent() {
        std::fs::create_dir_all(dir).unwrap();
    }
    let options = sqlx::sqlite::SqliteConnectOptions::from_str(to)
        .unwrap()
        .create_if_missing(true)
        .foreign_keys(false);
    let mut conn = sqlx::SqliteConnection::connect_with(&options)
        .await
        .unwrap();
    let (_dir, migrator) = two_table_migrator("sqlite").await;
    migrator.run(&mut conn).await.unwrap();
    let from_path = from.trim_start_matches("sqlite://");
    sqlx::query(sqlx::AssertSqlSafe(format!(
        "ATTACH DATABASE '{from_path}' AS latest"
    )))
    .execute(&mut conn)
    .await
    .unwrap();
    let tables: Vec<String> =
        sqlx::query_scalar("SELECT name FROM main.sqlite_master WHERE type = 'table'")
            .fetch_all(&mut conn)
            .await
            .unwrap();
    for t in plain_tables(&tables) {
        let columns: Vec<String> = sqlx::query_scalar(sqlx::AssertSqlSafe(format!(
            "SELECT name FROM pragma_table_info('{t}')"
        )))
        .fetch_all(&mut conn)
        .await
        .unwrap();
        let columns = columns.join(", ");
        sqlx::query(sqlx::AssertSqlSafe(format!(
            // OR IGNORE: rows the migrations seed (holidays) are there already.
            "INSERT OR IGNORE INTO main.{t} ({columns}) SELECT {columns} FROM latest.{t}"
        )))
        .execute(&mut conn)
        .await
        .unwrap();
    }
    for sql in [
        format!(
            "INSERT INTO main.documents ({OLD_APP_COLUMNS}) SELECT {OLD_APP_COLUMNS} FROM {} WHERE kind IN {APP_KINDS}",
            documents_with_pdfs("latest.")
        ),
        format!(
            "INSERT INTO main.register_documents ({OLD_REGISTER_COLUMNS}) SELECT {OLD_REGISTER_COLUMNS} FROM {} WHERE kind NOT IN {APP_KINDS}",
            documents_with_pdfs("latest.")
        ),
    ] {
        sqlx::query(sqlx::AssertSqlSafe(sql))
            .execute(&mut conn)
            .await
            .unwrap();
    }
}

/// Copies `select` of PostgreSQL database `from` into `to`'s `target`, with COPY.
async fn pg_copy(
    from: &mut sqlx::PgConnection,
    to: &mut sqlx::PgConnection,
    select: &str,
    target: &str,
) {
    use futures_util::TryStreamExt;
    let chunks: Vec<_> = from
        .copy_out_raw(&format!("COPY ({select}) TO STDOUT"))
        .await
        .unwrap()
        .try_collect()
        .await
        .unwrap();
    let mut copy = to
        .copy_in_raw(&format!("COPY {target} FROM STDIN"))
        .await
        .unwrap();
    for chunk in chunks {
        copy.send(chunk).await.unwrap();
    }
    copy.finish().await.unwrap();
}

/// Writes every row of PostgreSQL database `from` (latest schema) into the new database `to`
/// at the two-table schema, in the shape selo stored them before the move.
async fn postgres_into_two_tables(from: &str, to: &str) {
    let mut source = sqlx::PgConnection::connect(from).await.unwrap();
    let mut target = sqlx::PgConnection::connect(to).await.unwrap();
    let (_dir, migrator) = two_table_migrator("postgres").await;
    migrator.run(&mut target).await.unwrap();
    // Rows go in as they were: no foreign-key order, no trigger (codes are copied too).
    sqlx::query("SET session_replication_role = replica")
        .execute(&mut target)
        .await
        .unwrap();
    let tables: Vec<String> = sqlx::query_scalar(
        "SELECT table_name::text FROM information_schema.tables \
         WHERE table_schema = 'public' AND table_type = 'BASE TABLE'",
    )
    .fetch_all(&mut target)
    .await
    .unwrap();
    let plain = plain_tables(&tables);
    // Rows the migrations seed (holidays) come again with the copy.
    sqlx::query(sqlx::AssertSqlSafe(format!(
        "TRUNCATE {}, documents, register_documents, verification_codes",
        plain.join(", ")
    )))
    .execute(&mut target)
    .await
    .unwrap();
    for t in plain {
        let columns: Vec<String> = sqlx::query_scalar(
            "SELECT column_name::text FROM information_schema.columns \
             WHERE table_schema = 'public' AND table_name = $1 ORDER BY ordinal_position",
        )
        .bind(&t)
        .fetch_all(&mut target)
        .await
        .unwrap();
        let columns = columns.join(", ");
        pg_copy(
            &mut source,
            &mut target,
            &format!("SELECT {columns} FROM {t}"),
            &format!("{t} ({columns})"),
        )
        .await;
    }
    pg_copy(
        &mut source,
        &mut target,
        &format!(
            "SELECT {OLD_APP_COLUMNS} FROM {} WHERE kind IN {APP_KINDS}",
            documents_with_pdfs("")
        ),
        &format!("documents ({OLD_APP_COLUMNS})"),
    )
    .await;
    pg_copy(
        &mut source,
        &mut target,
        &format!(
            "SELECT {OLD_REGISTER_COLUMNS} FROM {} WHERE kind NOT IN {APP_KINDS}",
            documents_with_pdfs("")
        ),
        &format!("register_documents ({OLD_REGISTER_COLUMNS})"),
    )
    .await;
    // The codes' claims, which the triggers would have made (the schema of today has no
    // table of codes to copy).
    sqlx::query(
        "INSERT INTO verification_codes (code) SELECT verification_code FROM documents \
         UNION SELECT verification_code FROM register_documents",
    )
    .execute(&mut target)
    .await
    .unwrap();
}

/// What a verifier reads of every document: the answer to its token, to its printed code
/// and to its PDF.
async fn verification_answers(
    app: &crate::helpers::TestApp,
    docs: &[(String, String, Vec<u8>)],
) -> Vec<Value> {
    let mut answers = Vec::new();
    for (token, code, pdf) in docs {
        let (status, body) = app.verify(token).await;
        answers.push(json!({"token": status.as_u16(), "body": body}));
        let res = app.get(&format!("/api/v1/verify/code/{code}")).await;
        answers.push(
            json!({"code": res.status().as_u16(), "body": res.json::<Value>().await.unwrap()}),
        );
        let res = app
            .client
            .post(app.url("/api/v1/verify/pdf"))
            .header("Content-Type", "application/pdf")
            .body(pdf.clone())
            .send()
            .await
            .unwrap();
        answers.push(
            json!({"pdf": res.status().as_u16(), "body": res.json::<Value>().await.unwrap()}),
        );
    }
    answers
}

/// The one document table. Documents issued on the two-table schema (both laws'
/// kinds, as selo stored them then) verify exactly as before once selo moves them: by token,
/// by printed code and by PDF, on whichever backend the suite runs.
#[tokio::test]
async fn documents_stored_in_the_two_table_schema_verify_the_same_after_the_move() {
    // Issued by selo itself: a ride-hailing authorization and sticker, a charter Termo.
    let before = crate::helpers::spawn_app().await;
    before.granted().await;
    let company = crate::charter::company(&before, "2027-12-31").await;
    assert_eq!(
        crate::charter::termo(&before, &company).await.status(),
        reqwest::StatusCode::CREATED
    );
    let store = selo::storage::Store::connect(&before.database_url)
        .await
        .unwrap();
    let mut docs = Vec::new();
    for kind in ["app_authorization", "app_sticker", "charter_termo"] {
        let rows = verification_material(&before.database_url, kind).await;
        assert_eq!(rows.len(), 1, "one {kind} issued");
        let (id, token, code) = rows.into_iter().next().unwrap();
        let pdf = store.document_pdf(id).await.unwrap().unwrap();
        docs.push((token, code, pdf));
    }
    let answers_before = verification_answers(&before, &docs).await;
    assert!(
        answers_before
            .iter()
            .all(|a| a["body"]["verdict"] == "valid"),
        "{answers_before:#?}"
    );

    // The same rows, in the two-table shape, in a database at version 13.
    let data_dir = tempfile::tempdir().unwrap();
    let (old_url, backend) = crate::helpers::another_database(data_dir.path()).await;
    if backend == "sqlite" {
        sqlite_into_two_tables(&before.database_url, &old_url).await;
    } else {
        postgres_into_two_tables(&before.database_url, &old_url).await;
    }
    let old_tables = table_names(&old_url).await;
    assert!(
        old_tables.contains(&"register_documents".to_owned()),
        "{old_tables:?}"
    );

    // selo starts on it with the same keys: the move runs, and every answer is the same.
    let keys = tempfile::tempdir().unwrap();
    crate::helpers::copy_dir(before.keys_dir.path(), keys.path());
    let after = crate::helpers::spawn_app_on(old_url.clone(), backend, keys, data_dir).await;
    let new_tables = table_names(&old_url).await;
    assert!(
        !new_tables.contains(&"register_documents".to_owned()),
        "{new_tables:?}"
    );
    let answers_after = verification_answers(&after, &docs).await;
    assert_eq!(answers_before, answers_after);
}

/// (id, token, printed code) of the documents of `kind`.
async fn verification_material(url: &str, kind: &str) -> Vec<(uuid::Uuid, String, String)> {
    let sql = "SELECT id, token, verification_code FROM documents WHERE kind = $1";
    let rows: Vec<(String, String, String)> = if url.starts_with("sqlite") {
        let mut c = sqlx::SqliteConnection::connect(url).await.unwrap();
        sqlx::query_as(sql)
            .bind(kind)
            .fetch_all(&mut c)
            .await
            .unwrap()
    } else {
        let mut c = sqlx::PgConnection::connect(url).await.unwrap();
        sqlx::query_as(sql)
            .bind(kind)
            .fetch_all(&mut c)
            .await
            .unwrap()
    };
    rows.into_iter()
        .map(|(id, t, c)| (uuid::Uuid::parse_str(&id).unwrap(), t, c))
        .collect()
}

async fn table_names(url: &str) -> Vec<String> {
    if url.starts_with("sqlite") {
        let mut c = sqlx::SqliteConnection::connect(url).await.unwrap();
        sqlx::query_scalar("SELECT name FROM sqlite_master WHERE type = 'table'")
            .fetch_all(&mut c)
            .await
            .unwrap()
    } else {
        let mut c = sqlx::PgConnection::connect(url).await.unwrap();
        sqlx::query_scalar(
            "SELECT table_name::text FROM information_schema.tables WHERE table_schema = 'public'",
        )
        .fetch_all(&mut c)
        .await
        .unwrap()
    }
}

/// A database migrated by a newer selo: this binary refuses to start on it, saying so, and
/// leaves it as it is.
#[tokio::test]
async fn an_older_binary_refuses_a_database_a_newer_one_migrated() {
    let app = crate::helpers::spawn_app().await;
    app.exec_sql(&[
        "INSERT INTO _sqlx_migrations (version, description, success, checksum, execution_time) \
         VALUES (99001, 'from a newer selo', TRUE, '', 1)",
    ])
    .await;
    let Err(refused) = selo::storage::Store::connect(&app.database_url).await else {
        panic!("a newer database is refused");
    };
    let text = refused.to_string();
    assert!(text.contains("newer version of selo"), "{text}");
    assert!(text.contains("99001"), "{text}");
    assert_eq!(
        app.count("SELECT COUNT(*) FROM _sqlx_migrations WHERE version = 99001")
            .await,
        1
    );
}

/// Every table a verification may read logs its changes (the status list and the
/// verification cache follow the log): a new table either gets its trigger in the change
/// log's migration or is named here as one no verdict depends on.
#[tokio::test]
async fn every_table_a_verdict_reads_logs_its_changes() {
    const NOT_READ_BY_A_VERDICT: &[&str] = &[
        "_sqlx_migrations",
        "sqlite_sequence",
        "register_changes",
        "number_counters",
        "document_numbers",
        "pdf_contents",
        "document_pdf_updates",
        // The names' search index (on SQLite a full-text table and the tables it keeps).
        "driver_names",
        "driver_names_config",
        "driver_names_content",
        "driver_names_data",
        "driver_names_docsize",
        "driver_names_idx",
        "audit_checkpoints",
        "officials",
        "official_tokens",
        "official_sessions",
        "platforms",
        "data_requests",
        "data_request_deliveries",
        "data_request_delivery_rectifications",
        "outbox_messages",
        "outbox_attempts",
        "applicants",
        "applicant_codes",
        "applicant_sessions",
        "applicant_links",
        "applicant_oidc_requests",
        "reminders_sent",
        "filings",
        "filing_files",
        "passenger_reports",
        "platform_credentials",
        "platform_drivers",
        "platform_webhooks",
        "platform_files",
        "webhook_relay",
        "webhook_deliveries",
        "webhook_attempts",
    ];
    let app = crate::helpers::spawn_app().await;
    let logged: Vec<String> = if app.backend == "postgres" {
        let mut c = sqlx::PgConnection::connect(&app.database_url)
            .await
            .unwrap();
        sqlx::query_scalar(
            "SELECT c.relname::text FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid \
             WHERE t.tgname = c.relname || '_changes'",
        )
        .fetch_all(&mut c)
        .await
        .unwrap()
    } else {
        let mut c = sqlx::SqliteConnection::connect(&app.database_url)
            .await
            .unwrap();
        sqlx::query_scalar(
            "SELECT tbl_name FROM sqlite_master WHERE type = 'trigger' \
             AND name = tbl_name || '_changes_insert'",
        )
        .fetch_all(&mut c)
        .await
        .unwrap()
    };
    let tables: Vec<String> = if app.backend == "postgres" {
        let mut c = sqlx::PgConnection::connect(&app.database_url)
            .await
            .unwrap();
        sqlx::query_scalar(
            "SELECT table_name::text FROM information_schema.tables \
             WHERE table_schema = 'public' AND table_type = 'BASE TABLE'",
        )
        .fetch_all(&mut c)
        .await
        .unwrap()
    } else {
        table_names(&app.database_url).await
    };
    let mut unlogged: Vec<String> = tables
        .into_iter()
        .filter(|t| !logged.contains(t) && !NOT_READ_BY_A_VERDICT.contains(&t.as_str()))
        .collect();
    unlogged.sort();
    assert!(
        unlogged.is_empty(),
        "tables whose changes no verification would see: {unlogged:?}"
    );
    assert!(logged.iter().any(|t| t == "events"), "{logged:?}");
}

/// On PostgreSQL, a grant's check that its car has no other authorization reads the
/// candidates through indexes: with an `OR` of the car and a subquery of the replacements, its
/// planner read every authorization, under the commit's lock, at every grant. Sequential scans
/// are priced out (that plan then walks the whole primary key instead): the candidates must
/// come from the car's index and the replacements' index.
#[tokio::test]
#[ignore = "needs TEST_DATABASE_URL (a PostgreSQL server); .ci/run runs it"]
async fn postgres_reads_the_authorizations_of_a_car_by_index() {
    let repo = test_postgres_register().await;
    let mut conn = repo.pool().acquire().await.unwrap();
    sqlx::query("SET enable_seqscan = off")
        .execute(&mut *conn)
        .await
        .unwrap();
    let plan: Vec<String> = sqlx::query_scalar(sqlx::AssertSqlSafe(format!(
        "EXPLAIN {}",
        selo::storage::sql::AUTHORIZATIONS_OF_VEHICLE
    )))
    .bind("7d1f0c1e-0000-4000-8000-000000000001")
    .fetch_all(&mut *conn)
    .await
    .unwrap();
    let plan = plan.join("\n");
    assert!(!plan.contains("Seq Scan"), "{plan}");
    assert!(plan.contains("app_authorizations_vehicle"), "{plan}");
    assert!(plan.contains("app_vehicle_substitutions_new"), "{plan}");
}

/// On PostgreSQL a part of a name shared by many drivers is answered from the newest fifty
/// matches (the names keep their driver's registration, copied by a trigger as each name is
/// written): the hits are the fifty newest drivers that match, newest first, whatever the
/// order the names were written in.
#[tokio::test]
#[ignore = "needs TEST_DATABASE_URL (a PostgreSQL server); .ci/run runs it"]
async fn postgres_finds_the_newest_drivers_sharing_part_of_a_name() {
    let repo = test_postgres_register().await;
    let first = chrono::DateTime::parse_from_rfc3339("2026-01-05T12:00:00Z")
        .unwrap()
        .to_utc();
    // 60 drivers named "… Silva", written in an order unlike their registration's (the newest
    // are not the last written), and one other.
    let mut newest_first = Vec::new();
    for i in (0..60).map(|i| (i * 37) % 60).chain([60]) {
        let id = uuid::Uuid::new_v4().to_string();
        let name = if i == 60 {
            "Joana Pereira".to_owned()
        } else {
            format!("Maria {i} Silva")
        };
        let registered = first + chrono::Duration::hours(i);
        sqlx::query(
            "INSERT INTO drivers (id, name, cpf, cnh_number, cnh_category, \
             cnh_first_license_date, cnh_ear, cnh_expires_on, created_at) \
             VALUES ($1, $2, $3, $4, 'B', '2015-01-01', TRUE, '2030-01-01', $5)",
        )
        .bind(&id)
        .bind(&name)
        .bind(format!("{:011}", 1000 + i))
        .bind(format!("{:011}", 2000 + i))
        .bind(registered)
        .execute(repo.pool())
        .await
        .unwrap();
        sqlx::query("INSERT INTO driver_names (folded, id) VALUES ($1, $2)")
            .bind(selo::storage::search::folded(&name))
            .bind(&id)
            .execute(repo.pool())
            .await
            .unwrap();
        if i < 60 {
            newest_first.push((registered, id));
        }
    }
    let copied: i64 = sqlx::query_scalar(
        "SELECT COUNT(*) FROM driver_names n JOIN drivers d ON d.id = n.id \
         WHERE n.created_at = d.created_at",
    )
    .fetch_one(repo.pool())
    .await
    .unwrap();
    assert_eq!(copied, 61, "each name keeps its driver's registration");
    newest_first.sort_by_key(|e| std::cmp::Reverse(e.0));
    let expected: Vec<String> = newest_first
        .into_iter()
        .take(50)
        .map(|(_, id)| id)
        .collect();
    let store = selo::storage::Store::Postgres(repo);
    let hits = store.search("silva").await.unwrap();
    let found: Vec<String> = hits
        .iter()
        .filter(|h| h.kind == "driver")
        .map(|h| h.id.clone())
        .collect();
    assert_eq!(found, expected, "{hits:?}");
    assert_eq!(store.search("pereira").await.unwrap().len(), 1);
}
