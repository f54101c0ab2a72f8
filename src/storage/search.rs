//! What the back office's search box and lists read: records of both laws found by
//! plate, CPF, CNPJ, name, document number or printed code, and the registers listed newest
//! first, a page at a time. The caller filters by the official's roles.

use super::{StorageError, Store};

/// What a hit is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HitKind {
    Driver,
    Vehicle,
    Authorization,
    Platform,
    RideHailingAuto,
    CharterCompany,
    CharterVehicle,
    CharterDriver,
    CharterTermo,
    CharterAuto,
    Document,
}

impl HitKind {
    pub fn parse(s: &str) -> Option<Self> {
        Some(match s {
            "driver" => Self::Driver,
            "vehicle" => Self::Vehicle,
            "authorization" => Self::Authorization,
            "platform" => Self::Platform,
            "app_auto" => Self::RideHailingAuto,
            "company" => Self::CharterCompany,
            "charter_vehicle" => Self::CharterVehicle,
            "charter_driver" => Self::CharterDriver,
            "termo" => Self::CharterTermo,
            "charter_auto" => Self::CharterAuto,
            "document" => Self::Document,
            _ => return None,
        })
    }

    /// Whether the ride-hailing law governs it (documents: both, decided per document).
    pub fn is_ride_hailing(self) -> bool {
        matches!(
            self,
            Self::Driver
                | Self::Vehicle
                | Self::Authorization
                | Self::Platform
                | Self::RideHailingAuto
        )
    }
}

/// One record found.
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct Hit {
    pub kind: String,
    pub id: String,
    pub title: String,
    pub detail: String,
    /// For documents: the document's kind (`app_sticker`, `charter_termo`…).
    pub sub: String,
}

/// Each register: its kind, and the SQL of its rows as hits (`$1` the filter clause applies).
const SOURCES: &[(&str, &str)] = &[
    (
        "driver",
        "SELECT 'driver' AS kind, id, name AS title, cpf AS detail, '' AS sub, created_at FROM drivers",
    ),
    (
        "vehicle",
        "SELECT 'vehicle' AS kind, id, plate AS title, make || ' ' || model || ' ' || color AS detail, \
         '' AS sub, created_at FROM vehicles",
    ),
    (
        "authorization",
        "SELECT 'authorization' AS kind, a.id, a.number AS title, d.name || ' · ' || v.plate AS detail, \
         '' AS sub, a.granted_at AS created_at FROM app_authorizations a \
         JOIN drivers d ON d.id = a.driver_id JOIN vehicles v ON v.id = a.vehicle_id",
    ),
    (
        "platform",
        "SELECT 'platform' AS kind, id, name AS title, cnpj AS detail, '' AS sub, created_at FROM platforms",
    ),
    (
        "app_auto",
        "SELECT 'app_auto' AS kind, x.id, x.number AS title, d.name || ' · ' || x.infraction_id AS detail, \
         '' AS sub, x.drawn_up_at AS created_at FROM app_infraction_autos x JOIN drivers d ON d.id = x.driver_id",
    ),
    (
        "company",
        "SELECT 'company' AS kind, id, cnpj AS title, data AS detail, '' AS sub, created_at FROM charter_companies",
    ),
    (
        "charter_vehicle",
        "SELECT 'charter_vehicle' AS kind, id, plate AS title, COALESCE((SELECT k.data FROM charter_companies k WHERE k.id = charter_vehicles.company_id), '') AS detail, \
         '' AS sub, created_at FROM charter_vehicles",
    ),
    (
        "charter_driver",
        "SELECT 'charter_driver' AS kind, id, cpf AS title, data AS detail, '' AS sub, created_at FROM charter_drivers",
    ),
    (
        "termo",
        "SELECT 'termo' AS kind, id, number AS title, COALESCE((SELECT k.data FROM charter_companies k WHERE k.id = charter_termos.company_id), '') AS detail, '' AS sub, created_at FROM charter_termos",
    ),
    (
        "charter_auto",
        "SELECT 'charter_auto' AS kind, id, number AS title, COALESCE((SELECT k.data FROM charter_companies k WHERE k.id = charter_autos.company_id), '') AS detail, \
         '' AS sub, created_at FROM charter_autos",
    ),
    (
        "document",
        "SELECT 'document' AS kind, id, number AS title, verification_code AS detail, kind AS sub, \
         issued_at AS created_at FROM documents",
    ),
];

/// Letters with diacritics as names are written in Brazil, and the letter a search reads them
/// as: "antonio" finds "Antônio". Both cases, since SQLite's `LOWER` folds ASCII only.
#[rustfmt::skip]
const FOLDS: &[(char, char)] = &[
    ('á', 'a'), ('à', 'a'), ('â', 'a'), ('ã', 'a'), ('ä', 'a'),
    ('é', 'e'), ('è', 'e'), ('ê', 'e'), ('ë', 'e'),
    ('í', 'i'), ('ì', 'i'), ('î', 'i'), ('ï', 'i'),
    ('ó', 'o'), ('ò', 'o'), ('ô', 'o'), ('õ', 'o'), ('ö', 'o'),
    ('ú', 'u'), ('ù', 'u'), ('û', 'u'), ('ü', 'u'),
    ('ç', 'c'), ('ñ', 'n'),
    ('Á', 'a'), ('À', 'a'), ('Â', 'a'), ('Ã', 'a'), ('Ä', 'a'),
    ('É', 'e'), ('È', 'e'), ('Ê', 'e'), ('Ë', 'e'),
    ('Í', 'i'), ('Ì', 'i'), ('Î', 'i'), ('Ï', 'i'),
    ('Ó', 'o'), ('Ò', 'o'), ('Ô', 'o'), ('Õ', 'o'), ('Ö', 'o'),
    ('Ú', 'u'), ('Ù', 'u'), ('Û', 'u'), ('Ü', 'u'),
    ('Ç', 'c'), ('Ñ', 'n'),
];

/// `text` as a name search reads it: lower case, without diacritics.
pub fn folded(text: &str) -> String {
    text.chars()
        .map(|c| FOLDS.iter().find(|(a, _)| *a == c).map_or(c, |(_, b)| *b))
        .flat_map(char::to_lowercase)
        .collect()
}

/// SQL that folds `column` as [`folded`] folds text, on both backends.
fn folded_sql(column: &str) -> String {
    FOLDS
        .iter()
        .fold(format!("LOWER({column})"), |expr, (a, b)| {
            format!("REPLACE({expr}, '{a}', '{b}')")
        })
}

/// A driver's name as the search reads it (`$1` [`folded`], `$2` the driver's id), written
/// with the driver.
pub(crate) const INSERT_NAME: &str = "INSERT INTO driver_names (folded, id) VALUES ($1, $2)";

/// The least a name search takes: fewer letters would match half the register.
pub const NAME_SEARCH_MIN_CHARS: usize = 3;

/// A driver by CPF, or by part of the name through the names' trigram index (migration 0045,
/// written with each driver by [`INSERT_NAME`]): each an index, not a read of every driver.
/// Of the names that match, only the fifty newest can be among the fifty hits shown, so only
/// they are read: a part shared by tens of thousands of drivers ("silva") read every match
/// (≈ 50–130 ms at 480,000 drivers, ≈ 2 ms now). SQLite: the full-text table gives its rows
/// in the order written, which is the order the drivers were registered in (each name is
/// written with its driver, and migration 0045 wrote those before it in the drivers' order),
/// newest first without reading the others.
const DRIVER_BY_CPF_OR_NAME: &str = "id IN (\
    SELECT id FROM drivers WHERE LENGTH($1) = 11 AND cpf = CAST($1 AS CHAR(11)) \
    UNION SELECT id FROM (SELECT id FROM driver_names WHERE $2 <> '' AND folded LIKE $2 \
    ORDER BY rowid DESC LIMIT 50))";

/// The same on PostgreSQL, by the driver's registration the names keep (migration 0048):
/// there the planner joined every match to a read of the whole drivers table (≈ 140 ms at
/// 480,000 drivers; 21 ms now).
const DRIVER_BY_CPF_OR_NAME_PG: &str = "id IN (\
    SELECT id FROM drivers WHERE LENGTH($1) = 11 AND cpf = CAST($1 AS CHAR(11)) \
    UNION (SELECT id FROM driver_names WHERE $2 <> '' AND folded LIKE $2 \
    ORDER BY created_at DESC LIMIT 50))";

/// An authorization by its number, its driver's CPF or its car's plate: each an index, joined
/// after (an `OR` across the joined tables would read the whole register).
const AUTHORIZATION_BY_IDENTIFIER: &str = "a.id IN (\
    SELECT id FROM app_authorizations WHERE number = $4 \
    UNION SELECT x.id FROM app_authorizations x JOIN drivers y ON y.id = x.driver_id \
    WHERE LENGTH($1) = 11 AND y.cpf = CAST($1 AS CHAR(11)) \
    UNION SELECT x.id FROM app_authorizations x JOIN vehicles y ON y.id = x.vehicle_id \
    WHERE LENGTH($1) = 7 AND (y.plate = CAST($1 AS CHAR(7)) OR y.plate_mercosul = CAST($3 AS CHAR(7))))";

/// The identifiers PostgreSQL keeps as `CHAR(n)` (a CPF, a plate) are compared with a
/// parameter of that type, so that its index is read (compared with text, every row is cast),
/// and only when the query has that length (a cast to `CHAR(n)` would cut a longer one).
const PLATE: &str = "(LENGTH($1) = 7 AND plate = CAST($1 AS CHAR(7)))";
const PLATE_MERCOSUL: &str = "(LENGTH($3) = 7 AND plate_mercosul = CAST($3 AS CHAR(7)))";

/// The columns each register is searched on, by what the query looks like; `fold(…)` marks a
/// column compared without case or diacritics.
fn filters(kind: &str, pg: bool) -> &'static [&'static str] {
    match kind {
        "driver" if pg => &[DRIVER_BY_CPF_OR_NAME_PG],
        "driver" => &[DRIVER_BY_CPF_OR_NAME],
        "vehicle" => &[PLATE, PLATE_MERCOSUL],
        "authorization" => &[AUTHORIZATION_BY_IDENTIFIER],
        "platform" => &[
            "(LENGTH($1) = 14 AND cnpj = CAST($1 AS CHAR(14)))",
            "fold(name) LIKE $2",
        ],
        "app_auto" => &["x.number = $4"],
        "company" => &["cnpj = $1", "fold(data) LIKE $2"],
        "charter_vehicle" => &["plate = $1"],
        "charter_driver" => &["cpf = $1", "fold(data) LIKE $2"],
        "termo" | "charter_auto" => &["number = $4"],
        "document" => &["number = $4", "verification_code = $5"],
        _ => &[],
    }
}

/// The search of every register at once: `$1` the identifier as stored, `$2` the folded
/// name pattern (empty: no name search), `$3` the plate's Mercosul form, `$4` the number, `$5`
/// the printed code; newest first, at most 50. `pg`: PostgreSQL's.
fn search_sql(pg: bool) -> String {
    let mut union = Vec::new();
    for (kind, select) in SOURCES {
        let clause = filters(kind, pg)
            .iter()
            .map(
                |f| match f.strip_prefix("fold(").and_then(|r| r.split_once(')')) {
                    Some((column, rest)) => {
                        format!("($2 <> '' AND {}{rest})", folded_sql(column))
                    }
                    None => (*f).to_owned(),
                },
            )
            .collect::<Vec<_>>()
            .join(" OR ");
        union.push(format!(
            "SELECT kind, id, title, detail, sub, created_at FROM ({select} WHERE {clause}) s_{kind}"
        ));
    }
    format!(
        "SELECT kind, id, title, detail, sub FROM ({}) hits ORDER BY created_at DESC LIMIT 50",
        union.join(" UNION ALL ")
    )
}

impl Store {
    /// Records of both laws matching `query`: exact identifiers (CPF, CNPJ, plate, number,
    /// printed code in any case, with or without hyphens) or a part of a name (at least
    /// [`NAME_SEARCH_MIN_CHARS`] characters, without regard to case or diacritics). At most
    /// 50, newest first.
    pub async fn search(&self, query: &str) -> Result<Vec<Hit>, StorageError> {
        let q = query.trim();
        if q.is_empty() {
            return Ok(Vec::new());
        }
        // Identifiers as stored: upper case without punctuation.
        let ident: String = q
            .chars()
            .filter(char::is_ascii_alphanumeric)
            .map(|c| c.to_ascii_uppercase())
            .collect();
        let mercosul = crate::domain::ids::Plate::parse(&ident)
            .map(|p| p.mercosul_form())
            .unwrap_or_default();
        let like = if q.chars().count() >= NAME_SEARCH_MIN_CHARS {
            format!("%{}%", folded(q).replace(['%', '_'], ""))
        } else {
            // Too short for a name: the name filters are off (`$2 <> ''`).
            String::new()
        };
        let number = q.to_uppercase();
        let code = crate::domain::verification_code::normalise_verification_code(q)
            .unwrap_or_else(|_| ident.clone());
        on_backend!(self, |pool, _begin, pg| {
            // Planned for the values of each search (not once for any): PostgreSQL then reads
            // the trigram index for the name's pattern.
            let hits: Vec<Hit> = sqlx::query_as(sqlx::AssertSqlSafe(search_sql(pg)))
                .persistent(false)
                .bind(&ident)
                .bind(&like)
                .bind(&mercosul)
                .bind(&number)
                .bind(&code)
                .fetch_all(pool)
                .await?;
            Ok(hits)
        })
    }

    /// One register (`kind` of [`HitKind::parse`]) newest first: `limit` rows from `offset`,
    /// and whether more follow.
    pub async fn list(
        &self,
        kind: &str,
        limit: i64,
        offset: i64,
    ) -> Result<(Vec<Hit>, bool), StorageError> {
        let Some((_, select)) = SOURCES.iter().find(|(k, _)| *k == kind) else {
            return Ok((Vec::new(), false));
        };
        let sql = list_sql(select);
        on_backend!(self, |pool, _begin| {
            let mut hits: Vec<Hit> = sqlx::query_as(sqlx::AssertSqlSafe(sql))
                .bind(limit + 1)
                .bind(offset)
                .fetch_all(pool)
                .await?;
            let more = hits.len() > usize::try_from(limit).unwrap_or(0);
            hits.truncate(usize::try_from(limit).unwrap_or(0));
            Ok((hits, more))
        })
    }
}

/// A register's page, newest first: `$1` rows from `$2`. Each register has an index in this
/// order (migration 0041), so a page reads its rows and sorts nothing.
fn list_sql(select: &str) -> String {
    format!(
        "SELECT kind, id, title, detail, sub FROM ({select}) s ORDER BY created_at DESC, id LIMIT $1 OFFSET $2"
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::ids::{CnhCategory, CnhNumber, Cpf};
    use crate::storage::sqlite::query_plan as plan;
    use crate::storage::temporary_store;

    #[tokio::test]
    async fn every_register_list_and_the_identifier_lookups_read_an_index() {
        let (_dir, store) = temporary_store().await;
        for (kind, select) in SOURCES {
            let plan = plan(&store, &list_sql(select)).await;
            assert!(
                !plan.contains("TEMP B-TREE"),
                "{kind} sorts its rows: {plan}"
            );
        }
        for sql in [
            "SELECT id FROM documents WHERE number = $1 OR verification_code = $2",
            "SELECT id FROM vehicles WHERE plate = $1 OR plate_mercosul = $2",
            "SELECT id FROM charter_drivers WHERE cpf = $1",
        ] {
            let plan = plan(&store, sql).await;
            assert!(!plan.contains("SCAN"), "{sql}: {plan}");
        }
        // The search itself: the drivers and the authorizations, the registers that grow, are
        // read by index (a name through its trigrams); the small ones may be read whole.
        let plan = plan(&store, &search_sql(false)).await;
        for step in plan.split("; ").filter(|s| s.contains("SCAN")) {
            let table = step.split_whitespace().nth(1).unwrap_or_default();
            assert!(
                // `hits`: the rows found, sorted; `(subquery-n)`: the fifty newest names that
                // match, as read below.
                matches!(
                    table,
                    "hits" | "platforms" | "charter_companies" | "charter_drivers"
                ) || table.starts_with("(subquery-")
                    || step.contains("VIRTUAL TABLE INDEX 192:L"),
                "the search reads {table} whole: {step}\n{plan}"
            );
        }
        // The names by their trigrams (`L`), newest first (192: by rowid, descending), so
        // that the limit stops the read.
        assert!(
            plan.contains("driver_names VIRTUAL TABLE INDEX 192:L"),
            "{plan}"
        );
    }

    /// The names registered before the index are folded as the search folds the query, and
    /// the names of the drivers registered after are written with them, folded.
    #[test]
    fn the_names_index_folds_as_the_search_does() {
        for migration in [
            include_str!("../../migrations/sqlite/0045_driver_names.sql"),
            include_str!("../../migrations/postgres/0045_driver_names.sql"),
        ] {
            assert!(
                migration.contains(&format!("{}, id FROM drivers", folded_sql("name")))
                    || migration.contains(&format!("id, {} FROM drivers", folded_sql("name")))
            );
        }
    }

    /// A driver registered now is found by part of the name, without accents or case, through
    /// the names' index the store writes with the driver.
    #[tokio::test]
    async fn a_driver_is_found_by_part_of_the_name_through_the_index() {
        let (_dir, store) = temporary_store().await;
        let day = |y, m, d| chrono::NaiveDate::from_ymd_opt(y, m, d).unwrap();
        let driver = crate::domain::ride_hailing::registry::Driver {
            id: uuid::Uuid::new_v4(),
            name: "Antônia da Conceição Ávila".into(),
            cpf: Cpf::parse("529.982.247-25").unwrap(),
            cnh: crate::domain::ride_hailing::registry::Cnh {
                number: CnhNumber::parse("58316794534").unwrap(),
                category: CnhCategory::B,
                first_license_date: day(2015, 3, 10),
                ear: true,
                expires_on: day(2030, 1, 1),
            },
            record: crate::domain::ride_hailing::driver_record::DriverRecord::default(),
            created_at: chrono::Utc::now(),
        };
        store.insert_driver(&driver, "test").await.unwrap();
        let Store::Sqlite(r) = &store else {
            unreachable!("a SQLite store")
        };
        let indexed: Vec<String> = sqlx::query_scalar("SELECT folded FROM driver_names")
            .fetch_all(r.pool())
            .await
            .unwrap();
        assert_eq!(indexed, vec!["antonia da conceicao avila".to_owned()]);
        for q in ["CONCEIÇÃO", "conceicao av", "antônia"] {
            let hits = store.search(q).await.unwrap();
            assert!(
                hits.iter()
                    .any(|h| h.kind == "driver" && h.id == driver.id.to_string()),
                "{q}: {hits:?}"
            );
        }
        assert!(store.search("conceicao x").await.unwrap().is_empty());
    }

    /// A part of a name shared by more drivers than a search shows: the fifty registered
    /// last, newest first, read from the names' index newest first.
    #[tokio::test]
    async fn a_part_of_a_name_shared_by_many_shows_the_fifty_registered_last() {
        let (_dir, store) = temporary_store().await;
        let Store::Sqlite(r) = &store else {
            unreachable!("a SQLite store")
        };
        let first = chrono::DateTime::parse_from_rfc3339("2026-01-05T12:00:00Z")
            .unwrap()
            .to_utc();
        let mut registered = Vec::new();
        for i in 0..60 {
            let id = uuid::Uuid::new_v4().to_string();
            let name = format!("Maria {i} Silva");
            sqlx::query(
                "INSERT INTO drivers (id, name, cpf, cnh_number, cnh_category, \
                 cnh_first_license_date, cnh_ear, cnh_expires_on, created_at) \
                 VALUES ($1, $2, $3, $4, 'B', '2015-01-01', 1, '2030-01-01', $5)",
            )
            .bind(&id)
            .bind(&name)
            .bind(format!("{:011}", 1000 + i))
            .bind(format!("{:011}", 2000 + i))
            .bind(first + chrono::Duration::hours(i))
            .execute(r.pool())
            .await
            .unwrap();
            sqlx::query(INSERT_NAME)
                .bind(folded(&name))
                .bind(&id)
                .execute(r.pool())
                .await
                .unwrap();
            registered.push(id);
        }
        let hits = store.search("silva").await.unwrap();
        let found: Vec<&str> = hits.iter().map(|h| h.id.as_str()).collect();
        let newest: Vec<&str> = registered
            .iter()
            .rev()
            .take(50)
            .map(String::as_str)
            .collect();
        assert_eq!(found, newest, "{hits:?}");
        assert_eq!(store.search("maria 7 silva").await.unwrap().len(), 1);
    }
}
