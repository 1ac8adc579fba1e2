//! No import circle inside any crate of the workspace; and in bao-cli, no command's module
//! refers to another command's (the second test, on the same module graph, at the end).
//!
//! Every `crates/*/src/**/*.rs` is read; a module is a file (`src/a/b.rs` or
//! `src/a/b/mod.rs` is `a::b`, `src/lib.rs` and `src/main.rs` the crate's root). A module
//! refers to another of its crate through
//! - `use` declarations: `use crate::x::...`, grouped `use crate::{a, b::c}`, `super::` and
//!   `self::` paths, and paths that start with a child module's name (`use frames::X` in the
//!   module declaring `mod frames`);
//! - paths anywhere in its code: `crate::x::f(...)`, `super::Type`, `child::f()`,
//!   `$crate::` in macros.
//!
//! A path counts as an edge to the deepest module file it names (`crate::a::b::Item` is
//! `a::b` when `src/a/b.rs` exists, else `a`). Not counted:
//! - comments (doc comments and their intra-doc links included), strings and characters;
//! - every item under `#[cfg(test)]` (a `mod tests { ... }` body, a test-only `use` or
//!   function): the attribute is found in the tokens and the item after it skipped to its
//!   `;` or the end of its braces, so tests may use what they test;
//! - a module's `pub use` (any visibility) of its own descendants: the facade that
//!   re-exports its children is the module tree, not an import. A private `use` of a child,
//!   or a path to it in code, counts.
//!
//! The test fails listing every strongly connected component of more than one module, each
//! with the lines that make its edges. A circle allowed would be in [`ALLOWED`], named; an
//! entry that no longer matches fails too, so it is removed with its circle.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// A module of a crate: its path below the root (`["grammar", "fast"]`), empty for the root.
type Module = Vec<String>;

/// Circles allowed, each a crate and the exact modules of one circle, with why (none: every
/// crate's modules import one way). An entry that no longer matches fails the test, so an
/// entry goes with its circle.
const ALLOWED: &[(&str, &[&str])] = &[];

/// The workspace's root (this crate is `crates/bao-testkit`).
fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum Tok {
    Ident(String),
    /// `::`
    PathSep,
    Punct(char),
}

/// The tokens of a source file, each with its line, without comments, strings and
/// character literals (lifetimes are dropped too).
fn tokens(src: &str) -> Vec<(Tok, usize)> {
    let b: Vec<char> = src.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    let mut line = 1;
    let count_lines = |from: usize, to: usize, line: &mut usize| {
        *line += b[from..to.min(b.len())]
            .iter()
            .filter(|c| **c == '\n')
            .count();
    };
    while i < b.len() {
        let c = b[i];
        if c == '\n' {
            line += 1;
            i += 1;
        } else if c.is_whitespace() {
            i += 1;
        } else if c == '/' && b.get(i + 1) == Some(&'/') {
            while i < b.len() && b[i] != '\n' {
                i += 1;
            }
        } else if c == '/' && b.get(i + 1) == Some(&'*') {
            let start = i;
            let mut depth = 0;
            while i < b.len() {
                if b[i] == '/' && b.get(i + 1) == Some(&'*') {
                    depth += 1;
                    i += 2;
                } else if b[i] == '*' && b.get(i + 1) == Some(&'/') {
                    depth -= 1;
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    i += 1;
                }
            }
            count_lines(start, i, &mut line);
        } else if c == 'r' && matches!(b.get(i + 1), Some('"' | '#')) && raw_string_at(&b, i + 1)
            || c == 'b' && b.get(i + 1) == Some(&'r') && raw_string_at(&b, i + 2)
        {
            // A raw string: r"..." or r#"..."#, byte or not.
            let start = i;
            i += if c == 'b' { 2 } else { 1 };
            let mut hashes = 0;
            while b[i] == '#' {
                hashes += 1;
                i += 1;
            }
            i += 1;
            loop {
                if i >= b.len() {
                    break;
                }
                if b[i] == '"' && (0..hashes).all(|h| b.get(i + 1 + h) == Some(&'#')) {
                    i += 1 + hashes;
                    break;
                }
                i += 1;
            }
            count_lines(start, i, &mut line);
        } else if c == '"' || (c == 'b' || c == 'c') && b.get(i + 1) == Some(&'"') {
            let start = i;
            i += if c == '"' { 1 } else { 2 };
            while i < b.len() && b[i] != '"' {
                i += if b[i] == '\\' { 2 } else { 1 };
            }
            i += 1;
            count_lines(start, i, &mut line);
        } else if c == '\'' || c == 'b' && b.get(i + 1) == Some(&'\'') {
            // A character ('x', '\n', '\u{..}', b'x') or a lifetime ('a, 'static).
            let q = if c == '\'' { i } else { i + 1 };
            if b.get(q + 1) == Some(&'\\') {
                let mut j = q + 2;
                while j < b.len() && b[j] != '\'' {
                    j += 1;
                }
                i = j + 1;
            } else if b.get(q + 2) == Some(&'\'') {
                i = q + 3;
            } else {
                // A lifetime: skip the quote and its name.
                i = q + 1;
                while i < b.len() && (b[i].is_alphanumeric() || b[i] == '_') {
                    i += 1;
                }
            }
        } else if c.is_alphabetic() || c == '_' {
            let start = i;
            while i < b.len() && (b[i].is_alphanumeric() || b[i] == '_') {
                i += 1;
            }
            let word: String = b[start..i].iter().collect();
            // `r#type`: the identifier `type`.
            let word = word.strip_prefix("r#").map_or(word.clone(), str::to_owned);
            out.push((Tok::Ident(word), line));
        } else if c.is_ascii_digit() {
            while i < b.len() && (b[i].is_alphanumeric() || b[i] == '_' || b[i] == '.') {
                // `1..2` is two numbers and a range.
                if b[i] == '.' && b.get(i + 1) == Some(&'.') {
                    break;
                }
                i += 1;
            }
        } else if c == ':' && b.get(i + 1) == Some(&':') {
            out.push((Tok::PathSep, line));
            i += 2;
        } else {
            out.push((Tok::Punct(c), line));
            i += 1;
        }
    }
    out
}

/// Whether a raw string's hashes and quote start at `i` (`#"`, `##"`, `"`).
fn raw_string_at(b: &[char], mut i: usize) -> bool {
    while b.get(i) == Some(&'#') {
        i += 1;
    }
    b.get(i) == Some(&'"')
}

/// Every module file of a crate's `src`, by module path.
fn module_files(src: &Path) -> BTreeMap<Module, PathBuf> {
    fn walk(dir: &Path, base: &Module, out: &mut BTreeMap<Module, PathBuf>) {
        let mut entries: Vec<_> = std::fs::read_dir(dir)
            .expect("a source directory")
            .map(|e| e.expect("a directory entry").path())
            .collect();
        entries.sort();
        for path in entries {
            let name = path
                .file_name()
                .and_then(|n| n.to_str())
                .unwrap_or_default();
            if path.is_dir() {
                let mut m = base.clone();
                m.push(name.to_owned());
                walk(&path, &m, out);
            } else if let Some(stem) = name.strip_suffix(".rs") {
                let mut m = base.clone();
                match stem {
                    "mod" => {}
                    "lib" | "main" if base.is_empty() => {}
                    _ => m.push(stem.to_owned()),
                }
                out.insert(m, path);
            }
        }
    }
    let mut out = BTreeMap::new();
    walk(src, &Vec::new(), &mut out);
    out
}

/// One reference from a module to another, with the line that makes it.
#[derive(Debug, Clone)]
struct Edge {
    to: Module,
    line: usize,
}

/// The modules one module file refers to.
struct Reader<'a> {
    toks: Vec<(Tok, usize)>,
    me: &'a Module,
    modules: &'a BTreeMap<Module, PathBuf>,
    edges: Vec<Edge>,
}

impl Reader<'_> {
    fn ident(&self, i: usize) -> Option<&str> {
        match self.toks.get(i) {
            Some((Tok::Ident(w), _)) => Some(w),
            _ => None,
        }
    }

    fn punct(&self, i: usize, c: char) -> bool {
        matches!(self.toks.get(i), Some((Tok::Punct(p), _)) if *p == c)
    }

    fn sep(&self, i: usize) -> bool {
        matches!(self.toks.get(i), Some((Tok::PathSep, _)))
    }

    /// `#[cfg(test)]` at `i`.
    fn cfg_test(&self, i: usize) -> bool {
        self.punct(i, '#')
            && self.punct(i + 1, '[')
            && self.ident(i + 2) == Some("cfg")
            && self.punct(i + 3, '(')
            && self.ident(i + 4) == Some("test")
            && self.punct(i + 5, ')')
            && self.punct(i + 6, ']')
    }

    /// The index after the bracketed group opening at `i` (`(`, `[` or `{`).
    fn skip_group(&self, mut i: usize) -> usize {
        let mut depth = 0_i32;
        while i < self.toks.len() {
            match self.toks[i].0 {
                Tok::Punct('(' | '[' | '{') => depth += 1,
                Tok::Punct(')' | ']' | '}') => {
                    depth -= 1;
                    if depth == 0 {
                        return i + 1;
                    }
                }
                _ => {}
            }
            i += 1;
        }
        i
    }

    /// The index after the item starting at `i` (its attributes first): after its `;` or
    /// its braced body, whichever comes first outside brackets.
    fn skip_item(&self, mut i: usize) -> usize {
        while self.punct(i, '#') && self.punct(i + 1, '[') {
            i = self.skip_group(i + 1);
        }
        while i < self.toks.len() {
            match self.toks[i].0 {
                Tok::Punct(';') => return i + 1,
                Tok::Punct('{') => return self.skip_group(i),
                Tok::Punct('(' | '[') => i = self.skip_group(i),
                _ => i += 1,
            }
        }
        i
    }

    /// The module a path's first segment names, from inside `inline` inline modules of the
    /// file; `None` for an outside crate, a local name or `Self`. `supers` counts the
    /// `super`s the path starts with (at `i`), `i` moves past them.
    fn base(&self, i: &mut usize, inline: usize) -> Option<Module> {
        let first = self.ident(*i)?;
        match first {
            "crate" => {
                *i += 1;
                Some(Vec::new())
            }
            "self" => {
                *i += 1;
                Some(self.me.clone())
            }
            "super" => {
                let mut m = self.me.clone();
                let mut left_inline = inline;
                while self.ident(*i) == Some("super") {
                    if left_inline > 0 {
                        left_inline -= 1;
                    } else {
                        m.pop();
                    }
                    *i += 1;
                    if self.sep(*i) && self.ident(*i + 1) == Some("super") {
                        *i += 1;
                    } else {
                        break;
                    }
                }
                Some(m)
            }
            child if inline == 0 => {
                let mut m = self.me.clone();
                m.push(child.to_owned());
                // A child module's name: the path is read from it (the segment stays).
                self.modules.contains_key(&m).then(|| self.me.clone())
            }
            _ => None,
        }
    }

    /// The deepest module `base::segments` names.
    fn target(&self, base: &Module, segments: &[String]) -> Module {
        let mut m = base.clone();
        for s in segments {
            m.push(s.clone());
            if !self.modules.contains_key(&m) {
                m.pop();
                break;
            }
        }
        m
    }

    fn edge(&mut self, to: Module, line: usize, reexport: bool) {
        let descendant = to.len() > self.me.len() && to.starts_with(self.me);
        if to != *self.me && !(reexport && descendant) {
            self.edges.push(Edge { to, line });
        }
    }

    /// The use tree at `i` below `prefix` (resolved), every leaf an edge; the index after.
    fn use_tree(
        &mut self,
        mut i: usize,
        prefix: Option<(Module, Vec<String>)>,
        reexport: bool,
    ) -> usize {
        let line = self.toks.get(i).map_or(0, |t| t.1);
        let (base, mut segments) = match prefix {
            Some(p) => p,
            None => {
                if self.sep(i) {
                    // `::std::...`: an outside crate.
                    return self.skip_use(i);
                }
                match self.base(&mut i, 0) {
                    Some(b) => {
                        if self.sep(i) {
                            i += 1;
                        }
                        (b, Vec::new())
                    }
                    None => return self.skip_use(i),
                }
            }
        };
        loop {
            if self.punct(i, '{') {
                i += 1;
                while !self.punct(i, '}') && i < self.toks.len() {
                    let before = i;
                    i = self.use_tree(i, Some((base.clone(), segments.clone())), reexport);
                    if i == before {
                        i += 1;
                    }
                    if self.punct(i, ',') {
                        i += 1;
                    }
                }
                return i + 1;
            }
            if self.punct(i, '*') {
                let to = self.target(&base, &segments);
                self.edge(to, line, reexport);
                return i + 1;
            }
            match self.ident(i) {
                Some("self") => i += 1,
                Some("as") => {
                    i += 2;
                    break;
                }
                Some(w) => {
                    segments.push(w.to_owned());
                    i += 1;
                }
                None => break,
            }
            if self.sep(i) {
                i += 1;
            } else {
                if self.ident(i) == Some("as") {
                    i += 2;
                }
                break;
            }
        }
        let to = self.target(&base, &segments);
        self.edge(to, line, reexport);
        i
    }

    /// Past an outside crate's use tree (up to `,` or `}` of its group, or `;`).
    fn skip_use(&self, mut i: usize) -> usize {
        while i < self.toks.len()
            && !self.punct(i, ',')
            && !self.punct(i, '}')
            && !self.punct(i, ';')
        {
            if self.punct(i, '{') {
                i = self.skip_group(i);
            } else {
                i += 1;
            }
        }
        i
    }

    /// Whether the `use` at `i` is public (`pub use`, `pub(crate) use`, ...).
    fn public_use(&self, i: usize) -> bool {
        if i >= 1 && self.ident(i - 1) == Some("pub") {
            return true;
        }
        // `pub ( crate ) use`, `pub ( in a :: b ) use`.
        if i >= 1 && self.punct(i - 1, ')') {
            let mut j = i - 1;
            while j > 0 && !self.punct(j, '(') {
                j -= 1;
            }
            return j >= 1 && self.ident(j - 1) == Some("pub");
        }
        false
    }

    fn read(&mut self) {
        let mut i = 0;
        let mut depth = 0_usize;
        // The brace depths the file's inline modules opened at.
        let mut inline: Vec<usize> = Vec::new();
        while i < self.toks.len() {
            if self.cfg_test(i) {
                i = self.skip_item(i);
                continue;
            }
            let prev_sep = i > 0 && (self.sep(i - 1) || self.punct(i - 1, '.'));
            match &self.toks[i].0 {
                Tok::Punct('{') => {
                    depth += 1;
                    i += 1;
                }
                Tok::Punct('}') => {
                    depth = depth.saturating_sub(1);
                    if inline.last() == Some(&depth) {
                        inline.pop();
                    }
                    i += 1;
                }
                Tok::Ident(w)
                    if w == "mod" && self.ident(i + 1).is_some() && self.punct(i + 2, '{') =>
                {
                    inline.push(depth);
                    depth += 1;
                    i += 3;
                }
                Tok::Ident(w) if w == "use" && !prev_sep => {
                    let reexport = self.public_use(i);
                    i += 1;
                    if inline.is_empty() {
                        i = self.use_tree(i, None, reexport);
                    } else {
                        // Inside an inline module: only absolute paths are read.
                        let mut j = i;
                        if self.ident(j) == Some("crate") || self.ident(j) == Some("super") {
                            if let Some(b) = self.base(&mut j, inline.len()) {
                                if self.sep(j) {
                                    j += 1;
                                }
                                i = self.use_tree(j, Some((b, Vec::new())), reexport);
                            }
                        }
                    }
                }
                Tok::Ident(w)
                    if !prev_sep
                        && self.sep(i + 1)
                        && (w == "crate" || w == "super" || w == "self" || inline.is_empty()) =>
                {
                    let line = self.toks[i].1;
                    let mut j = i;
                    if let Some(base) = self.base(&mut j, inline.len()) {
                        let mut segments = Vec::new();
                        if j == i {
                            // A child module's name: the first segment.
                            segments.push(w.clone());
                            j += 1;
                        }
                        while self.sep(j) {
                            match self.ident(j + 1) {
                                Some(s) => segments.push(s.to_owned()),
                                None => break,
                            }
                            j += 2;
                        }
                        let to = self.target(&base, &segments);
                        self.edge(to, line, false);
                        i = j.max(i + 1);
                    } else {
                        i += 1;
                    }
                }
                _ => i += 1,
            }
        }
    }
}

/// The strongly connected components (Tarjan) of more than one module.
fn circles(graph: &BTreeMap<Module, BTreeSet<Module>>) -> Vec<Vec<Module>> {
    struct State<'g> {
        graph: &'g BTreeMap<Module, BTreeSet<Module>>,
        index: BTreeMap<&'g Module, usize>,
        low: BTreeMap<&'g Module, usize>,
        stack: Vec<&'g Module>,
        on_stack: BTreeSet<&'g Module>,
        next: usize,
        out: Vec<Vec<Module>>,
    }
    fn visit<'g>(s: &mut State<'g>, v: &'g Module) {
        s.index.insert(v, s.next);
        s.low.insert(v, s.next);
        s.next += 1;
        s.stack.push(v);
        s.on_stack.insert(v);
        for w in s.graph.get(v).into_iter().flatten() {
            if !s.index.contains_key(w) {
                visit(s, w);
                let lw = s.low[w];
                let lv = s.low.get_mut(v).expect("visited");
                *lv = (*lv).min(lw);
            } else if s.on_stack.contains(w) {
                let iw = s.index[w];
                let lv = s.low.get_mut(v).expect("visited");
                *lv = (*lv).min(iw);
            }
        }
        if s.low[v] == s.index[v] {
            let mut component = Vec::new();
            while let Some(w) = s.stack.pop() {
                s.on_stack.remove(w);
                component.push(w.clone());
                if w == v {
                    break;
                }
            }
            if component.len() > 1 {
                component.sort();
                s.out.push(component);
            }
        }
    }
    let mut s = State {
        graph,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        on_stack: BTreeSet::new(),
        next: 0,
        out: Vec::new(),
    };
    for v in graph.keys() {
        if !s.index.contains_key(v) {
            visit(&mut s, v);
        }
    }
    s.out.sort();
    s.out
}

fn name(m: &Module) -> String {
    if m.is_empty() {
        "(root)".to_owned()
    } else {
        m.join("::")
    }
}

/// A crate's modules and their references: the graph, and the lines behind each edge.
type Graph = (
    BTreeMap<Module, BTreeSet<Module>>,
    BTreeMap<(Module, Module), Vec<(PathBuf, usize)>>,
);

fn crate_graph(src: &Path) -> Graph {
    let modules = module_files(src);
    let mut graph: BTreeMap<Module, BTreeSet<Module>> = BTreeMap::new();
    let mut lines: BTreeMap<(Module, Module), Vec<(PathBuf, usize)>> = BTreeMap::new();
    for (m, path) in &modules {
        let text = std::fs::read_to_string(path).expect("a source file");
        let mut r = Reader {
            toks: tokens(&text),
            me: m,
            modules: &modules,
            edges: Vec::new(),
        };
        r.read();
        let out = graph.entry(m.clone()).or_default();
        for e in r.edges {
            out.insert(e.to.clone());
            lines
                .entry((m.clone(), e.to))
                .or_default()
                .push((path.clone(), e.line));
        }
    }
    (graph, lines)
}

/// Every circle of the workspace's crates, by crate, with the lines of its edges.
fn workspace_circles() -> Vec<(String, Vec<Module>, String)> {
    let mut crates: Vec<PathBuf> = std::fs::read_dir(root().join("crates"))
        .expect("crates/")
        .map(|e| e.expect("an entry").path())
        .filter(|p| p.join("src").is_dir())
        .collect();
    crates.sort();
    let mut found = Vec::new();
    for dir in crates {
        let krate = dir
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or_default()
            .to_owned();
        let (graph, lines) = crate_graph(&dir.join("src"));
        for circle in circles(&graph) {
            let mut why = String::new();
            for from in &circle {
                for to in graph[from].iter().filter(|t| circle.contains(t)) {
                    let at: Vec<String> = lines[&(from.clone(), to.clone())]
                        .iter()
                        .take(3)
                        .map(|(p, l)| {
                            let p = p.strip_prefix(&dir).unwrap_or(p);
                            format!("{}:{l}", p.display())
                        })
                        .collect();
                    let _ = writeln!(
                        why,
                        "      {} -> {} ({})",
                        name(from),
                        name(to),
                        at.join(", ")
                    );
                }
            }
            found.push((krate.clone(), circle, why));
        }
    }
    found
}

#[test]
fn no_import_circle_inside_a_crate() {
    let found = workspace_circles();
    let mut report = String::new();
    let mut used = vec![false; ALLOWED.len()];
    for (krate, circle, why) in &found {
        let names: Vec<String> = circle.iter().map(name).collect();
        let allowed = ALLOWED.iter().position(|(k, ms)| {
            k == krate && ms.len() == names.len() && ms.iter().zip(&names).all(|(a, b)| a == b)
        });
        match allowed {
            Some(a) => used[a] = true,
            None => {
                let _ = writeln!(report, "  {krate}: {}\n{why}", names.join(", "));
            }
        }
    }
    for ((krate, ms), used) in ALLOWED.iter().zip(used) {
        if !used {
            let _ = writeln!(
                report,
                "  {krate}: the allowed circle {} is gone or changed: update ALLOWED",
                ms.join(", ")
            );
        }
    }
    assert!(report.is_empty(), "import circles inside crates:\n{report}");
}

/// The reader on a small crate: groups, `super`, inline paths, tests and re-exports.
#[test]
fn the_reader_finds_circles_and_skips_tests_and_reexports() {
    let dir = std::env::temp_dir().join(format!("bao-modules-{}", std::process::id()));
    let src = dir.join("src");
    std::fs::create_dir_all(src.join("grammar")).unwrap();
    let write = |p: &str, t: &str| std::fs::write(src.join(p), t).unwrap();
    write(
        "lib.rs",
        "mod a; mod b; mod grammar;\npub use a::A;\npub use grammar::{fast::F, slow};\n\
         pub struct Error;\n",
    );
    // a -> b (grouped use), b -> a (inline path): a circle.
    write(
        "a.rs",
        "use crate::{b::{self, B}, Error};\npub struct A; // crate::grammar::x\n",
    );
    write(
        "b.rs",
        "pub struct B;\nfn f() { let _ = crate::a::A; let s = \"crate::grammar::fast\"; }\n\
         #[cfg(test)]\nmod tests { use crate::grammar::fast::F; }\n",
    );
    // grammar::fast -> grammar (super) and grammar -> grammar::fast (private use).
    write(
        "grammar/mod.rs",
        "pub mod fast;\npub mod slow;\nuse fast::F;\npub struct G;\n",
    );
    write(
        "grammar/fast.rs",
        "pub struct F;\nfn g() -> super::G { super::G }\n",
    );
    // slow -> fast, and a re-export of the root's own child is no edge.
    write(
        "grammar/slow.rs",
        "use super::fast::F;\nfn r<'a>(x: &'a str) -> char { 'a' }\n",
    );
    let (graph, _) = crate_graph(&src);
    std::fs::remove_dir_all(&dir).unwrap();
    let m = |s: &str| -> Module {
        if s.is_empty() {
            Vec::new()
        } else {
            s.split("::").map(str::to_owned).collect()
        }
    };
    let edges = |s: &str| -> Vec<String> { graph[&m(s)].iter().map(name).collect() };
    assert_eq!(edges(""), Vec::<String>::new());
    assert_eq!(edges("a"), ["(root)", "b"]);
    assert_eq!(edges("b"), ["a"]);
    assert_eq!(edges("grammar"), ["grammar::fast"]);
    assert_eq!(edges("grammar::fast"), ["grammar"]);
    assert_eq!(edges("grammar::slow"), ["grammar::fast"]);
    let circles: Vec<Vec<String>> = circles(&graph)
        .iter()
        .map(|c| c.iter().map(name).collect())
        .collect();
    assert_eq!(circles, [vec!["a", "b"], vec!["grammar", "grammar::fast"]]);
}

/// bao-cli's command modules: the files named after the subcommands its `main.rs` dispatches
/// to (`Self::Filter(args) => archive::filter(args, ctx)` makes `archive` one), a command's
/// submodules with it (`record::input`, `record::render`). Every other module of bao-cli is
/// plumbing (`context`, `error`, `io`, `inputs`, `games`, `position`, `report`, `streaming`,
/// `pool`, `output`, `progress`, `best`, `pages`), which every command may use. The test
/// below also checks this list against `main.rs`, so a new command is not left out.
const CLI_COMMANDS: &[&str] = &[
    "analyse",
    "annotate",
    "archive",
    "check",
    "completions",
    "engine",
    "export",
    "fmt",
    "import",
    "legal",
    "lsp",
    "man",
    "new",
    "perft",
    "record",
    "replay",
    "serve",
    "show",
    "solve",
];

/// The modules a binary's `main.rs` dispatches commands to: `IDENT` in every
/// `=> IDENT::function(` of it where `IDENT` is a module of the crate at `src` (not a type:
/// `=> ExitCode::from(1)`).
fn dispatched(src: &Path) -> BTreeSet<String> {
    let main = std::fs::read_to_string(src.join("main.rs")).expect("a main.rs");
    let modules = module_files(src);
    let toks = tokens(&main);
    let mut out = BTreeSet::new();
    for w in toks.windows(6) {
        if let [(Tok::Punct('='), _), (Tok::Punct('>'), _), (Tok::Ident(m), _), (Tok::PathSep, _), (Tok::Ident(_), _), (Tok::Punct('('), _)] =
            w
        {
            if modules.contains_key(std::slice::from_ref(m)) {
                out.insert(m.clone());
            }
        }
    }
    out
}

/// Every reference in the crate at `src` from a command's module (or a submodule of it) to
/// another command's, and from a plumbing module (neither the root nor a command's) to a
/// command's, each as `from -> to (file:line)`.
fn command_crossings(src: &Path, commands: &[&str]) -> Vec<String> {
    let command = |m: &Module| {
        m.first()
            .filter(|c| commands.contains(&c.as_str()))
            .cloned()
    };
    let (graph, lines) = crate_graph(src);
    let mut out = Vec::new();
    for (from, tos) in &graph {
        if from.is_empty() {
            continue;
        }
        for to in tos {
            let crossing = match (command(from), command(to)) {
                (Some(a), Some(b)) => a != b,
                (None, Some(_)) => true,
                (_, None) => false,
            };
            if crossing {
                for (path, line) in &lines[&(from.clone(), to.clone())] {
                    let path = path.strip_prefix(src).unwrap_or(path);
                    out.push(format!(
                        "{} -> {} ({}:{line})",
                        name(from),
                        name(to),
                        path.display()
                    ));
                }
            }
        }
    }
    // Two names of one `use` line are one reference.
    out.dedup();
    out
}

/// Issue 29: in bao-cli, what commands share is plumbing in modules of its own, and no
/// command's module refers to another command's (nor plumbing to a command).
#[test]
fn no_bao_cli_command_module_refers_to_another() {
    let src = root().join("crates/bao-cli/src");
    let listed: BTreeSet<String> = CLI_COMMANDS.iter().map(|c| (*c).to_owned()).collect();
    assert_eq!(
        dispatched(&src),
        listed,
        "CLI_COMMANDS must name exactly the modules main.rs dispatches commands to"
    );
    let modules = module_files(&src);
    for c in CLI_COMMANDS {
        assert!(
            modules.contains_key(&vec![(*c).to_owned()]),
            "the command module {c} has no file"
        );
    }
    let crossings = command_crossings(&src, CLI_COMMANDS);
    assert!(
        crossings.is_empty(),
        "bao-cli command modules that refer to another command's (move what they share into \
         a plumbing module):\n  {}",
        crossings.join("\n  ")
    );
}

/// The crossing check on a small binary: a command using plumbing or its own submodule is
/// fine; one command's path to another's (a `use`, an inline path, from a submodule), and
/// plumbing's path to a command, are reported; the dispatch is read from `main.rs`.
#[test]
fn the_command_check_finds_crossings() {
    let dir = std::env::temp_dir().join(format!("bao-commands-{}", std::process::id()));
    let src = dir.join("src");
    std::fs::create_dir_all(src.join("b")).unwrap();
    let write = |p: &str, t: &str| std::fs::write(src.join(p), t).unwrap();
    write(
        "main.rs",
        "mod a; mod b; mod p; mod q;\nfn run(c: C) { match c { C::A(x) => a::run(x), \
         C::B(x) => b::stats(x), C::Q => Code::from(1) } }\n",
    );
    write(
        "a.rs",
        "use crate::p::P;\npub fn run() { crate::b::f(); }\n",
    );
    write(
        "b/mod.rs",
        "mod sub;\nuse sub::S;\npub fn stats() {}\npub fn f() {}\n",
    );
    write("b/sub.rs", "use crate::{a, p::P};\npub struct S;\n");
    write("p.rs", "pub struct P;\n");
    write("q.rs", "fn g() { crate::a::run(); }\n");
    let found = command_crossings(&src, &["a", "b"]);
    let commands = dispatched(&src);
    std::fs::remove_dir_all(&dir).unwrap();
    assert_eq!(
        commands,
        ["a", "b"].map(str::to_owned).into_iter().collect()
    );
    assert_eq!(
        found,
        [
            "a -> b (a.rs:2)",
            "b::sub -> a (b/sub.rs:1)",
            "q -> a (q.rs:1)"
        ]
    );
}
