//! The two migration folders kept in step: a fresh SQLite and a fresh PostgreSQL database,
//! each migrated by selo itself, have the same tables with the same columns (name,
//! nullability, and kind mapped between the dialects).

use std::collections::BTreeMap;

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

async fn postgres_schema(base_url: &str) -> Schema {
    let mut admin = sqlx::PgConnection::connect(base_url).await.unwrap();
    let name = format!("selo_test_{}", uuid::Uuid::new_v4().simple());
    sqlx::query(sqlx::AssertSqlSafe(format!("CREATE DATABASE {name}")))
        .execute(&mut admin)
        .await
        .unwrap();
    let base = base_url.rsplit_once('/').map_or(base_url, |(b, _)| b);
    let repo = selo::storage::postgres::PgRepository::connect(&format!("{base}/{name}"))
        .await
        .unwrap();
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

/// Runs where `TEST_DATABASE_URL` names a PostgreSQL server (`.ci/run` runs it there with
/// `--include-ignored`); it never passes without comparing both.
#[tokio::test]
#[ignore = "needs TEST_DATABASE_URL (a PostgreSQL server); .ci/run runs it"]
async fn both_migration_folders_produce_the_same_tables_and_columns() {
    let url = std::env::var("TEST_DATABASE_URL")
        .expect("TEST_DATABASE_URL must name a PostgreSQL server for this test");
    let sqlite = sqlite_schema().await;
    let postgres = postgres_schema(&url).await;
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
