//! The crate's modules import one way: every `crate::` path in `src/` (in `use` lines,
//! inline paths and doc links alike) names a module that does not reach back to the one it
//! is written in. The layers are listed in `lib.rs` ("Modules").

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// The modules each module of `src/` names in a `crate::` path (`crate::x::...` or
/// `crate::{x, y::z}`), itself left out.
fn imports() -> BTreeMap<String, BTreeSet<String>> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut texts = BTreeMap::new();
    for entry in std::fs::read_dir(&src).expect("src/") {
        let path = entry.expect("an entry").path();
        let name = path.file_stem().and_then(|s| s.to_str()).expect("a name");
        if path.extension().is_some_and(|e| e == "rs") && name != "lib" {
            let text = std::fs::read_to_string(&path).expect("a source file");
            texts.insert(name.to_owned(), text);
        }
    }
    let modules: BTreeSet<String> = texts.keys().cloned().collect();
    let ident = |s: &str| -> String {
        s.chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
            .collect()
    };
    texts
        .iter()
        .map(|(name, text)| {
            let mut named = BTreeSet::new();
            for (i, _) in text.match_indices("crate::") {
                let rest = &text[i + "crate::".len()..];
                if let Some(group) = rest.strip_prefix('{') {
                    let group = &group[..group.find('}').unwrap_or(group.len())];
                    named.extend(group.split(',').map(|item| ident(item.trim())));
                } else {
                    named.insert(ident(rest));
                }
            }
            named.retain(|m| modules.contains(m) && m != name);
            (name.clone(), named)
        })
        .collect()
}

/// A circle through `from`, if any, found by a depth-first walk.
fn circle(
    graph: &BTreeMap<String, BTreeSet<String>>,
    from: &str,
    path: &mut Vec<String>,
    done: &mut BTreeSet<String>,
) -> Option<Vec<String>> {
    if let Some(at) = path.iter().position(|m| m == from) {
        let mut found = path[at..].to_vec();
        found.push(from.to_owned());
        return Some(found);
    }
    if done.contains(from) {
        return None;
    }
    path.push(from.to_owned());
    for next in &graph[from] {
        if let Some(found) = circle(graph, next, path, done) {
            return Some(found);
        }
    }
    path.pop();
    done.insert(from.to_owned());
    None
}

#[test]
fn no_module_imports_one_that_imports_it_back() {
    let graph = imports();
    assert!(graph.len() > 10, "{graph:?}");
    // The walk sees the edges it is meant to (engine runs on the engine's context).
    assert!(graph["engine"].contains("context"), "{graph:?}");
    let mut done = BTreeSet::new();
    for module in graph.keys() {
        let found = circle(&graph, module, &mut Vec::new(), &mut done);
        assert!(found.is_none(), "a circle of imports: {found:?}");
    }
}

/// The walk finds a circle where there is one.
#[test]
fn a_circle_is_found() {
    let mut graph = BTreeMap::new();
    for (a, b) in [("a", "b"), ("b", "c"), ("c", "a")] {
        graph
            .entry(a.to_owned())
            .or_insert_with(BTreeSet::new)
            .insert(b.to_owned());
    }
    let found = circle(&graph, "a", &mut Vec::new(), &mut BTreeSet::new());
    assert_eq!(found.map(|c| c.len()), Some(4));
}
