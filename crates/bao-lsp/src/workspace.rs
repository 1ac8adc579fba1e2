//! The workspace: the `.bao` files under the client's folders (an open document's text where
//! it is open) read for their tags. `workspace/symbol` lists their games by players, event
//! and date; on the value of a `South`, `North`, `Event` or `Site` tag, `references` gives
//! every such tag of the same value (a player's in either seat) and `rename` rewrites them
//! all. Each file is read with the notation's visitor (no record built) when asked, so memory
//! holds one file and the tags found.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use bao_notation::{visit_record, GameResult, Span, Spanned, Visitor};
use lsp_types::{Location, SymbolInformation, SymbolKind, TextEdit, Uri};

use crate::text::LineIndex;

/// The tags read: those `workspace/symbol` shows and those `references` and `rename` follow.
const READ: [&str; 5] = ["South", "North", "Event", "Site", "Date"];

/// The tags `references` and `rename` follow.
const FOLLOWED: [&str; 4] = ["South", "North", "Event", "Site"];

/// The most symbols `workspace/symbol` gives (a client asks again as the query grows).
const MAX_SYMBOLS: usize = 1000;

/// A tag read: its name, its value, the quoted value's span and the whole pair's span.
#[derive(Debug, Clone)]
pub(crate) struct TagAt {
    pub(crate) name: String,
    pub(crate) value: String,
    pub(crate) value_span: Span,
    pub(crate) span: Span,
}

/// A game's span and its tags of [`READ`].
#[derive(Debug, Default)]
pub(crate) struct GameTags {
    pub(crate) span: Span,
    pub(crate) tags: Vec<TagAt>,
}

impl GameTags {
    fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|t| t.name == name)
            .map(|t| t.value.as_str())
    }
}

#[derive(Default)]
struct Collect {
    games: Vec<GameTags>,
    current: GameTags,
}

impl Visitor for Collect {
    fn begin_game(&mut self, start: usize) {
        self.current = GameTags {
            span: Span::at(start),
            tags: Vec::new(),
        };
    }
    fn tag(&mut self, name: Spanned<&str>, value: Spanned<&str>, span: Span) {
        if READ.contains(&name.value) {
            self.current.tags.push(TagAt {
                name: name.value.to_owned(),
                value: value.value.to_owned(),
                value_span: value.span,
                span,
            });
        }
    }
    fn end_game(&mut self, span: Span, _: Option<Spanned<GameResult>>) {
        let mut g = std::mem::take(&mut self.current);
        g.span = span;
        self.games.push(g);
    }
}

/// The games of a text, with their tags of [`READ`].
pub(crate) fn games_of(text: &str) -> Vec<GameTags> {
    let mut c = Collect::default();
    visit_record(text, &mut c);
    c.games
}

/// The kind of a followed tag: a player (`South` and `North` alike) or the tag's name.
fn kind(name: &str) -> Option<&str> {
    match name {
        "South" | "North" => Some("player"),
        n if FOLLOWED.contains(&n) => Some(n),
        _ => None,
    }
}

/// The followed tag whose pair holds `offset` in `text`: its kind and value.
pub(crate) fn followed_tag_at(text: &str, offset: usize) -> Option<(String, String)> {
    games_of(text).into_iter().find_map(|g| {
        g.tags
            .into_iter()
            .find(|t| t.span.start <= offset && offset <= t.span.end)
            .and_then(|t| Some((kind(&t.name)?.to_owned(), t.value)))
    })
}

/// The `.bao` files under `roots` (hidden directories and `target` left out), sorted.
pub(crate) fn bao_files(roots: &[PathBuf]) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut dirs: Vec<PathBuf> = roots.to_vec();
    while let Some(dir) = dirs.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for e in entries.flatten() {
            let p = e.path();
            let hidden = e.file_name().to_string_lossy().starts_with('.');
            match e.file_type() {
                Ok(t) if t.is_dir() && !hidden && e.file_name() != "target" => dirs.push(p),
                Ok(t) if t.is_file() && p.extension().is_some_and(|x| x == "bao") => out.push(p),
                _ => {}
            }
        }
    }
    out.sort();
    out.dedup();
    out
}

/// The path of a `file:` URI.
pub(crate) fn path_of(uri: &Uri) -> Option<PathBuf> {
    let rest = uri.as_str().strip_prefix("file://")?;
    let b = rest.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'%' && i + 2 < b.len() {
            if let Some(v) = std::str::from_utf8(&b[i + 1..i + 3])
                .ok()
                .and_then(|h| u8::from_str_radix(h, 16).ok())
            {
                out.push(v);
                i += 3;
                continue;
            }
        }
        out.push(b[i]);
        i += 1;
    }
    Some(PathBuf::from(String::from_utf8(out).ok()?))
}

/// The `file:` URI of a path.
pub(crate) fn uri_of(path: &Path) -> Option<Uri> {
    let mut s = String::from("file://");
    for &c in path.to_str()?.as_bytes() {
        if c.is_ascii_alphanumeric() || b"-._~/".contains(&c) {
            s.push(c as char);
        } else {
            s.push_str(&format!("%{c:02X}"));
        }
    }
    s.parse().ok()
}

/// One text of the workspace: an open document's, or a file's read now.
pub(crate) struct Source<'a> {
    pub(crate) uri: Uri,
    pub(crate) text: std::borrow::Cow<'a, str>,
}

/// Calls `each` with every text of the workspace: the open documents (`open`), then the
/// files under `roots` that are not open.
pub(crate) fn each_source<'a>(
    open: impl Iterator<Item = (&'a Uri, &'a str)>,
    roots: &[PathBuf],
    mut each: impl FnMut(&Source<'_>),
) {
    let mut seen: Vec<String> = Vec::new();
    for (uri, text) in open {
        seen.push(uri.as_str().to_owned());
        each(&Source {
            uri: uri.clone(),
            text: std::borrow::Cow::Borrowed(text),
        });
    }
    for path in bao_files(roots) {
        let Some(uri) = uri_of(&path) else { continue };
        if seen.iter().any(|s| s == uri.as_str()) {
            continue;
        }
        let Ok(bytes) = std::fs::read(&path) else {
            continue;
        };
        let text = String::from_utf8_lossy(&bytes).into_owned();
        each(&Source {
            uri,
            text: std::borrow::Cow::Owned(text),
        });
    }
}

/// `workspace/symbol`: the games whose players, event, site or date hold `query` (any case;
/// all when it is empty), at most [`MAX_SYMBOLS`].
pub(crate) fn symbols<'a>(
    open: impl Iterator<Item = (&'a Uri, &'a str)>,
    roots: &[PathBuf],
    query: &str,
) -> Vec<SymbolInformation> {
    let query = query.to_lowercase();
    let mut out = Vec::new();
    each_source(open, roots, |src| {
        if out.len() >= MAX_SYMBOLS {
            return;
        }
        let index = LineIndex::new(&src.text);
        for (n, g) in games_of(&src.text).iter().enumerate() {
            if g.tags.is_empty() || out.len() >= MAX_SYMBOLS {
                continue;
            }
            let name = match (g.tag("South"), g.tag("North")) {
                (Some(s), Some(n)) => format!("{s} – {n}"),
                (Some(p), None) | (None, Some(p)) => p.to_owned(),
                (None, None) => g
                    .tag("Event")
                    .map_or_else(|| format!("Game {}", n + 1), str::to_owned),
            };
            let container: Vec<&str> = ["Event", "Site", "Date"]
                .iter()
                .filter_map(|t| g.tag(t))
                .collect();
            let container = container.join(", ");
            let hay = format!("{name} {container}").to_lowercase();
            if !query.is_empty() && !hay.contains(&query) {
                continue;
            }
            #[allow(deprecated)] // the protocol's `deprecated` field must be given
            out.push(SymbolInformation {
                name,
                kind: SymbolKind::EVENT,
                tags: None,
                deprecated: None,
                location: Location::new(
                    src.uri.clone(),
                    index.range(&src.text, g.span.start, g.span.end),
                ),
                container_name: (!container.is_empty()).then_some(container),
            });
        }
    });
    out
}

/// Every tag of kind `kind` and value `value` in the workspace: its document and the range
/// of its quoted value.
pub(crate) fn tags_like<'a>(
    open: impl Iterator<Item = (&'a Uri, &'a str)>,
    roots: &[PathBuf],
    kind_of: &str,
    value: &str,
) -> Vec<(Uri, lsp_types::Range)> {
    let mut out = Vec::new();
    each_source(open, roots, |src| {
        let mut index = None;
        for g in games_of(&src.text) {
            for t in &g.tags {
                if t.value == value && kind(&t.name) == Some(kind_of) {
                    let index = index.get_or_insert_with(|| LineIndex::new(&src.text));
                    let range = index.range(&src.text, t.value_span.start, t.value_span.end);
                    out.push((src.uri.clone(), range));
                }
            }
        }
    });
    out
}

/// The edits of `rename`: each tag like the one at the cursor given `new` as its value.
// The protocol's `WorkspaceEdit` is keyed by `Uri` (whose hash never changes).
#[allow(clippy::mutable_key_type)]
pub(crate) fn rename_edits(
    found: Vec<(Uri, lsp_types::Range)>,
    new: &str,
) -> HashMap<Uri, Vec<TextEdit>> {
    let quoted = format!("\"{}\"", new.replace('\\', "\\\\").replace('"', "\\\""));
    let mut changes: HashMap<Uri, Vec<TextEdit>> = HashMap::new();
    for (uri, range) in found {
        changes
            .entry(uri)
            .or_default()
            .push(TextEdit::new(range, quoted.clone()));
    }
    changes
}
