//! The rule catalogue and the code agree: every rule id the code cites (APP-…, FRET-…, DL-n,
//! AMB-n) has an entry in `domain::rule::catalogue`, and `docs/rules.md` is the catalogue as
//! generated from that table and from the code that cites each id — where it is checked and
//! the tests that name it (`UPDATE_SNAPSHOTS=1` writes it again after a change).

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use selo::domain::rule::catalogue::{CATALOGUE, Kind, entry};

/// Ids that appear in the code but name no rule on purpose.
const NOT_RULES: &[(&str, &str)] = &[
    (
        "APP-ART99",
        "an infraction that does not exist, sent to check its refusal",
    ),
    (
        "APP-ART998-P7",
        "made up here, to check that the reader finds an id",
    ),
];

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Every text file under `dir` (relative path, text).
fn files_under(dir: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut stack = vec![root().join(dir)];
    while let Some(d) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&d) else {
            continue;
        };
        for e in entries {
            let path = e.unwrap().path();
            if path.is_dir() {
                stack.push(path);
            } else if let Ok(text) = std::fs::read_to_string(&path) {
                let rel = path
                    .strip_prefix(root())
                    .unwrap()
                    .to_string_lossy()
                    .into_owned();
                out.push((rel, text));
            }
        }
    }
    out.sort();
    out
}

/// The rule ids in `text`: `APP-ART…`/`FRET-ART…` with their parts, `DL-n`, `AMB-n`.
fn ids_in(text: &str) -> BTreeSet<String> {
    let bytes = text.as_bytes();
    let mut found = BTreeSet::new();
    for prefix in ["APP-ART", "FRET-ART", "DL-", "AMB-"] {
        for (at, _) in text.match_indices(prefix) {
            if at > 0 && (bytes[at - 1].is_ascii_alphanumeric() || bytes[at - 1] == b'-') {
                continue;
            }
            let mut end = at + prefix.len();
            if !bytes.get(end).is_some_and(u8::is_ascii_digit) {
                continue;
            }
            while end < bytes.len() && (bytes[end].is_ascii_alphanumeric() || bytes[end] == b'-') {
                end += 1;
            }
            let id = text[at..end].trim_end_matches('-');
            // Rule parts are upper case (`-PU`, `-P1`, `-XIX`); a lower-case tail is prose.
            if id.bytes().all(|b| !b.is_ascii_lowercase()) {
                found.insert(id.to_owned());
            }
        }
    }
    found
}

/// Each test function of `text` (name) with the ids its name or its doc comment names.
fn tests_in(text: &str) -> Vec<(String, BTreeSet<String>)> {
    let lines: Vec<&str> = text.lines().collect();
    let mut out = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        let t = line.trim_start();
        if !(t == "#[test]" || t.starts_with("#[tokio::test")) {
            continue;
        }
        let Some(name) = lines[i + 1..]
            .iter()
            .take(4)
            .find_map(|l| {
                let l = l.trim_start();
                l.strip_prefix("async fn ")
                    .or_else(|| l.strip_prefix("fn "))
                    .and_then(|r| r.split('(').next())
            })
            .map(str::to_owned)
        else {
            continue;
        };
        let mut doc = String::new();
        let mut j = i;
        while j > 0 {
            j -= 1;
            let l = lines[j].trim_start();
            if l.starts_with("///") || l.starts_with("#[") {
                doc.push_str(l);
                doc.push('\n');
            } else {
                break;
            }
        }
        let mut ids = ids_in(&doc);
        for e in CATALOGUE {
            let snake = e.id.to_ascii_lowercase().replace('-', "_");
            if name == snake || name.starts_with(&format!("{snake}_")) {
                ids.insert(e.id.to_owned());
            }
        }
        out.push((name, ids));
    }
    out
}

fn cell(text: &str) -> String {
    text.replace('|', "\\|")
}

/// `docs/rules.md`, generated.
fn catalogue_page() -> String {
    let code: Vec<(String, String)> = ["src", "templates", "migrations"]
        .iter()
        .flat_map(|d| files_under(d))
        .collect();
    let tests: Vec<(String, String)> = ["src", "tests"]
        .iter()
        .flat_map(|d| files_under(d))
        .filter(|(p, _)| p.ends_with(".rs"))
        .collect();
    let mut cited_in: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for (path, text) in &code {
        for id in ids_in(text) {
            cited_in.entry(id).or_default().insert(path.clone());
        }
    }
    let mut tested_by: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for (path, text) in &tests {
        for (name, ids) in tests_in(text) {
            for id in ids {
                tested_by
                    .entry(id)
                    .or_default()
                    .insert(format!("`{name}` ({path})"));
            }
        }
    }
    let mut page = String::from(
        "# Rule catalogue\n\n\
         Generated from `src/domain/rule/catalogue.rs` and from the code that cites each id, by \
         `tests/api/rules.rs` (`UPDATE_SNAPSHOTS=1 cargo test --release --test api rules` writes \
         it again); do not edit by hand. The ride-hailing text is a draft: its articles are the \
         draft's.\n",
    );
    for (kind, title, intro) in [
        (
            Kind::Rule,
            "Rules of the two laws",
            "`APP-…`: the ride-hailing law; `FRET-…`: Lei 4.937/2025 (charter).",
        ),
        (
            Kind::DateRule,
            "How periods are counted",
            "Every deadline and validity of both laws is computed by these rules, in the \
             America/Cuiaba time zone.",
        ),
        (
            Kind::Reading,
            "Readings where a text is ambiguous",
            "What the text leaves open, and the reading selo takes. A reading that a city may \
             decide otherwise is a parameter of the legal basis.",
        ),
    ] {
        let _ = write!(
            page,
            "\n## {title}\n\n{intro}\n\n| id | article | what | reading or how selo applies it | cited in | tests |\n| --- | --- | --- | --- | --- | --- |\n"
        );
        for e in CATALOGUE.iter().filter(|e| e.kind == kind) {
            let cited = cited_in.get(e.id).map_or_else(String::new, |s| {
                s.iter()
                    .map(|p| format!("`{p}`"))
                    .collect::<Vec<_>>()
                    .join(", ")
            });
            let tests = tested_by.get(e.id).map_or_else(String::new, |s| {
                s.iter().cloned().collect::<Vec<_>>().join("<br>")
            });
            let _ = writeln!(
                page,
                "| {} | {} | {} | {} | {} | {} |",
                e.id,
                cell(e.article),
                cell(e.text),
                cell(e.reading),
                cell(&cited),
                cell(&tests)
            );
        }
    }
    page
}

#[test]
fn every_rule_id_the_code_cites_is_in_the_catalogue() {
    let mut unknown = Vec::new();
    let mut seen = 0;
    for dir in ["src", "tests", "templates", "migrations", "benches"] {
        for (path, text) in files_under(dir) {
            if path.ends_with("openapi.json") {
                continue;
            }
            for id in ids_in(&text) {
                seen += 1;
                if entry(&id).is_none() && !NOT_RULES.iter().any(|(n, _)| *n == id) {
                    unknown.push(format!("{id} ({path})"));
                }
            }
        }
    }
    assert!(seen > 300, "only {seen} citations read");
    assert!(
        unknown.is_empty(),
        "ids with no catalogue entry: {unknown:#?}"
    );
    // The reader is not blind: a made-up id is found, and is not in the catalogue.
    assert!(ids_in("see APP-ART998-P7 here").contains("APP-ART998-P7"));
    assert!(entry("APP-ART998-P7").is_none());
}

#[test]
fn every_catalogue_entry_is_well_formed_and_named_once() {
    let mut ids = BTreeSet::new();
    for e in CATALOGUE {
        assert!(ids.insert(e.id), "{} twice", e.id);
        assert!(!e.text.is_empty(), "{}", e.id);
        assert_eq!(
            ids_in(e.id).into_iter().collect::<Vec<_>>(),
            vec![e.id.to_owned()]
        );
        if e.kind == Kind::Reading {
            assert!(!e.reading.is_empty(), "{} has no reading", e.id);
        }
    }
}

#[test]
fn the_rule_catalogue_page_is_generated_from_the_code() {
    let page = catalogue_page();
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/rules.md");
    if std::env::var("UPDATE_SNAPSHOTS").is_ok() {
        std::fs::write(&path, &page).unwrap();
        return;
    }
    let written = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        written == page,
        "docs/rules.md is not the catalogue as generated (UPDATE_SNAPSHOTS=1 writes it)"
    );
    // A rule checked in the domain lists its test.
    assert!(
        page.contains("app_art12_i"),
        "no test found for APP-ART12-I"
    );
}
