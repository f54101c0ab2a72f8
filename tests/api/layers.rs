//! The layers of `src/` (README, "Layout"): data flows one way, http ▶ use cases ▶ (standing |
//! storage | documents | signing) ▶ domain. Read from the source itself: every `crate::…` path
//! of every file, grouped by top-level module.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// Every top-level module's imports of other top-level modules.
fn imports() -> BTreeMap<String, BTreeSet<String>> {
    let mut graph: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut stack = vec![src.clone()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
                continue;
            }
            if path.extension().is_none_or(|e| e != "rs") {
                continue;
            }
            let rel = path.strip_prefix(&src).unwrap();
            let first = rel
                .components()
                .next()
                .unwrap()
                .as_os_str()
                .to_string_lossy();
            let top = first.trim_end_matches(".rs").to_owned();
            let text = std::fs::read_to_string(&path).unwrap();
            let deps = graph.entry(top.clone()).or_default();
            for (i, _) in text.match_indices("crate::") {
                let rest = &text[i + "crate::".len()..];
                let names: Vec<&str> = if let Some(group) = rest.strip_prefix('{') {
                    // `use crate::{a, b::c, d::{e, f}}`: the first segment of each item.
                    let mut depth = 0;
                    let end = group
                        .char_indices()
                        .find(|&(_, c)| {
                            match c {
                                '{' => depth += 1,
                                '}' if depth == 0 => return true,
                                '}' => depth -= 1,
                                _ => {}
                            }
                            false
                        })
                        .map_or(group.len(), |(j, _)| j);
                    let mut items = Vec::new();
                    let mut depth = 0;
                    let mut start = 0;
                    for (j, c) in group[..end].char_indices() {
                        match c {
                            '{' => depth += 1,
                            '}' => depth -= 1,
                            ',' if depth == 0 => {
                                items.push(&group[start..j]);
                                start = j + 1;
                            }
                            _ => {}
                        }
                    }
                    items.push(&group[start..end]);
                    items
                        .into_iter()
                        .filter_map(|it| it.trim().split("::").next())
                        .filter(|s| !s.is_empty())
                        .collect()
                } else {
                    rest.split(|c: char| !(c.is_alphanumeric() || c == '_'))
                        .next()
                        .into_iter()
                        .collect()
                };
                for name in names {
                    if name != top && name != "self" {
                        deps.insert(name.to_owned());
                    }
                }
            }
        }
    }
    graph
}

#[test]
fn domain_imports_nothing_else_of_the_crate() {
    let graph = imports();
    assert!(graph.contains_key("domain"));
    assert_eq!(
        graph["domain"],
        BTreeSet::new(),
        "domain/ must import no other layer"
    );
}

#[test]
fn top_level_modules_import_each_other_without_cycles() {
    let graph = imports();
    // Kahn: repeatedly remove modules that import nothing left.
    let mut left = graph.clone();
    loop {
        let leaves: Vec<String> = left
            .iter()
            .filter(|(_, deps)| deps.iter().all(|d| !left.contains_key(d)))
            .map(|(m, _)| m.clone())
            .collect();
        if leaves.is_empty() {
            break;
        }
        for m in leaves {
            left.remove(&m);
        }
    }
    assert!(left.is_empty(), "import cycle among: {left:?}");
    // The use cases and below never reach back up to the front end.
    for lower in [
        "issuance",
        "standing",
        "storage",
        "documents",
        "signing",
        "verification",
    ] {
        assert!(
            !graph[lower].contains("http"),
            "{lower} imports http: {:?}",
            graph[lower]
        );
    }
    assert!(graph["http"].contains("issuance"), "{:?}", graph["http"]);
}
