//! [`StatsReport`] for people: a plain-text summary, and a self-contained HTML page with SVG
//! charts and the opening tree (no script, no external loads).

use std::fmt::Write as _;

use bao_export::escape_html;

use crate::stats::{ShownGame, StatsReport, TreeMove};

fn percent(part: u64, whole: u64) -> String {
    if whole == 0 {
        return "-".to_owned();
    }
    let p = part as f64 * 100.0 / whole as f64;
    format!("{p:.1}%")
}

fn score(s: Option<f64>) -> String {
    s.map_or_else(|| "-".to_owned(), |s| format!("{:.1}%", s * 100.0))
}

/// The statistics as text, for a terminal.
#[must_use]
pub fn human(r: &StatsReport) -> String {
    let mut o = String::new();
    let t = &r.results;
    let _ = writeln!(o, "games    {}   plies {}", r.games, r.plies);
    let _ = writeln!(
        o,
        "results  South {} ({})   North {} ({})   draws {} ({})   no result {}",
        t.south_wins,
        percent(t.south_wins, r.games),
        t.north_wins,
        percent(t.north_wins, r.games),
        t.draws,
        percent(t.draws, r.games),
        r.games - t.decided()
    );
    let _ = writeln!(o, "South's score {}", score(r.south_share));
    let _ = writeln!(o, "\nendings");
    for e in &r.endings {
        let _ = writeln!(
            o,
            "  {:<24} {:>7}  {:>6}",
            e.reason,
            e.games,
            percent(e.games, r.games)
        );
    }
    let _ = writeln!(o, "\nlengths (plies)");
    let most = r.lengths.iter().map(|b| b.games).max().unwrap_or(0);
    for b in &r.lengths {
        let width = (b.games * 40)
            .checked_div(most)
            .map_or(0, |w| usize::try_from(w).unwrap_or(40));
        let _ = writeln!(
            o,
            "  {:>4}-{:<4} {:>7}  {}",
            b.from,
            b.to,
            b.games,
            "#".repeat(width.max(usize::from(b.games > 0)))
        );
    }
    let _ = writeln!(o, "\nplayers (rating: {})", r.rating);
    let _ = writeln!(
        o,
        "  {:<24} {:>6} {:>5} {:>5} {:>5} {:>7} {:>7}",
        "name", "games", "won", "drawn", "lost", "score", "rating"
    );
    for p in &r.players {
        let _ = writeln!(
            o,
            "  {:<24} {:>6} {:>5} {:>5} {:>5} {:>7} {:>7}",
            p.name,
            p.games,
            p.wins,
            p.draws,
            p.losses,
            score(p.score),
            p.rating
                .map_or_else(|| "-".to_owned(), |x| format!("{x:.0}"))
        );
    }
    let width = 2 * r.tree_depth + 8;
    for t in &r.trees {
        let _ = writeln!(
            o,
            "\nopening tree of {} ({} games; first {} plies; games, the mover's score)",
            t.start, t.games, r.tree_depth
        );
        tree_text(&t.moves, 1, width, &mut o);
    }
    o
}

/// The tree, one move a line, indented by its ply; the counts aligned in one column.
fn tree_text(moves: &[TreeMove], level: usize, width: usize, o: &mut String) {
    for m in moves {
        let name = format!("{}{}", "  ".repeat(level), m.mv);
        let _ = writeln!(o, "{name:<width$} {:>7}  {:>6}", m.games, score(m.score));
        tree_text(&m.replies, level + 1, width, o);
    }
}

/// A horizontal bar chart: one labelled bar per item.
fn bar_chart(items: &[(String, u64)], colour: &str) -> String {
    let most = items.iter().map(|i| i.1).max().unwrap_or(0).max(1);
    let row = 26;
    let height = row * items.len().max(1) + 8;
    let mut s = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"560\" height=\"{height}\" \
         viewBox=\"0 0 560 {height}\" \
         role=\"img\" font-family=\"sans-serif\" font-size=\"13\">"
    );
    for (i, (label, n)) in items.iter().enumerate() {
        let y = 4 + i * row;
        let w = usize::try_from(*n * 300 / most).unwrap_or(300);
        let _ = write!(
            s,
            "<text x=\"170\" y=\"{}\" text-anchor=\"end\">{}</text>\
             <rect x=\"180\" y=\"{}\" width=\"{}\" height=\"18\" fill=\"{colour}\" rx=\"2\"/>\
             <text x=\"{}\" y=\"{}\">{n}</text>",
            y + 14,
            escape_html(label),
            y,
            w.max(1),
            186 + w,
            y + 14,
        );
    }
    s.push_str("</svg>");
    s
}

/// The histogram of lengths: vertical bars with the bins under them.
fn histogram(r: &StatsReport) -> String {
    let most = r.lengths.iter().map(|b| b.games).max().unwrap_or(0).max(1);
    let n = r.lengths.len().max(1);
    let bar = (640 / n).clamp(8, 48);
    let width = 60 + bar * n + 20;
    let mut s = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{width}\" height=\"250\" \
         viewBox=\"0 0 {width} 250\" \
         role=\"img\" font-family=\"sans-serif\" font-size=\"11\">\
         <line x1=\"50\" y1=\"210\" x2=\"{}\" y2=\"210\" stroke=\"#555\"/>\
         <text x=\"46\" y=\"24\" text-anchor=\"end\">{most}</text>\
         <text x=\"46\" y=\"210\" text-anchor=\"end\">0</text>",
        width - 10
    );
    for (i, b) in r.lengths.iter().enumerate() {
        let h = usize::try_from(b.games * 190 / most).unwrap_or(190);
        let x = 55 + i * bar;
        let _ = write!(
            s,
            "<rect x=\"{x}\" y=\"{}\" width=\"{}\" height=\"{h}\" fill=\"#4a7ab5\">\
             <title>{}-{} plies: {} games</title></rect>",
            210 - h,
            bar - 2,
            b.from,
            b.to,
            b.games
        );
        if n <= 16 || i % 2 == 0 {
            let _ = write!(
                s,
                "<text x=\"{}\" y=\"226\" text-anchor=\"middle\">{}</text>",
                x + bar / 2,
                b.from
            );
        }
    }
    let _ = write!(
        s,
        "<text x=\"{}\" y=\"244\" text-anchor=\"middle\">plies</text></svg>",
        55 + bar * n / 2
    );
    s
}

/// South's wins, draws, North's wins as one stacked bar.
fn results_bar(r: &StatsReport) -> String {
    let t = &r.results;
    let total = t.games.max(1);
    let parts = [
        ("South wins", t.south_wins, "#e3c16f"),
        ("draws", t.draws, "#9aa0a6"),
        ("North wins", t.north_wins, "#5b3a29"),
        ("no result", t.games - t.decided(), "#dddddd"),
    ];
    let mut s = String::from(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"620\" height=\"70\" \
         viewBox=\"0 0 620 70\" role=\"img\" \
         font-family=\"sans-serif\" font-size=\"12\">",
    );
    let mut x = 0;
    for (label, n, colour) in parts {
        let w = usize::try_from(n * 540 / total).unwrap_or(0);
        if w > 0 {
            let _ = write!(
                s,
                "<rect x=\"{}\" y=\"4\" width=\"{w}\" height=\"30\" fill=\"{colour}\">\
                 <title>{label}: {n}</title></rect>",
                x + 10
            );
        }
        x += w;
    }
    let mut lx = 10;
    for (label, n, colour) in parts {
        let _ = write!(
            s,
            "<rect x=\"{lx}\" y=\"46\" width=\"12\" height=\"12\" fill=\"{colour}\" stroke=\"#888\"/>\
             <text x=\"{}\" y=\"57\">{label} {n} ({})</text>",
            lx + 16,
            percent(n, t.games)
        );
        lx += 150;
    }
    s.push_str("</svg>");
    s
}

/// The most diagrams one page draws (the most played nodes first, as the tree is written).
const MAX_DIAGRAMS: usize = 150;

/// The diagram of the position after a tree move, for a move at least two games played
/// (while the page's budget of diagrams lasts).
fn tree_diagram(m: &TreeMove, budget: &mut usize) -> Option<String> {
    let pos = m.after.as_ref().filter(|_| m.games >= 2 && *budget > 0)?;
    *budget -= 1;
    let inline = inline_board(pos, format!("t{budget}-"));
    Some(format!("<div class=\"pos\">{inline}</div>"))
}

/// The board `pos` drawn for the page, its element ids starting with `prefix`.
fn inline_board(pos: &bao_core::Position, prefix: String) -> String {
    let opts = bao_export::SvgOptions {
        width: 300,
        coordinates: false,
        id_prefix: prefix,
        ..bao_export::SvgOptions::default()
    };
    let svg = bao_export::board_svg(pos, &opts, None);
    // Inline in the page: the picture without its XML declaration.
    svg.find("<svg")
        .map_or(svg.clone(), |i| svg[i..].to_owned())
}

/// The page's anchor of the `i`th game shown.
fn game_anchor(i: usize) -> String {
    format!("game-{}", i + 1)
}

/// The tree's moves: `path` holds the moves that lead to them.
fn tree_html(
    moves: &[TreeMove],
    shown: &[ShownGame],
    path: &mut Vec<String>,
    o: &mut String,
    open: bool,
    budget: &mut usize,
) {
    o.push_str("<ul class=\"tree\">");
    for m in moves {
        path.push(m.mv.clone());
        let pct = m.score.map_or(0.0, |s| s * 100.0);
        let row = format!(
            "<span class=\"mv\">{}</span><span class=\"n\">{}</span>\
             <span class=\"bar\"><span style=\"width:{pct:.0}%\"></span></span>\
             <span class=\"sc\">{}</span><span class=\"wdl\">{}–{}–{}</span>",
            escape_html(&m.mv),
            m.games,
            score(m.score),
            m.south_wins,
            m.draws,
            m.north_wins
        );
        let mut diagram = tree_diagram(m, budget);
        if m.games > 0 {
            let list: Vec<String> = m
                .listed
                .iter()
                .filter_map(|&i| {
                    shown.get(i).map(|g| {
                        format!(
                            "<a class=\"game\" href=\"#{}\">{}</a>",
                            game_anchor(i),
                            escape_html(&g.label)
                        )
                    })
                })
                .collect();
            let more = m.games.saturating_sub(list.len() as u64);
            let tail = if more == 0 {
                String::new()
            } else {
                // Every game of the node, from the archive.
                let all = format!(
                    "<code>bao filter --opening \"{}\" FILES</code>",
                    escape_html(&path.join(" "))
                );
                if list.is_empty() {
                    format!("{more} games: {all}")
                } else {
                    format!("<br>and {more} more: {all}")
                }
            };
            diagram.get_or_insert_with(String::new).push_str(&format!(
                "<p class=\"games\">{}{tail}</p>",
                list.join("<br>")
            ));
        }
        if m.replies.is_empty() && diagram.is_none() {
            let _ = write!(o, "<li><div class=\"row leaf\">{row}</div></li>");
        } else {
            let _ = write!(
                o,
                "<li><details{}><summary class=\"row\">{row}</summary>{}",
                if open { " open" } else { "" },
                diagram.unwrap_or_default()
            );
            if !m.replies.is_empty() {
                tree_html(&m.replies, shown, path, o, false, budget);
            }
            o.push_str("</details></li>");
        }
        path.pop();
    }
    o.push_str("</ul>");
}

/// The games the tree lists, each whole: its name, the board where its main line ended,
/// its record as written.
fn games_html(shown: &[ShownGame], o: &mut String) {
    if shown.is_empty() {
        return;
    }
    o.push_str(
        "<section id=\"games\"><h2>Games</h2><p class=\"note\">The games the opening tree \
         lists, in the order read: each with the board where its main line ends and its \
         record as written.</p>",
    );
    for (i, g) in shown.iter().enumerate() {
        let board = g.last.as_ref().map_or_else(String::new, |p| {
            format!(
                "<div class=\"pos\">{}</div>",
                inline_board(p, format!("g{}-", i + 1))
            )
        });
        let _ = write!(
            o,
            "<article class=\"game\" id=\"{}\"><h3>{}</h3>{board}<pre class=\"record\">{}</pre>\
             <p class=\"note\"><a href=\"#tree\">Back to the opening tree</a></p></article>",
            game_anchor(i),
            escape_html(&g.label),
            escape_html(g.record.trim_end()),
        );
    }
    o.push_str("</section>");
}

/// The statistics as one self-contained HTML page (inline CSS and SVG; no script, nothing
/// loaded from elsewhere). `title` names the archive.
#[must_use]
pub fn html(r: &StatsReport, title: &str) -> String {
    let mut o = String::new();
    let _ = write!(
        o,
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
         <title>{t} – Bao archive</title><style>{CSS}</style></head><body>\
         <h1>{t}</h1><p class=\"lead\">{} games, {} plies. South's score {}.</p>",
        r.games,
        r.plies,
        score(r.south_share),
        t = escape_html(title),
    );
    let _ = write!(o, "<section><h2>Results</h2>{}</section>", results_bar(r));
    let endings: Vec<(String, u64)> = r
        .endings
        .iter()
        .map(|e| (e.reason.replace('_', " "), e.games))
        .collect();
    let _ = write!(
        o,
        "<section><h2>How the games ended</h2>{}</section>",
        bar_chart(&endings, "#b5654a")
    );
    let _ = write!(
        o,
        "<section><h2>Game lengths</h2>{}</section>",
        histogram(r)
    );
    o.push_str(
        "<section><h2>Players</h2><div class=\"table\"><table><thead><tr><th>player</th><th>games</th>\
         <th>won</th><th>drawn</th><th>lost</th><th>score</th><th>rating</th></tr></thead><tbody>",
    );
    for p in &r.players {
        let _ = write!(
            o,
            "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
            escape_html(&p.name),
            p.games,
            p.wins,
            p.draws,
            p.losses,
            score(p.score),
            p.rating.map_or_else(|| "-".to_owned(), |x| format!("{x:.0}"))
        );
    }
    let _ = write!(
        o,
        "</tbody></table></div><p class=\"note\">Rating: {}.</p></section>",
        escape_html(&r.rating)
    );
    let _ = write!(
        o,
        "<section id=\"tree\"><h2>Opening tree</h2><p class=\"note\">The first {} plies, one tree per \
         rule set. Per move: games, the score of the side that plays it (bar), South \
         wins–draws–North wins. Open a move to see its games, and the board after it when two games or more played it.</p>",
        r.tree_depth
    );
    let mut budget = MAX_DIAGRAMS;
    for t in &r.trees {
        let _ = write!(
            o,
            "<h3>{} <span class=\"note\">{} games</span></h3>",
            escape_html(&t.start),
            t.games
        );
        tree_html(
            &t.moves,
            &r.shown,
            &mut Vec::new(),
            &mut o,
            true,
            &mut budget,
        );
    }
    o.push_str("</section>");
    games_html(&r.shown, &mut o);
    o.push_str("</body></html>\n");
    o
}

const CSS: &str = "body{font-family:system-ui,sans-serif;margin:2em auto;max-width:920px;\
color:#222;background:#fdfbf7;padding:0 1em}h1{font-size:1.6em;margin-bottom:.2em}\
h3{font-size:1em;margin:1em 0 .3em}h2{font-size:1.15em;border-bottom:1px solid #ddd;padding-bottom:.2em;margin-top:1.6em}\
.lead{color:#555}.note{color:#666;font-size:.9em}table{border-collapse:collapse}\
td,th{padding:.2em .8em;text-align:right;border-bottom:1px solid #eee}\
td:first-child,th:first-child{text-align:left}.pos{margin:.3em 0 .5em 1.2em;max-width:300px}.games{margin:.2em 0 .5em 1.2em;font-size:.85em;color:#555}ul.tree{list-style:none;padding-left:1.2em;\
margin:0}ul.tree>li{margin:.1em 0}.row{display:inline-flex;gap:.8em;align-items:center;\
cursor:default;font-variant-numeric:tabular-nums}summary.row{cursor:pointer}\
.leaf{margin-left:1.1em}.mv{font-family:monospace;font-weight:bold;min-width:4.5em}\
.n{min-width:3.5em;text-align:right}.bar{display:inline-block;width:120px;height:10px;\
background:#eee;border-radius:2px}.bar>span{display:block;height:10px;background:#4a7ab5;\
border-radius:2px}.sc{min-width:3.5em;text-align:right}.wdl{color:#777;font-size:.85em}\
svg{max-width:100%;height:auto}.table{overflow-x:auto}a.game{color:#1d4f91}\
pre.record{white-space:pre-wrap;overflow-wrap:anywhere;background:#f4efe6;padding:.6em;\
font-size:.85em;max-width:100%}article.game{border-top:1px solid #ddd;padding-top:.4em}\
article.game:target{background:#fff6dc}\
@media (max-width:600px){body{margin:1em auto;padding:0 .5em}ul.tree{padding-left:.6em}\
.row{gap:.35em;flex-wrap:wrap}.mv{min-width:3.2em}.n,.sc{min-width:2.2em}.bar{width:48px}\
.pos,.games{margin-left:.3em}td,th{padding:.2em .4em}}";
