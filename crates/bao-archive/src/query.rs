//! Questions by position: `bao filter --where` and `bao stats --where` (spec/archive.md §8).
//!
//! A query is a condition on one position: comparisons of numbers (a pit's seeds, a hand, a
//! row's seeds, the ply), the stage, the side to move, a functional house, a takasia, joined
//! by `and`, `or`, `not` and parentheses. A game matches when any position of its main line
//! does (the start included), or its last one with [`At::Final`]. A partial position is a
//! query that gives some pits: `A5 = 6 and A6 = 2 and a5 = 6`.
//!
//! ```
//! use bao_archive::query::Query;
//! use bao_core::{Position, RuleSet};
//!
//! let q: Query = "stage = namua and house(south) and A5 >= 6 and not takasia".parse().unwrap();
//! assert!(q.holds(&Position::start(RuleSet::KISWAHILI), 0));
//! let e = "A5 >= ".parse::<Query>().unwrap_err();
//! assert_eq!(e.at, 5);
//! ```

use std::fmt;
use std::str::FromStr;

use bao_core::{HouseState, Pit, Position, Row, Side, Stage};
use miette::{Diagnostic, SourceSpan};

use crate::game::ArchiveGame;

/// Which positions of a game a query is asked of.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum At {
    /// Any position of the main line, the start included.
    #[default]
    Any,
    /// The last position the main line reached.
    Final,
}

/// A query that cannot be read: what was expected, where (a byte offset of the query).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error, Diagnostic)]
#[error("{message}")]
#[diagnostic(
    code(bao::query::syntax),
    help("a query compares numbers (A5, hand(south), front(north), back(south), seeds(north), ply, numbers) with = != < <= > >=, tests stage = namua|mtaji, stage(south) = mtaji, to_move = south|north, house(south|north), takasia, takasia(south|north), and joins them with and, or, not and parentheses")
)]
pub struct QueryError {
    /// What is wrong.
    pub message: String,
    /// The query.
    #[source_code]
    pub query: String,
    /// Where, in bytes.
    pub at: usize,
    #[label("here")]
    span: SourceSpan,
}

impl QueryError {
    fn new(query: &str, at: usize, len: usize, message: impl Into<String>) -> Self {
        Self {
            message: message.into(),
            query: query.to_owned(),
            at,
            span: (at, len).into(),
        }
    }
}

/// A number of a position.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Number {
    Literal(u32),
    Pit(Pit),
    Hand(Side),
    Front(Side),
    Back(Side),
    Seeds(Side),
    Ply,
}

/// A comparison.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Cmp {
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
}

/// A query, read.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Node {
    And(Box<Self>, Box<Self>),
    Or(Box<Self>, Box<Self>),
    Not(Box<Self>),
    Compare(Number, Cmp, Number),
    Stage(Option<Side>, Stage),
    ToMove(Side),
    House(Side),
    Takasia(Option<Side>),
}

/// A query on positions ([`Query::holds`]), read from its text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Query {
    text: String,
    root: Node,
}

impl fmt::Display for Query {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text)
    }
}

impl Query {
    /// Whether the query holds in `pos`, the position after `ply` plies (0 for the start).
    #[must_use]
    pub fn holds(&self, pos: &Position, ply: usize) -> bool {
        eval(&self.root, pos, ply)
    }

    /// Whether a replayed game matches: any position of its main line, or its last one.
    #[must_use]
    pub fn matches(&self, g: &ArchiveGame<'_>, at: At) -> bool {
        match at {
            At::Any => g.positions().enumerate().any(|(ply, p)| self.holds(p, ply)),
            At::Final => {
                let n = g.positions().count();
                g.final_position()
                    .is_some_and(|p| self.holds(p, n.saturating_sub(1)))
            }
        }
    }
}

fn number(n: Number, pos: &Position, ply: usize) -> u32 {
    let row = |side: Side, front: bool| {
        let r = if front { Row::Front } else { Row::Back };
        (1..=8)
            .filter_map(|i| Pit::new(side, r, i))
            .map(|p| u32::from(pos.get(p)))
            .sum::<u32>()
    };
    match n {
        Number::Literal(v) => v,
        Number::Pit(p) => u32::from(pos.get(p)),
        Number::Hand(s) => u32::from(pos.hand(s)),
        Number::Front(s) => row(s, true),
        Number::Back(s) => row(s, false),
        Number::Seeds(s) => row(s, true) + row(s, false),
        Number::Ply => u32::try_from(ply).unwrap_or(u32::MAX),
    }
}

fn eval(node: &Node, pos: &Position, ply: usize) -> bool {
    match node {
        Node::And(a, b) => eval(a, pos, ply) && eval(b, pos, ply),
        Node::Or(a, b) => eval(a, pos, ply) || eval(b, pos, ply),
        Node::Not(a) => !eval(a, pos, ply),
        Node::Compare(a, c, b) => {
            let (a, b) = (number(*a, pos, ply), number(*b, pos, ply));
            match c {
                Cmp::Eq => a == b,
                Cmp::Ne => a != b,
                Cmp::Lt => a < b,
                Cmp::Le => a <= b,
                Cmp::Gt => a > b,
                Cmp::Ge => a >= b,
            }
        }
        Node::Stage(side, stage) => side.map_or_else(|| pos.stage(), |s| pos.stage_of(s)) == *stage,
        Node::ToMove(s) => pos.to_move() == *s,
        Node::House(s) => pos.house_state(*s) == HouseState::Functional,
        Node::Takasia(None) => pos.takasia().is_some(),
        Node::Takasia(Some(s)) => pos.blocked_pit(*s).is_some(),
    }
}

/// A word of a query, with where it starts.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Token {
    Word(String),
    Number(u32),
    Op(&'static str),
    Open,
    Close,
}

fn tokens(text: &str) -> Result<Vec<(Token, usize, usize)>, QueryError> {
    let b = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        if c.is_ascii_whitespace() {
            i += 1;
            continue;
        }
        let start = i;
        let tok = match c {
            b'(' => {
                i += 1;
                Token::Open
            }
            b')' => {
                i += 1;
                Token::Close
            }
            b'<' | b'>' | b'!' | b'=' => {
                let two = b.get(i + 1) == Some(&b'=');
                let op = match (c, two) {
                    (b'<', true) => "<=",
                    (b'>', true) => ">=",
                    (b'!', true) => "!=",
                    (b'=', true) => "=",
                    (b'<', false) => "<",
                    (b'>', false) => ">",
                    (b'=', false) => "=",
                    _ => return Err(QueryError::new(text, i, 1, "`!` must be followed by `=`")),
                };
                i += if two { 2 } else { 1 };
                Token::Op(op)
            }
            c if c.is_ascii_digit() => {
                while i < b.len() && b[i].is_ascii_digit() {
                    i += 1;
                }
                let n = text[start..i].parse::<u32>().map_err(|_| {
                    QueryError::new(text, start, i - start, "this number is too large")
                })?;
                Token::Number(n)
            }
            c if c.is_ascii_alphabetic() || c == b'_' => {
                while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_') {
                    i += 1;
                }
                Token::Word(text[start..i].to_owned())
            }
            _ => {
                let len = text[i..].chars().next().map_or(1, char::len_utf8);
                return Err(QueryError::new(
                    text,
                    i,
                    len,
                    format!("`{}` has no meaning in a query", &text[i..i + len]),
                ));
            }
        };
        out.push((tok, start, i - start));
    }
    Ok(out)
}

struct Parser<'a> {
    text: &'a str,
    toks: Vec<(Token, usize, usize)>,
    next: usize,
}

impl Parser<'_> {
    fn peek(&self) -> Option<&Token> {
        self.toks.get(self.next).map(|t| &t.0)
    }

    /// Where the next token starts, and its length; past the last token, the end of the
    /// last one (where something is missing).
    fn place(&self) -> (usize, usize) {
        match self.toks.get(self.next) {
            Some(t) => (t.1, t.2),
            None => (self.toks.last().map_or(0, |t| t.1 + t.2), 0),
        }
    }

    fn error(&self, message: impl Into<String>) -> QueryError {
        let (at, len) = self.place();
        QueryError::new(self.text, at, len, message)
    }

    fn is_word(&self, w: &str) -> bool {
        matches!(self.peek(), Some(Token::Word(x)) if x.eq_ignore_ascii_case(w))
    }

    fn or(&mut self) -> Result<Node, QueryError> {
        let mut left = self.and()?;
        while self.is_word("or") {
            self.next += 1;
            left = Node::Or(Box::new(left), Box::new(self.and()?));
        }
        Ok(left)
    }

    fn and(&mut self) -> Result<Node, QueryError> {
        let mut left = self.unary()?;
        while self.is_word("and") {
            self.next += 1;
            left = Node::And(Box::new(left), Box::new(self.unary()?));
        }
        Ok(left)
    }

    fn unary(&mut self) -> Result<Node, QueryError> {
        if self.is_word("not") {
            self.next += 1;
            return Ok(Node::Not(Box::new(self.unary()?)));
        }
        if self.peek() == Some(&Token::Open) {
            self.next += 1;
            let inner = self.or()?;
            if self.peek() != Some(&Token::Close) {
                return Err(self.error("expected `)`"));
            }
            self.next += 1;
            return Ok(inner);
        }
        self.atom()
    }

    /// `(south)` or `(north)` after a function's name.
    fn side_argument(&mut self, required: bool) -> Result<Option<Side>, QueryError> {
        if self.peek() != Some(&Token::Open) {
            return if required {
                Err(self.error("expected `(south)` or `(north)`"))
            } else {
                Ok(None)
            };
        }
        self.next += 1;
        let side = match self.peek() {
            Some(Token::Word(w)) if w.eq_ignore_ascii_case("south") => Side::South,
            Some(Token::Word(w)) if w.eq_ignore_ascii_case("north") => Side::North,
            _ => return Err(self.error("expected `south` or `north`")),
        };
        self.next += 1;
        if self.peek() != Some(&Token::Close) {
            return Err(self.error("expected `)`"));
        }
        self.next += 1;
        Ok(Some(side))
    }

    /// `=` (or `!=`: `not`) and a word from `values`.
    fn equals_word<T: Copy>(&mut self, values: &[(&str, T)]) -> Result<(T, bool), QueryError> {
        let negate = match self.peek() {
            Some(Token::Op("=")) => false,
            Some(Token::Op("!=")) => true,
            _ => return Err(self.error("expected `=` or `!=`")),
        };
        self.next += 1;
        let found = match self.peek() {
            Some(Token::Word(w)) => values
                .iter()
                .find(|(name, _)| w.eq_ignore_ascii_case(name))
                .map(|(_, v)| *v),
            _ => None,
        };
        let Some(v) = found else {
            let names: Vec<&str> = values.iter().map(|(n, _)| *n).collect();
            return Err(self.error(format!("expected {}", names.join(" or "))));
        };
        self.next += 1;
        Ok((v, negate))
    }

    fn number(&mut self) -> Result<Number, QueryError> {
        let (tok, at, len) = match self.toks.get(self.next) {
            Some(t) => t.clone(),
            None => return Err(self.error("expected a number, a pit or a count")),
        };
        let n = match tok {
            Token::Number(v) => {
                self.next += 1;
                Number::Literal(v)
            }
            Token::Word(w) => {
                self.next += 1;
                let lower = w.to_ascii_lowercase();
                match lower.as_str() {
                    "ply" => Number::Ply,
                    "hand" | "front" | "back" | "seeds" => {
                        let side = self.side_argument(true)?.unwrap_or(Side::South);
                        match lower.as_str() {
                            "hand" => Number::Hand(side),
                            "front" => Number::Front(side),
                            "back" => Number::Back(side),
                            _ => Number::Seeds(side),
                        }
                    }
                    _ => match w.parse::<Pit>() {
                        Ok(p) => Number::Pit(p),
                        Err(_) => {
                            return Err(QueryError::new(
                                self.text,
                                at,
                                len,
                                format!("`{w}` is no pit and no count"),
                            ))
                        }
                    },
                }
            }
            _ => return Err(self.error("expected a number, a pit or a count")),
        };
        Ok(n)
    }

    fn atom(&mut self) -> Result<Node, QueryError> {
        if self.is_word("stage") {
            self.next += 1;
            let side = self.side_argument(false)?;
            let (stage, negate) =
                self.equals_word(&[("namua", Stage::Namua), ("mtaji", Stage::Mtaji)])?;
            let node = Node::Stage(side, stage);
            return Ok(if negate {
                Node::Not(Box::new(node))
            } else {
                node
            });
        }
        if self.is_word("to_move") {
            self.next += 1;
            let (side, negate) =
                self.equals_word(&[("south", Side::South), ("north", Side::North)])?;
            let node = Node::ToMove(side);
            return Ok(if negate {
                Node::Not(Box::new(node))
            } else {
                node
            });
        }
        if self.is_word("house") {
            self.next += 1;
            let side = self.side_argument(true)?.unwrap_or(Side::South);
            return Ok(Node::House(side));
        }
        if self.is_word("takasia") {
            self.next += 1;
            return Ok(Node::Takasia(self.side_argument(false)?));
        }
        let left = self.number()?;
        let cmp = match self.peek() {
            Some(Token::Op(op)) => match *op {
                "=" => Cmp::Eq,
                "!=" => Cmp::Ne,
                "<" => Cmp::Lt,
                "<=" => Cmp::Le,
                ">" => Cmp::Gt,
                _ => Cmp::Ge,
            },
            _ => return Err(self.error("expected a comparison: = != < <= > >=")),
        };
        self.next += 1;
        let right = self.number()?;
        Ok(Node::Compare(left, cmp, right))
    }
}

impl FromStr for Query {
    type Err = QueryError;

    fn from_str(text: &str) -> Result<Self, QueryError> {
        let mut p = Parser {
            text,
            toks: tokens(text)?,
            next: 0,
        };
        if p.toks.is_empty() {
            return Err(p.error("the query is empty"));
        }
        let root = p.or()?;
        if p.next < p.toks.len() {
            return Err(p.error("expected `and`, `or` or the end of the query"));
        }
        Ok(Self {
            text: text.to_owned(),
            root,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use bao_core::RuleSet;

    #[test]
    fn the_start_position_answers() {
        let start = Position::start(RuleSet::KISWAHILI);
        let yes = [
            "stage = namua",
            "stage(north) = namua and to_move = south",
            "house(south) and house(north)",
            "A5 = 6 and A6 = 2 and A7 = 2 and a5 = 6",
            "hand(south) = 22 and front(north) = 10 and back(south) = 0",
            "seeds(south) = 10 and ply = 0",
            "not takasia",
            "A1 = 0 or A5 = 7",
            "(A1 = 1 or A5 = 6) and not (stage != namua)",
            "A5 > A6 and A6 >= 2 and A6 <= 2 and A6 < 3 and A6 != 3",
        ];
        for q in yes {
            assert!(q.parse::<Query>().unwrap().holds(&start, 0), "{q}");
        }
        let no = [
            "stage = mtaji",
            "takasia(south)",
            "A5 < 6",
            "to_move = north",
        ];
        for q in no {
            assert!(!q.parse::<Query>().unwrap().holds(&start, 0), "{q}");
        }
    }

    #[test]
    fn errors_say_where() {
        for (q, at, what) in [
            ("", 0, "empty"),
            ("A9 = 1", 0, "no pit"),
            ("A5 >= ", 5, "expected a number"),
            ("stage = nemo", 8, "namua or mtaji"),
            ("house", 5, "(south)"),
            ("A5 = 1 A6 = 2", 7, "`and`, `or`"),
            ("(A5 = 1", 7, "`)`"),
            ("A5 ! 1", 3, "followed by `=`"),
            ("A5 = 1 & A6 = 2", 7, "no meaning"),
        ] {
            let e = q.parse::<Query>().unwrap_err();
            assert_eq!(e.at, at, "{q}: {e}");
            assert!(e.message.contains(what), "{q}: {e}");
        }
    }
}
