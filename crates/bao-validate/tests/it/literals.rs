//! No prose left outside the catalogue: the modules that word the diagnostics hold no string
//! literal of two words or more outside their tests (issue 34: every sentence a player reads
//! is a message of `bao-i18n`'s catalogue, in English and Kiswahili). A new sentence written
//! as a literal fails here; put it in `locales/{en,sw}/diagnostics.ftl` and ask for it with
//! `t!`.

use std::path::Path;

/// The modules that word what the checker finds.
const WORDING: &[&str] = &[
    "words.rs",
    "moves.rs",
    "record.rs",
    "numbers.rs",
    "suggest.rs",
    "suggest_earlier.rs",
    "plies.rs",
    "fix.rs",
    "diagnostic.rs",
];

/// The string literals of a line of Rust (a comment's text is not code).
fn literals(line: &str) -> Vec<String> {
    let code = line.trim_start();
    if code.starts_with("//") {
        return Vec::new();
    }
    let mut out = Vec::new();
    let mut chars = line.chars();
    while let Some(c) = chars.next() {
        if c == '/' && chars.clone().next() == Some('/') {
            break;
        }
        if c == '\'' {
            // A char literal such as '"' (a lifetime has no closing quote nearby).
            let ahead: String = chars.clone().take(3).collect();
            if ahead.starts_with("\"'") || ahead.starts_with("\\\"'") {
                chars.nth(ahead.find('\'').unwrap_or(0));
            }
            continue;
        }
        if c == '"' {
            let mut lit = String::new();
            while let Some(c) = chars.next() {
                match c {
                    '\\' => {
                        chars.next();
                    }
                    '"' => break,
                    c => lit.push(c),
                }
            }
            out.push(lit);
        }
    }
    out
}

/// Whether a literal reads as prose: two words of letters with a space between.
fn is_prose(lit: &str) -> bool {
    let words: Vec<&str> = lit.split(' ').collect();
    words.windows(2).any(|w| {
        let word = |s: &str| {
            let s = s.trim_end_matches([',', ':', ';', '.', '?', '!']);
            s.len() >= 2 && s.chars().all(|c| c.is_ascii_alphabetic())
        };
        word(w[0]) && word(w[1])
    })
}

#[test]
fn the_wording_modules_hold_no_prose_outside_the_catalogue() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut found = Vec::new();
    for module in WORDING {
        let text = std::fs::read_to_string(src.join(module)).unwrap();
        let code = text.split("#[cfg(test)]").next().unwrap_or_default();
        for (i, line) in code.lines().enumerate() {
            for lit in literals(line).into_iter().filter(|l| is_prose(l)) {
                found.push(format!("src/{module}:{}: {lit:?}", i + 1));
            }
        }
    }
    assert!(found.is_empty(), "prose outside the catalogue: {found:#?}");
}

#[test]
fn the_scan_finds_prose() {
    assert_eq!(
        literals(r#"format!("{mv} is illegal: {why}") // "a comment""#),
        ["{mv} is illegal: {why}"]
    );
    assert!(is_prose("is illegal: {why}"));
    assert!(!is_prose("label-capture-mandatory"));
    assert!(!is_prose("{mv} {effect}"));
    assert!(literals("let q = '\"'; // \"x y\"").is_empty());
}
