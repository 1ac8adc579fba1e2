//! Completeness of the catalogues: every message in both languages with the same arguments,
//! every file parsed without error, and every id the sources ask for present in English.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use bao_i18n::{files, Lang};
use fluent_syntax::ast::{Entry, Expression, InlineExpression, Pattern, PatternElement};
use fluent_syntax::parser::parse;

/// Message id -> the variables it uses (in its value and attributes, selectors included).
type Ids = BTreeMap<String, BTreeSet<String>>;

fn vars_of_pattern(p: &Pattern<&str>, out: &mut BTreeSet<String>) {
    for e in &p.elements {
        if let PatternElement::Placeable { expression } = e {
            vars_of_expression(expression, out);
        }
    }
}

fn vars_of_expression(e: &Expression<&str>, out: &mut BTreeSet<String>) {
    match e {
        Expression::Select { selector, variants } => {
            vars_of_inline(selector, out);
            for v in variants {
                vars_of_pattern(&v.value, out);
            }
        }
        Expression::Inline(i) => vars_of_inline(i, out),
    }
}

fn vars_of_inline(i: &InlineExpression<&str>, out: &mut BTreeSet<String>) {
    match i {
        InlineExpression::VariableReference { id } => {
            out.insert(id.name.to_owned());
        }
        InlineExpression::Placeable { expression } => vars_of_expression(expression, out),
        InlineExpression::FunctionReference { arguments, .. } => {
            for a in &arguments.positional {
                vars_of_inline(a, out);
            }
            for a in &arguments.named {
                vars_of_inline(&a.value, out);
            }
        }
        _ => {}
    }
}

/// The messages of one language, file by file; panics on a syntax error or an id defined
/// twice (in one file or across files).
fn ids(lang: Lang) -> BTreeMap<&'static str, Ids> {
    let mut all = BTreeMap::new();
    let mut seen = BTreeSet::new();
    for (file, text) in files(lang) {
        let resource = parse(*text).unwrap_or_else(|(_, errors)| {
            panic!("locales/{lang}/{file}: syntax errors {errors:?}")
        });
        let mut of_file = Ids::new();
        for entry in &resource.body {
            match entry {
                Entry::Message(m) => {
                    let id = m.id.name.to_owned();
                    assert!(seen.insert(id.clone()), "{lang}: `{id}` defined twice");
                    assert!(m.value.is_some(), "{lang}/{file}: `{id}` has no value");
                    let mut vars = BTreeSet::new();
                    if let Some(v) = &m.value {
                        vars_of_pattern(v, &mut vars);
                    }
                    for a in &m.attributes {
                        vars_of_pattern(&a.value, &mut vars);
                    }
                    of_file.insert(id, vars);
                }
                Entry::Junk { content } => panic!("{lang}/{file}: junk {content:?}"),
                _ => {}
            }
        }
        all.insert(*file, of_file);
    }
    all
}

#[test]
fn both_catalogues_have_every_message_with_the_same_arguments() {
    let en = ids(Lang::En);
    let sw = ids(Lang::Sw);
    let mut problems = Vec::new();
    let en_files: BTreeSet<_> = en.keys().collect();
    let sw_files: BTreeSet<_> = sw.keys().collect();
    assert_eq!(en_files, sw_files, "the two languages have other files");
    for (file, en_ids) in &en {
        let sw_ids = &sw[file];
        for (id, vars) in en_ids {
            match sw_ids.get(id) {
                None => problems.push(format!("sw/{file}: `{id}` missing")),
                Some(sw_vars) if sw_vars != vars => problems.push(format!(
                    "sw/{file}: `{id}` takes {sw_vars:?}, English {vars:?}"
                )),
                Some(_) => {}
            }
        }
        for id in sw_ids.keys().filter(|id| !en_ids.contains_key(*id)) {
            problems.push(format!("sw/{file}: `{id}` is not in English"));
        }
    }
    assert!(problems.is_empty(), "{problems:#?}");
}

/// The string literal after each `t!(` of a source: the id it asks for (the first argument
/// is the language, the second the id, a literal).
fn ids_asked(source: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = source;
    while let Some(at) = rest.find("t!(") {
        // `assert!(`, `print!(`: another macro whose name ends in t.
        let other = rest[..at]
            .chars()
            .next_back()
            .is_some_and(|c| c.is_alphanumeric() || c == '_');
        rest = &rest[at + 3..];
        if other {
            continue;
        }
        let Some(open) = rest.find('"') else { break };
        let Some(close) = rest[open + 1..].find('"') else {
            break;
        };
        let id = &rest[open + 1..open + 1 + close];
        if !id.is_empty() && id.chars().all(|c| c.is_ascii_alphanumeric() || c == '-') {
            out.push(id.to_owned());
        }
    }
    out
}

fn rust_files(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let path = e.path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|x| x == "rs") {
            out.push(path);
        }
    }
}

#[test]
fn every_id_the_sources_ask_for_is_in_the_catalogue() {
    let en: BTreeSet<String> = ids(Lang::En)
        .into_values()
        .flat_map(BTreeMap::into_keys)
        .collect();
    let crates = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut sources = Vec::new();
    for krate in std::fs::read_dir(&crates).unwrap().flatten() {
        rust_files(&krate.path().join("src"), &mut sources);
    }
    let mut missing = Vec::new();
    let mut asked = 0;
    for path in &sources {
        let text = std::fs::read_to_string(path).unwrap();
        for id in ids_asked(&text) {
            asked += 1;
            if !en.contains(&id) {
                missing.push(format!("{}: `{id}`", path.display()));
            }
        }
    }
    assert!(asked > 0, "no t!(...) found under {}", crates.display());
    assert!(missing.is_empty(), "ids not in the catalogue: {missing:#?}");
}
