//! The layers of `src/` (docs/architecture.md, "Layout"): data flows one way, http ▶ use cases ▶ (standing |
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

/// Every file of `src/` as its module path (`http/panel/gateway.rs` → `["http", "panel",
/// "gateway"]`) with its text, less comments, string literals and inline test modules.
fn module_files() -> BTreeMap<Vec<String>, String> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = BTreeMap::new();
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
            let rel = path.strip_prefix(&src).unwrap().with_extension("");
            let mut module: Vec<String> = rel
                .components()
                .map(|c| c.as_os_str().to_string_lossy().into_owned())
                .collect();
            if matches!(
                module.last().map(String::as_str),
                Some("lib" | "main" | "mod")
            ) {
                module.pop();
            }
            let text = std::fs::read_to_string(&path).unwrap();
            files.insert(module, code_only(&text));
        }
    }
    files
}

/// The code of a file without its comments, the contents of its string literals and the
/// inline test modules (`#[cfg(test)] mod tests { … }`), which may reach anywhere.
fn code_only(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '/' if chars.peek() == Some(&'/') => {
                for n in chars.by_ref() {
                    if n == '\n' {
                        out.push('\n');
                        break;
                    }
                }
            }
            '"' => {
                out.push('"');
                let mut escaped = false;
                for n in chars.by_ref() {
                    if escaped {
                        escaped = false;
                    } else if n == '\\' {
                        escaped = true;
                    } else if n == '"' {
                        break;
                    }
                }
                out.push('"');
            }
            _ => out.push(c),
        }
    }
    if let Some(at) = out.find("#[cfg(test)]") {
        let rest = &out[at..];
        let line_end = rest.find('\n').map_or(rest.len(), |i| i + 1);
        let after: String = rest[line_end..]
            .lines()
            .skip_while(|l| l.trim_start().starts_with("#["))
            .take(1)
            .collect();
        if after.trim_start().starts_with("mod ") && after.trim_end().ends_with('{') {
            out.truncate(at);
        }
    }
    out
}

/// The paths a file names: every `use` tree expanded (`use a::{b, c::d}` → `a::b`, `a::c::d`)
/// and every `crate::…`, `super::…` and `self::…` path in its code.
fn named_paths(code: &str) -> Vec<String> {
    fn expand(prefix: &str, tree: &str, out: &mut Vec<String>) {
        let Some(open) = tree.find('{') else {
            out.push(format!("{prefix}{tree}"));
            return;
        };
        let head = &tree[..open];
        let inner = &tree[open + 1..tree.rfind('}').unwrap_or(tree.len())];
        let (mut depth, mut start) = (0, 0);
        for (i, c) in inner.char_indices() {
            match c {
                '{' => depth += 1,
                '}' => depth -= 1,
                ',' if depth == 0 => {
                    expand(&format!("{prefix}{head}"), &inner[start..i], out);
                    start = i + 1;
                }
                _ => {}
            }
        }
        if start < inner.len() {
            expand(&format!("{prefix}{head}"), &inner[start..], out);
        }
    }
    let mut out = Vec::new();
    let mut rest = code;
    while let Some(at) = rest.find("use ") {
        let word_start = at == 0
            || !rest[..at]
                .chars()
                .last()
                .is_some_and(|c| c.is_alphanumeric() || c == '_');
        rest = &rest[at + 4..];
        if !word_start {
            continue;
        }
        if let Some(end) = rest.find(';') {
            let tree: String = rest[..end].chars().filter(|c| !c.is_whitespace()).collect();
            expand("", &tree, &mut out);
        }
    }
    for root in ["crate::", "super::", "self::"] {
        for (i, _) in code.match_indices(root) {
            let before = code[..i].chars().last();
            if before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == ':') {
                continue;
            }
            let path: String = code[i..]
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_' || *c == ':')
                .collect();
            out.push(path);
        }
    }
    out
}

/// The file a path names from `module`: the deepest file module along it.
fn file_of(
    files: &BTreeMap<Vec<String>, String>,
    module: &[String],
    children: &BTreeSet<String>,
    path: &str,
) -> Option<Vec<String>> {
    let path = path.split(" as ").next().unwrap_or(path);
    let mut segments: Vec<&str> = path.split("::").filter(|s| !s.is_empty()).collect();
    let mut base: Vec<String> = match segments.first().copied() {
        Some("crate") => {
            segments.remove(0);
            Vec::new()
        }
        Some("super") => {
            let mut base = module.to_vec();
            while segments.first() == Some(&"super") {
                base.pop();
                segments.remove(0);
            }
            base
        }
        Some("self") => {
            segments.remove(0);
            module.to_vec()
        }
        Some(first) if children.contains(first) => module.to_vec(),
        _ => return None,
    };
    let start = base.len();
    base.extend(segments.iter().map(|s| (*s).to_owned()));
    (start..=base.len())
        .rev()
        .map(|k| base[..k].to_vec())
        .find(|candidate| files.contains_key(candidate))
}

/// Which files each file imports. A file's use of its ancestors (the room it lives in, as
/// `use super::*`) is not counted: a room's parent file holds what its files share.
fn file_imports() -> BTreeMap<Vec<String>, BTreeSet<Vec<String>>> {
    let files = module_files();
    let mut graph = BTreeMap::new();
    for (module, code) in &files {
        let children: BTreeSet<String> = code
            .lines()
            .filter_map(|l| {
                let l = l.trim();
                let l = l
                    .strip_prefix("pub ")
                    .or_else(|| {
                        l.strip_prefix("pub(")
                            .and_then(|r| r.split_once(") ").map(|(_, r)| r))
                    })
                    .unwrap_or(l);
                l.strip_prefix("mod ")?.strip_suffix(';').map(str::to_owned)
            })
            .collect();
        let deps: BTreeSet<Vec<String>> = named_paths(code)
            .iter()
            .filter_map(|p| file_of(&files, module, &children, p))
            .filter(|target| target != module && !module.starts_with(target))
            .collect();
        graph.insert(module.clone(), deps);
    }
    graph
}

#[test]
fn files_import_each_other_without_cycles() {
    let graph = file_imports();
    assert!(graph.len() > 100, "{} files read", graph.len());
    // The reader sees what it should: a known import, and a room's use of its parent left out.
    let gateway = vec!["http".to_owned(), "panel".to_owned(), "gateway".to_owned()];
    assert!(graph[&gateway].contains(&vec!["http".to_owned(), "auth".to_owned()]));
    assert!(!graph[&gateway].contains(&vec!["http".to_owned(), "panel".to_owned()]));
    let mut left = graph.clone();
    loop {
        let leaves: Vec<Vec<String>> = left
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
    let cycle: Vec<String> = left
        .iter()
        .flat_map(|(m, deps)| {
            deps.iter()
                .filter(|d| left.contains_key(*d))
                .map(move |d| format!("{} → {}", m.join("/"), d.join("/")))
        })
        .collect();
    assert!(cycle.is_empty(), "import cycle between files: {cycle:#?}");
}
