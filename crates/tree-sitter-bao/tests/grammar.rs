//! The tree-sitter grammar (editors/tree-sitter-bao) on the repository's records: every
//! fixture parses without an error node (the hostile ones and the syntax errors parse without
//! a panic), and the highlight, fold and Helix queries capture what they should.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use streaming_iterator::StreamingIterator;
use tree_sitter::{Language, Node, Parser, Query, QueryCursor, Tree};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn language() -> Language {
    tree_sitter_bao::LANGUAGE.into()
}

fn parse(text: &[u8]) -> Tree {
    let mut parser = Parser::new();
    parser
        .set_language(&language())
        .expect("the parser's ABI is the crate's");
    parser
        .parse(text, None)
        .expect("no time-out, no cancellation")
}

/// Every `.bao` file under `dir`, sorted.
fn records(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            records(&path, out);
        } else if path.extension().is_some_and(|e| e == "bao") {
            out.push(path);
        }
    }
}

/// The first node of `kind` (or an error or missing node when `kind` is `None`), as
/// `row:column kind`.
fn first(node: Node<'_>, kind: Option<&str>) -> Option<String> {
    let hit = match kind {
        None => node.is_error() || node.is_missing(),
        Some(kind) => node.kind() == kind,
    };
    if hit {
        let p = node.start_position();
        return Some(format!("{}:{} {}", p.row + 1, p.column + 1, node.to_sexp()));
    }
    let mut cursor = node.walk();
    let children: Vec<Node<'_>> = node.children(&mut cursor).collect();
    children.into_iter().find_map(|c| first(c, kind))
}

/// Fixtures whose text is meant to be broken: they must parse, errors allowed.
fn broken(path: &Path) -> bool {
    let rel = path.strip_prefix(root().join("fixtures")).unwrap();
    rel.starts_with("hostile") || rel.starts_with("invalid/syntax")
}

#[test]
fn every_fixture_parses_without_error_nodes() {
    let mut files = Vec::new();
    records(&root().join("fixtures"), &mut files);
    assert!(files.len() > 100, "{} fixtures", files.len());
    let mut clean = 0;
    let mut failures = Vec::new();
    for path in &files {
        let text = std::fs::read(path).unwrap();
        let tree = parse(&text);
        let root = tree.root_node();
        assert_eq!(root.kind(), "source_file");
        assert_eq!(root.end_byte(), text.len(), "{}", path.display());
        if broken(path) {
            continue;
        }
        clean += 1;
        // No error node.
        if let Some(at) = first(root, None) {
            failures.push(format!("{}:{at}", path.display()));
        }
        // Every word read as the notation reads it: a word the grammar cannot classify is an
        // `invalid_token`, which only a record with a syntax error has (the archive tools'
        // fixtures keep a few).
        let text_str = std::str::from_utf8(&text).expect("a valid record is UTF-8");
        let syntax_errors = bao_notation::parse_record(text_str).errors.len();
        if let Some(at) = first(root, Some("invalid_token")) {
            if syntax_errors == 0 {
                failures.push(format!("{}:{at} (no syntax error there)", path.display()));
            }
        }
        // The games are the notation's (spec §3: a game ends at its result, a tag pair after
        // movetext starts the next): as many (a game of comments only is comments here), and
        // each one's result where the notation reads it.
        let text = std::str::from_utf8(&text).expect("a valid record is UTF-8");
        let record = bao_notation::parse_record(text).record;
        let theirs: Vec<_> = record
            .games
            .iter()
            .filter(|g| {
                let g = &g.value;
                !g.tags.is_empty() || !g.movetext.is_empty() || g.result.is_some()
            })
            .map(|g| g.value.result.as_ref().map(|r| r.span.start))
            .collect();
        let mut ours = Vec::new();
        let mut cursor = root.walk();
        for child in root.children(&mut cursor) {
            match child.kind() {
                "game" => {
                    let last = child.child(child.child_count() - 1).unwrap();
                    ours.push((last.kind() == "result").then(|| last.start_byte()));
                }
                "comment" => {}
                other => panic!("{}: a {other} at the top", path.display()),
            }
        }
        if ours != theirs {
            failures.push(format!(
                "{}: games ending at {ours:?}, the notation's at {theirs:?}",
                path.display()
            ));
        }
    }
    assert!(clean > 50, "{clean} fixtures checked");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The parser's steps on `text`: the lines its logger writes (one for each character the
/// lexer looks at or skips, each token, each shift, reduce and recovery step).
fn steps(text: &str) -> usize {
    use std::cell::Cell;
    use std::rc::Rc;
    let mut parser = Parser::new();
    parser.set_language(&language()).unwrap();
    let count = Rc::new(Cell::new(0usize));
    let c = Rc::clone(&count);
    parser.set_logger(Some(Box::new(move |_, _| c.set(c.get() + 1))));
    let tree = parser.parse(text, None).unwrap();
    assert_eq!(tree.root_node().end_byte(), text.len());
    count.get()
}

/// Linear by count, not by clock: on hostile shapes (the notation's own list, and the ones
/// a tree-sitter lexer could read twice: a look-ahead for a closing `]`, `}` or `"` that
/// fails), doubling the input at most doubles the parser's steps (with a margin), and no
/// shape takes more than 200 steps a byte.
#[test]
fn the_parser_is_linear_on_hostile_shapes() {
    type Shape = fn(usize) -> String;
    let shapes: [(&str, Shape); 22] = [
        ("long pit-letter word", |n| {
            format!("[Event \"x\"]\n\n{}", "A".repeat(n))
        }),
        ("long comment", |n| format!("{{{}}}", "x".repeat(n))),
        ("unclosed comment", |n| format!("{{{}", "x".repeat(n))),
        ("braces", |n| "{".repeat(n)),
        ("deep variations", |n| {
            format!("1. A6<* {}", "(a5>* ".repeat(n / 6))
        }),
        ("open parentheses", |n| "(".repeat(n)),
        ("close parentheses", |n| ")".repeat(n)),
        ("many NAGs", |n| {
            format!("1. A6<* {} *", "$1 ".repeat(n / 3))
        }),
        ("dollars", |n| "$".repeat(n)),
        ("many tags", |n| "[Event \"x\"]\n".repeat(n / 12)),
        ("many games on one line", |n| {
            "1. A6<* a5>* 1-0 ".repeat(n / 17)
        }),
        ("brackets", |n| "[".repeat(n)),
        ("unclosed annotations", |n| {
            format!("A6< {}", "[xa5 ".repeat(n / 5))
        }),
        ("quotes", |n| "\"".repeat(n)),
        ("escaped quotes", |n| {
            format!("[Event \"{}", "\\\"".repeat(n / 2))
        }),
        ("digits", |n| "1".repeat(n)),
        ("move numbers", |n| "1.".repeat(n / 2)),
        ("dots", |n| format!("1{}", ".".repeat(n))),
        ("moves run together", |n| "A6<*".repeat(n / 4)),
        ("half results", |n| "1-".repeat(n / 2)),
        ("tags without values", |n| "[Event ".repeat(n / 7)),
        ("semicolons", |n| ";".repeat(n)),
    ];
    let n = 4_000;
    let mut report = Vec::new();
    for (name, shape) in shapes {
        let (small, large) = (shape(n), shape(2 * n));
        let (a, b) = (steps(&small), steps(&large));
        let per_byte = b / large.len().max(1);
        if b > a * 22 / 10 + 1_000 || per_byte > 200 {
            report.push(format!(
                "{name}: {a} steps on {} bytes, {b} on {}",
                small.len(),
                large.len()
            ));
        }
    }
    assert!(report.is_empty(), "{}", report.join("\n"));
}

/// `(capture name, text)` of every capture of `query` in `text`, in text order.
fn captures(query_source: &str, text: &str) -> Vec<(String, String)> {
    let query = Query::new(&language(), query_source).expect("the query compiles");
    let tree = parse(text.as_bytes());
    let mut cursor = QueryCursor::new();
    let mut it = cursor.captures(&query, tree.root_node(), text.as_bytes());
    let mut out = Vec::new();
    while let Some((m, i)) = it.next() {
        let c = m.captures[*i];
        out.push((
            query.capture_names()[c.index as usize].to_owned(),
            text[c.node.byte_range()].to_owned(),
        ));
    }
    out
}

/// A record with every kind of token.
const EVERY_KIND: &str = "\
[Event \"Zanzibar open, \\\"final\\\"\"]
[South \"Ali\"]

{a comment [%csl Ra5]} 1. A6L* a6R 2. a5l A8+ 3.a8 B2<** $14 4... a7<*! ?!
A4> [xa5:3 A6 xa4:2] (4. A7>* a6<* (4... a7<*)) ; to the end of the line
B2<# 1-0

1. A6<* 1/2-1/2 1. A6<* 0-1 1. A6< *
";

#[test]
fn the_highlight_query_captures_every_kind_of_token() {
    let got = captures(tree_sitter_bao::HIGHLIGHTS_QUERY, EVERY_KIND);
    let of = |name: &str| -> Vec<&str> {
        got.iter()
            .filter(|(n, _)| n == name)
            .map(|(_, t)| t.as_str())
            .collect()
    };
    assert_eq!(of("tag"), ["Event", "South"]);
    assert_eq!(
        of("string"),
        ["\"Zanzibar open, \\\"final\\\"\"", "\"Ali\""]
    );
    assert_eq!(
        of("number"),
        ["1.", "2.", "3.", "4...", "4.", "4...", "1.", "1.", "1."]
    );
    assert_eq!(
        of("constant"),
        [
            "A6L*", "a6R", "a5l", "A8+", "a8", "B2<**", "a7<*", "A4>", "A7>*", "a6<*", "a7<*",
            "B2<#", "A6<*", "A6<*", "A6<"
        ]
    );
    assert_eq!(of("attribute"), ["$14", "!", "?!"]);
    assert_eq!(of("string.special"), ["[xa5:3 A6 xa4:2]"]);
    assert_eq!(of("keyword"), ["1-0", "1/2-1/2", "0-1", "*"]);
    assert_eq!(
        of("comment"),
        ["{a comment [%csl Ra5]}", "; to the end of the line"]
    );
    // Brackets: the tags' and the two variations'.
    assert_eq!(
        of("punctuation.bracket"),
        ["[", "]", "[", "]", "(", "(", ")", ")"]
    );
    assert!(of("error").is_empty(), "{got:?}");
    // Words the notation reports are marked, not left as error nodes.
    let bad = captures(tree_sitter_bao::HIGHLIGHTS_QUERY, "1. A9< Ax a6< *");
    let errors: Vec<&str> = bad
        .iter()
        .filter(|(n, _)| n == "error")
        .map(|(_, t)| t.as_str())
        .collect();
    assert_eq!(errors, ["A9<", "Ax"]);
    assert!(!parse(b"1. A9< Ax a6< *").root_node().has_error());
    // A byte order mark at the start is skipped, as the notation skips it.
    let bom = parse("\u{feff}[Event \"x\"]\n1. A6<* *\n".as_bytes());
    assert_eq!(first(bom.root_node(), Some("invalid_token")), None);
    assert!(!bom.root_node().has_error());
}

#[test]
fn the_fold_query_folds_games_variations_and_comments() {
    let got = captures(tree_sitter_bao::FOLDS_QUERY, EVERY_KIND);
    assert!(got.iter().all(|(n, _)| n == "fold"), "{got:?}");
    let texts: Vec<&str> = got.iter().map(|(_, t)| t.as_str()).collect();
    assert_eq!(texts.len(), 8, "{texts:?}");
    // The first game from its first tag to its result.
    assert!(
        texts[0].starts_with("[Event") && texts[0].ends_with("B2<# 1-0"),
        "{texts:?}"
    );
    assert_eq!(
        texts[1..],
        [
            "{a comment [%csl Ra5]}",
            "(4. A7>* a6<* (4... a7<*))",
            "(4... a7<*)",
            "; to the end of the line",
            // Three games on one line: each ends at its result.
            "1. A6<* 1/2-1/2",
            "1. A6<* 0-1",
            "1. A6< *",
        ][..]
    );
}

#[test]
fn the_helix_query_captures_the_same_nodes_with_helix_names() {
    let ours = captures(tree_sitter_bao::HIGHLIGHTS_QUERY, EVERY_KIND);
    let helix = captures(tree_sitter_bao::HELIX_HIGHLIGHTS_QUERY, EVERY_KIND);
    let texts =
        |c: &[(String, String)]| -> Vec<String> { c.iter().map(|(_, t)| t.clone()).collect() };
    assert_eq!(texts(&ours), texts(&helix));
    let names: BTreeSet<(&str, &str)> = ours
        .iter()
        .zip(&helix)
        .map(|((a, _), (b, _))| (a.as_str(), b.as_str()))
        .collect();
    // One Helix scope for each capture name.
    for (a, b) in &names {
        let expected = match *a {
            "number" => "constant.numeric.integer",
            other => other,
        };
        assert_eq!(*b, expected, "{names:?}");
    }
}

#[test]
fn the_editor_packages_carry_the_grammars_queries() {
    let grammar = root().join("editors/tree-sitter-bao/queries");
    for file in ["highlights.scm", "folds.scm"] {
        let ours = std::fs::read_to_string(grammar.join(file)).unwrap();
        let nvim =
            std::fs::read_to_string(root().join("editors/neovim/queries/bao").join(file)).unwrap();
        assert_eq!(
            ours, nvim,
            "editors/neovim/queries/bao/{file} is a copy of the grammar's"
        );
    }
    let helix = std::fs::read_to_string(root().join("editors/helix/languages.toml")).unwrap();
    assert!(
        helix.contains("[[grammar]]") && helix.contains("name = \"bao\""),
        "{helix}"
    );
    assert!(helix.contains("editors/tree-sitter-bao"), "{helix}");
}
