//! An audit log no one can edit unnoticed. Every event row is chained by hash;
//! `selo audit verify` names the first broken link after an edit, a deletion or an insertion
//! made directly in the database (the append-only triggers dropped first, as someone with
//! database access would), and a rewrite of the whole chain after the edited row is caught by
//! a signed checkpoint — stored, or held outside the database.

use std::process::Command;

use reqwest::StatusCode;
use serde_json::Value;

use crate::helpers::{TestApp, spawn_app};

/// `selo audit ARGS` on the app's database and keys, logging at `log`: what it wrote.
/// Runs off the test's runtime thread, so the service's own tasks (which share it) finish
/// their transactions while the command reads the database.
async fn run_audit(app: &TestApp, args: &[&str], log: &str) -> std::process::Output {
    let mut command = Command::new(env!("CARGO_BIN_EXE_selo"));
    command
        .arg("audit")
        .args(args)
        .env("DATABASE_URL", &app.database_url)
        .env("SELO_KEYS_DIR", app.keys_dir.path())
        .env("RUST_LOG", log);
    tokio::task::spawn_blocking(move || command.output())
        .await
        .unwrap()
        .unwrap()
}

/// `selo audit ARGS`: (success, stdout).
async fn audit(app: &TestApp, args: &[&str]) -> (bool, String) {
    let out = run_audit(app, args, "warn").await;
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        out.status.success() || out.status.code() == Some(1),
        "{stdout}\n{stderr}"
    );
    (out.status.success(), stdout)
}

/// `selo audit checkpoint`: the checkpoint it signed.
async fn checkpoint(app: &TestApp) -> Value {
    let (ok, out) = audit(app, &["checkpoint"]).await;
    assert!(ok, "{out}");
    serde_json::from_str(&out).unwrap()
}

/// Runs `statements` on the app's database, as its owner would, bypassing selo.
async fn tamper(app: &TestApp, statements: &[&str]) {
    app.exec_sql(statements).await;
}

/// Drops the append-only triggers of `events` and `audit_checkpoints`.
async fn drop_guards(app: &TestApp) {
    if app.backend == "postgres" {
        tamper(
            app,
            &[
                "DROP TRIGGER events_append_only ON events",
                "DROP TRIGGER audit_checkpoints_append_only ON audit_checkpoints",
            ],
        )
        .await;
    } else {
        tamper(
            app,
            &[
                "DROP TRIGGER events_append_only_u",
                "DROP TRIGGER events_append_only_d",
                "DROP TRIGGER audit_checkpoints_append_only_u",
                "DROP TRIGGER audit_checkpoints_append_only_d",
            ],
        )
        .await;
    }
}

/// An app with acts of both laws in its history, and the ids of its event rows.
async fn app_with_history() -> (TestApp, Vec<i64>) {
    let app = spawn_app().await;
    app.granted().await;
    crate::charter::company(&app, "2027-12-31").await;
    let rows = app.store().await.chain_rows(0, 1000).await.unwrap();
    assert!(rows.len() >= 4, "{} events", rows.len());
    assert!(
        rows.iter()
            .all(|r| r.hash.is_some() && r.prev_hash.is_some()),
        "every row written carries its hashes"
    );
    let (ok, out) = audit(&app, &["verify"]).await;
    assert!(ok, "{out}");
    assert!(out.contains("íntegra"), "{out}");
    assert!(
        out.contains(&format!(
            "{} linhas encadeadas; 0 linhas anteriores",
            rows.len()
        )),
        "{out}"
    );
    (app, rows.iter().map(|r| r.id).collect())
}

#[tokio::test]
async fn an_edited_row_is_named() {
    let (app, ids) = app_with_history().await;
    drop_guards(&app).await;
    let id = ids[2];
    tamper(
        &app,
        &[&format!(
            "UPDATE events SET reason = 'adulterado' WHERE id = {id}"
        )],
    )
    .await;
    let (ok, out) = audit(&app, &["verify"]).await;
    assert!(!ok);
    assert!(
        out.contains(&format!("ROMPIDA: linha {id}: o conteúdo não corresponde")),
        "{out}"
    );
}

#[tokio::test]
async fn a_deleted_row_breaks_the_next_link() {
    let (app, ids) = app_with_history().await;
    drop_guards(&app).await;
    tamper(
        &app,
        &[&format!("DELETE FROM events WHERE id = {}", ids[1])],
    )
    .await;
    let (ok, out) = audit(&app, &["verify"]).await;
    assert!(!ok);
    assert!(
        out.contains(&format!(
            "ROMPIDA: linha {}: não continua a linha anterior",
            ids[2]
        )),
        "{out}"
    );
}

#[tokio::test]
async fn an_inserted_row_is_named_with_or_without_a_hash() {
    let (app, ids) = app_with_history().await;
    let head: String = app
        .store()
        .await
        .chain_rows(ids[ids.len() - 2], 10)
        .await
        .unwrap()[0]
        .hash
        .clone()
        .unwrap();
    let forged = format!(
        "INSERT INTO events (entity_type, entity_id, kind, actor, reason, legal_basis_version, \
         occurred_at, data, prev_hash, hash) VALUES ('driver', 'x', 'registered', 'admin', NULL, \
         NULL, '2026-11-30T16:00:00Z', '{{}}', '{head}', '{}')",
        "f".repeat(64)
    );
    tamper(&app, &[&forged]).await;
    let (ok, out) = audit(&app, &["verify"]).await;
    assert!(!ok);
    assert!(out.contains("o conteúdo não corresponde"), "{out}");

    let (app, _) = app_with_history().await;
    tamper(
        &app,
        &[
            "INSERT INTO events (entity_type, entity_id, kind, actor, occurred_at, data) \
           VALUES ('driver', 'x', 'registered', 'admin', '2026-11-30T16:00:00Z', '{}')",
        ],
    )
    .await;
    let (ok, out) = audit(&app, &["verify"]).await;
    assert!(!ok);
    assert!(out.contains("sem hash depois do início da cadeia"), "{out}");
}

/// Someone with database access edits a row and recomputes every hash after it: the chain
/// holds together, but not with the checkpoint signed before — stored in the database, or,
/// once they delete those too, the copy held elsewhere.
#[tokio::test]
async fn a_rewritten_chain_is_caught_by_a_signed_checkpoint_even_one_held_elsewhere() {
    let (app, ids) = app_with_history().await;
    let signed = checkpoint(&app).await;
    assert_eq!(signed["event_id"], *ids.last().unwrap());
    assert_eq!(signed["events"], ids.len());

    // Published: the copy a third party keeps.
    let res = app.get("/api/v1/audit/checkpoints").await;
    assert_eq!(res.status(), StatusCode::OK);
    let published: Value = res.json().await.unwrap();
    assert_eq!(published["checkpoints"][0]["token"], signed["token"]);
    let held = tempfile::NamedTempFile::new().unwrap();
    std::fs::write(held.path(), published.to_string()).unwrap();
    let held = held.path().to_str().unwrap().to_owned();
    let (ok, out) = audit(&app, &["verify", "--checkpoints", &held]).await;
    assert!(ok, "{out}");

    // The rewrite: row 2 edited, every hash from it to the head recomputed.
    drop_guards(&app).await;
    let rows = app.store().await.chain_rows(0, 1000).await.unwrap();
    let mut statements = vec![format!(
        "UPDATE events SET actor = 'outra pessoa' WHERE id = {}",
        rows[1].id
    )];
    let mut prev = rows[0].hash.clone().unwrap();
    for (i, r) in rows.iter().enumerate().skip(1) {
        let mut fields = r.fields();
        if i == 1 {
            fields.actor = "outra pessoa";
        }
        let hash = fields.link(&prev);
        statements.push(format!(
            "UPDATE events SET prev_hash = '{prev}', hash = '{hash}' WHERE id = {}",
            r.id
        ));
        prev = hash;
    }
    let statements: Vec<&str> = statements.iter().map(String::as_str).collect();
    tamper(&app, &statements).await;

    let (ok, out) = audit(&app, &["verify"]).await;
    assert!(!ok, "{out}");
    assert!(out.contains("ROMPIDA: ponto de controle"), "{out}");
    assert!(out.contains("registrado no banco"), "{out}");

    // They delete the stored checkpoints too: the database alone now looks intact…
    tamper(&app, &["DELETE FROM audit_checkpoints"]).await;
    let (ok, out) = audit(&app, &["verify"]).await;
    assert!(ok, "{out}");
    // …but not against the copy held elsewhere.
    let (ok, out) = audit(&app, &["verify", "--checkpoints", &held]).await;
    assert!(!ok, "{out}");
    assert!(out.contains("guardado fora do banco"), "{out}");
    assert!(out.contains("cadeia reescrita"), "{out}");
}

/// A checkpoint whose token was altered (or signed by another key) is refused.
#[tokio::test]
async fn a_forged_checkpoint_is_refused() {
    let (app, _) = app_with_history().await;
    let mut c = checkpoint(&app).await;
    let token = c["token"].as_str().unwrap().to_owned();
    let flipped = if token.ends_with('A') { "B" } else { "A" };
    c["token"] = Value::String(format!("{}{flipped}", &token[..token.len() - 1]));
    let file = tempfile::NamedTempFile::new().unwrap();
    std::fs::write(file.path(), Value::Array(vec![c]).to_string()).unwrap();
    let (ok, out) = audit(
        &app,
        &["verify", "--checkpoints", file.path().to_str().unwrap()],
    )
    .await;
    assert!(!ok, "{out}");
    assert!(out.contains("a assinatura não confere"), "{out}");
}

/// Selo signs a checkpoint of the day by itself, at start.
#[tokio::test]
async fn a_daily_checkpoint_is_published_without_being_asked() {
    let app = spawn_app().await;
    let t = std::time::Instant::now();
    loop {
        let v: Value = app.get_json("/api/v1/audit/checkpoints").await;
        if let Some(c) = v["checkpoints"].as_array().and_then(|a| a.first()) {
            assert_eq!(c["day"], "2026-11-30", "the legal day of the app's clock");
            assert!(c["token"].as_str().unwrap().len() > 40);
            break;
        }
        assert!(t.elapsed() < std::time::Duration::from_secs(5), "{v}");
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
}

/// A command's log lines go to standard error: with every statement logged (`RUST_LOG=debug`),
/// what `selo audit checkpoint` prints is still its JSON alone.
#[tokio::test]
async fn a_command_logs_on_standard_error_beside_its_output() {
    let (app, _) = app_with_history().await;
    let out = run_audit(&app, &["checkpoint"], "debug").await;
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stdout}\n{stderr}");
    let printed: Value = serde_json::from_str(&stdout).expect("standard output is the JSON alone");
    assert!(printed["head_hash"].is_string(), "{printed}");
    assert!(
        stderr.contains("DEBUG"),
        "the logs are on standard error: {stderr}"
    );
}
