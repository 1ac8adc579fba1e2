//! `bao import diagram`: a record whose `Position` tag is a diagram as a book prints it (32
//! counts, `bao_notation::diagram`).
//!
//! What goes wrong is a diagnostic on the diagram's text (`bao::diagram::*`,
//! spec/notation.md §7.1) whose help shows how the rule set's start is printed; nothing is
//! written and the exit code is 1.

use std::fmt;
use std::path::PathBuf;

use bao_core::{BySide, HouseState, Position, RuleSet, Side, Stage};
use bao_notation::diagram::{printed_start, DiagramError, DiagramGiven, DiagramSetupError};
use bao_notation::{GameResult, Record, Spanned, Tag, WriteOptions};
use miette::{Diagnostic, LabeledSpan, NamedSource, SourceSpan};

use crate::context::{Context, Status};
use crate::error::CliError;
use crate::io::Input;
use crate::report::handler;

/// Arguments of `bao import diagram`.
#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    /// The diagram: 32 counts separated by blanks or line ends, in the printed order (North's
    /// back row, North's front row, South's front row, South's back row, each row left to
    /// right as South sees the board); `-` for stdin.
    #[arg(value_name = "FILE", value_parser = Input::parse)]
    file: Input,
    /// The rule set: a preset, optionally with `name=value` overrides.
    #[arg(long, value_name = "RULES")]
    rules: String,
    /// The side to move.
    #[arg(long, value_name = "SIDE", value_enum, default_value_t = ToMove::South)]
    to_move: ToMove,
    /// The seeds in hand, South's/North's (`10/4`); default: the start's on the start
    /// board, none when the board holds 64 seeds.
    #[arg(long, value_name = "S/N", value_parser = parse_hands)]
    hands: Option<Hands>,
    /// The stage of the side to move (mtaji: no seeds in hand).
    #[arg(long, value_name = "STAGE", value_enum)]
    stage: Option<StageArg>,
    /// The houses, South's then North's: `F` functional, `D` dormant, `X` destroyed, `-`
    /// none (`FX`); default: functional where the house holds 6 or more.
    #[arg(long, value_name = "XY", value_parser = parse_houses)]
    houses: Option<Houses>,
    /// Write to this file (atomically) instead of stdout.
    #[arg(short, long, value_name = "OUT")]
    output: Option<PathBuf>,
}

/// The side to move.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum ToMove {
    South,
    North,
}

/// The stage of the side to move.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum StageArg {
    Namua,
    Mtaji,
}

/// `--hands`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Hands(BySide<u8>);

/// `--houses`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Houses(BySide<HouseState>);

fn parse_hands(s: &str) -> Result<Hands, String> {
    let bad = || format!("`{s}` is no pair of hands: write South's/North's, e.g. 10/4");
    let (south, north) = s.split_once('/').ok_or_else(bad)?;
    let n = |t: &str| t.trim().parse::<u8>().ok().filter(|&n| n <= 64);
    Ok(Hands(BySide::new(
        n(south).ok_or_else(bad)?,
        n(north).ok_or_else(bad)?,
    )))
}

fn parse_houses(s: &str) -> Result<Houses, String> {
    let state = |c: char| match c {
        'F' => Some(HouseState::Functional),
        'D' => Some(HouseState::Dormant),
        'X' => Some(HouseState::Destroyed),
        '-' => Some(HouseState::None),
        _ => None,
    };
    let mut chars = s.chars().map(state);
    match (chars.next(), chars.next(), chars.next()) {
        (Some(Some(south)), Some(Some(north)), None) => Ok(Houses(BySide::new(south, north))),
        _ => Err(format!(
            "`{s}` is no pair of houses: South's then North's, each F (functional), D \
             (dormant), X (destroyed) or - (none), e.g. FX"
        )),
    }
}

/// A diagram's fault, on its text.
#[derive(Debug)]
struct DiagramDiagnostic {
    code: String,
    message: String,
    label: Option<(SourceSpan, String)>,
    help: String,
    source: NamedSource<String>,
}

impl fmt::Display for DiagramDiagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for DiagramDiagnostic {}

impl Diagnostic for DiagramDiagnostic {
    fn code<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        Some(Box::new(&self.code))
    }
    fn help<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        Some(Box::new(&self.help))
    }
    fn source_code(&self) -> Option<&dyn miette::SourceCode> {
        self.label
            .as_ref()
            .map(|_| &self.source as &dyn miette::SourceCode)
    }
    fn labels(&self) -> Option<Box<dyn Iterator<Item = LabeledSpan> + '_>> {
        self.label.as_ref().map(|(span, text)| {
            Box::new(std::iter::once(LabeledSpan::new_primary_with_span(
                Some(text.clone()),
                *span,
            ))) as Box<dyn Iterator<Item = LabeledSpan>>
        })
    }
}

/// The help's last lines: how the rule set's start is printed.
fn start_help(rules: &RuleSet, spec: &str) -> String {
    let start = printed_start(*rules);
    format!("the start of {spec} is printed:\n{}", start.trim_end())
}

/// The code `bao::diagram::<slug>`.
fn code(slug: &str) -> String {
    format!("bao::diagram::{slug}")
}

fn span(s: bao_notation::Span) -> SourceSpan {
    SourceSpan::new(s.start.into(), s.end - s.start)
}

/// The diagnostic of a text that is no diagram.
fn read_diagnostic(
    e: &DiagramError,
    help: String,
    source: NamedSource<String>,
) -> DiagramDiagnostic {
    let label = match e {
        DiagramError::Missing {
            first_missing,
            short_row: None,
            ..
        } => format!("{first_missing} is missing here"),
        DiagramError::Missing {
            short_row: Some((_, n, _)),
            ..
        } => format!("{n} counts"),
        DiagramError::TooMany { .. } => "one count too many".to_owned(),
        DiagramError::RowLength { found, .. } => format!("{found} counts"),
        DiagramError::TooLarge { .. } => "too many seeds".to_owned(),
        _ => "not a count".to_owned(),
    };
    DiagramDiagnostic {
        code: code(e.slug()),
        message: e.to_string(),
        label: Some((span(e.span()), label)),
        help,
        source,
    }
}

/// Runs `bao import diagram`.
pub(crate) fn run(args: &Args, ctx: &Context) -> Result<Status, CliError> {
    let rules = RuleSet::from_spec(&args.rules).map_err(|e| CliError::Invalid {
        argument: "--rules",
        message: bao_validate::words::rule_spec_error(&e),
    })?;
    let spec = args.rules.split_whitespace().collect::<Vec<_>>().join(" ");
    let name = args.file.name();
    let text = args.file.read_string()?;
    let source = NamedSource::new(&name, text.clone());
    let order = "A diagram is 32 counts: North's back row, North's front row, South's front \
                 row, South's back row, each left to right as South sees the board; ";
    let report = |d: DiagramDiagnostic| {
        let mut out = String::new();
        let _ = handler(ctx.color).render_report(&mut out, &d);
        eprint!("{out}");
        eprintln!("bao: {name} is no diagram of {spec}; nothing written");
        Ok(Status::Invalid)
    };
    let diagram = match bao_notation::diagram::PrintedDiagram::read(&text) {
        Ok(d) => d,
        Err(e) => {
            let help = format!("{order}{}", start_help(&rules, &spec));
            return report(read_diagnostic(&e, help, source));
        }
    };
    let given = DiagramGiven {
        to_move: match args.to_move {
            ToMove::South => Side::South,
            ToMove::North => Side::North,
        },
        hands: args.hands.map(|h| h.0),
        stage: args.stage.map(|s| match s {
            StageArg::Namua => Stage::Namua,
            StageArg::Mtaji => Stage::Mtaji,
        }),
        houses: args.houses.map(|h| h.0),
    };
    let whole = SourceSpan::new(0.into(), text.trim_end().len());
    let position = match diagram.position(rules, &given) {
        Ok(p) => p,
        Err(e) => {
            let what = match &e {
                DiagramSetupError::HandsUnknown { .. } => {
                    "give the hands with --hands S/N (South's/North's, e.g. --hands 10/4)"
                }
                DiagramSetupError::SeedTotal { .. } => {
                    "a game has 64 seeds, board and hands together: check the counts and --hands"
                }
                DiagramSetupError::StageContradicts { .. } => {
                    "in namua the side to move has seeds in hand, in mtaji none: check --stage \
                     and --hands"
                }
                _ => {
                    "give the houses with --houses, South's then North's: F functional, D \
                     dormant, X destroyed (e.g. --houses FX)"
                }
            };
            return report(DiagramDiagnostic {
                code: code(e.slug()),
                message: e.to_string(),
                label: Some((whole, "this diagram".to_owned())),
                help: format!("{what}; {}", start_help(&rules, &spec)),
                source,
            });
        }
    };
    if let Err(e) = Position::from_setup(position.to_setup(rules)) {
        let names = rules.names();
        let reasons: Vec<String> = e
            .problems
            .iter()
            .map(|p| bao_validate::words::setup_problem(p, &names))
            .collect();
        return report(DiagramDiagnostic {
            code: code("invalid_position"),
            message: format!(
                "the diagram is no position of {spec}: {}",
                reasons.join("; ")
            ),
            label: Some((whole, "this diagram".to_owned())),
            help: format!(
                "check the counts, --hands, --stage and --houses; {}",
                start_help(&rules, &spec)
            ),
            source,
        });
    }
    let mut record = Record::default();
    let tags = [
        ("Event", "?"),
        ("Site", "?"),
        ("Date", "????.??.??"),
        ("Round", "?"),
        ("South", "?"),
        ("North", "?"),
        ("Result", "*"),
        ("RuleSet", spec.as_str()),
        ("Position", &position.to_string()),
    ];
    record.games.push(Spanned::bare(bao_notation::Game {
        comments: Vec::new(),
        tags: tags
            .iter()
            .map(|(n, v)| Spanned::bare(Tag::new(n, v)))
            .collect(),
        movetext: Vec::new(),
        result: Some(Spanned::bare(GameResult::Unknown)),
    }));
    let out = bao_notation::write_record(&record, &WriteOptions::default());
    crate::output::emit(args.output.as_deref(), out.as_bytes())?;
    Ok(Status::Success)
}
