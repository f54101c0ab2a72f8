//! The restore drill: eight clients issue documents while a backup is taken; the backup is
//! restored into an empty database and keys folder, `verify-restore` finds it whole, and the
//! restored service answers every document the backup holds as the original does, and knows
//! none issued after it. On SQLite, and on PostgreSQL (through `pg_dump` and `pg_restore`)
//! when `TEST_DATABASE_URL` names one.

use std::collections::HashSet;

use reqwest::StatusCode;
use serde_json::{Value, json};

use crate::helpers::{TestApp, another_database, spawn_app, spawn_app_on};

const PASSPHRASE: &str = "uma frase longa para o cofre";

/// Issues certidões of `authorization` until `stop` is set; answers how many.
async fn issue_until(
    app: &TestApp,
    authorization: &str,
    stop: &std::sync::atomic::AtomicBool,
) -> usize {
    let mut issued = 0;
    while !stop.load(std::sync::atomic::Ordering::Relaxed) {
        let res = app
            .post(
                &format!("/api/v1/app-authorizations/{authorization}/certidoes"),
                &json!({"subject": "app_driver", "protocol": format!("PG-2026/{issued}")}),
            )
            .await;
        assert_eq!(
            res.status(),
            StatusCode::CREATED,
            "{}",
            res.text().await.unwrap()
        );
        issued += 1;
    }
    issued
}

/// The ids of every document of a register.
async fn document_ids(store: &selo::storage::Store) -> HashSet<uuid::Uuid> {
    store
        .all_documents()
        .await
        .unwrap()
        .iter()
        .map(|d| d.id)
        .collect()
}

/// The verification of `token` without the instant it was made.
async fn verdict(app: &TestApp, token: &str) -> Value {
    let (_, mut v) = app.verify(token).await;
    v.as_object_mut().unwrap().remove("checked_at");
    v
}

#[tokio::test]
async fn a_backup_taken_while_clients_issue_restores_whole_and_answers_as_the_original() {
    let app = spawn_app().await;
    let grant = app.granted().await;
    let authorization = grant["id"].as_str().unwrap().to_owned();
    let store = app.store().await;
    let keys = selo::signing::keys::load(app.keys_dir.path(), false).unwrap();
    let before = document_ids(&store).await;

    // Eight clients issue while the backup is taken, and a moment after it.
    let stop = std::sync::atomic::AtomicBool::new(false);
    let folder = tempfile::tempdir().unwrap();
    let dest = folder.path().join("copia");
    let clients =
        futures_util::future::join_all((0..8).map(|_| issue_until(&app, &authorization, &stop)));
    let backup = async {
        tokio::time::sleep(std::time::Duration::from_millis(300)).await;
        let made = selo::issuance::backup::backup(
            &store,
            app.keys_dir.path(),
            &keys,
            &app.database_url,
            None,
            &dest,
            Some(PASSPHRASE),
        )
        .await
        .unwrap();
        tokio::time::sleep(std::time::Duration::from_millis(300)).await;
        stop.store(true, std::sync::atomic::Ordering::Relaxed);
        made
    };
    let (issued, made) = tokio::join!(clients, backup);
    assert!(
        issued.iter().all(|n| *n > 0),
        "every client issued: {issued:?}"
    );
    let manifest = made.manifest;
    assert!(manifest.keys_encrypted);
    // The private keys travel sealed; the public ones as they are.
    let sealed: Vec<String> = std::fs::read_dir(dest.join("keys"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert!(sealed.iter().any(|n| n.ends_with(".key.enc")), "{sealed:?}");
    assert!(!sealed.iter().any(|n| n.ends_with(".key")), "{sealed:?}");

    let (url, backend, data, keys_dir) = restore_elsewhere(&dest).await;
    let restored_store = selo::storage::Store::connect(&url).await.unwrap();
    if let selo::storage::Store::Postgres(r) = &restored_store {
        // The planner's statistics, which a dump does not carry, are gathered by the restore.
        let analysed: i64 = sqlx::query_scalar(
            "SELECT COUNT(*) FROM pg_stat_user_tables \
             WHERE relname IN ('drivers', 'documents', 'events') AND last_analyze IS NOT NULL",
        )
        .fetch_one(r.pool())
        .await
        .unwrap();
        assert_eq!(analysed, 3);
    }
    let restored_keys = selo::signing::keys::load(keys_dir.path(), false).unwrap();
    let report = selo::issuance::backup::verify_restore(&restored_store, &restored_keys, &manifest)
        .await
        .unwrap();
    assert!(report.problems.is_empty(), "{:?}", report.problems);
    let in_backup = document_ids(&restored_store).await;
    assert_eq!(report.documents, in_backup.len());
    assert_eq!(
        i64::try_from(in_backup.len()).unwrap(),
        manifest.counts["documents"]
    );
    assert!(
        before.is_subset(&in_backup),
        "what was issued before the backup is in it"
    );

    // The restored service answers as the original for each document in the backup, and
    // knows none issued after it.
    let restored = spawn_app_on(url, backend, keys_dir, data).await;
    let all = store.all_documents().await.unwrap();
    let after = all.iter().filter(|d| !in_backup.contains(&d.id)).count();
    assert!(after > 0, "the clients issued after the backup");
    for doc in &all {
        let original = verdict(&app, &doc.token).await;
        let answer = verdict(&restored, &doc.token).await;
        if in_backup.contains(&doc.id) {
            assert_eq!(answer, original, "{}", doc.number);
        } else {
            assert_eq!(
                answer["verdict"], "unknown_document",
                "{}: {answer}",
                doc.number
            );
        }
    }

    // A series set back in the restored register is found.
    restored_store_tamper(&restored).await;
    let report = selo::issuance::backup::verify_restore(&restored_store, &restored_keys, &manifest)
        .await
        .unwrap();
    assert!(
        report.problems.iter().any(|p| p.starts_with("série")),
        "{:?}",
        report.problems
    );
}

/// Sets a number series' counter back behind selo's back.
async fn restored_store_tamper(app: &TestApp) {
    app.exec_sql(&["UPDATE number_counters SET last_value = last_value - 1 \
                    WHERE last_value > 0"])
        .await;
}

/// Restores `dest` into an empty database and keys folder beside the test's: a wrong
/// passphrase writes nothing, and a second restore into the same register is refused.
async fn restore_elsewhere(
    dest: &std::path::Path,
) -> (String, &'static str, tempfile::TempDir, tempfile::TempDir) {
    // Restored elsewhere: an empty database, an empty keys folder. A wrong passphrase writes
    // nothing.
    let data = tempfile::tempdir().unwrap();
    let (url, backend) = another_database(data.path()).await;
    let keys_dir = tempfile::tempdir().unwrap();
    let wrong = selo::issuance::backup::restore(dest, &url, keys_dir.path(), Some("outra"))
        .await
        .unwrap_err();
    assert!(format!("{wrong:#}").contains("passphrase"), "{wrong:#}");
    assert_eq!(std::fs::read_dir(keys_dir.path()).unwrap().count(), 0);
    selo::issuance::backup::restore(dest, &url, keys_dir.path(), Some(PASSPHRASE))
        .await
        .unwrap();
    // Not twice into the same register.
    let again = selo::issuance::backup::restore(dest, &url, keys_dir.path(), Some(PASSPHRASE))
        .await
        .unwrap_err();
    assert!(format!("{again:#}").contains("not empty"), "{again:#}");

    (url, backend, data, keys_dir)
}
