//! What every command gets besides its own arguments ([`Context`], with the `--color`
//! choice) and how it went ([`Status`]).

use clap::ValueEnum;

/// The `--color` choice.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum Color {
    /// Colour what goes to a terminal (unless `NO_COLOR` is set).
    Auto,
    /// Always colour.
    Always,
    /// Never colour.
    Never,
}

/// What every command gets besides its own arguments.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Context {
    /// The `--color` choice.
    pub(crate) color: Color,
    /// The language of what the command says (`--lang`, else the environment's).
    pub(crate) lang: bao_i18n::Lang,
}

/// How a command that ran to its end went.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Status {
    /// Everything was valid (exit 0).
    Success,
    /// Some input was invalid: a bad record, position or move (exit 1).
    Invalid,
    /// Some input could not be read; the command reported it and went on (exit 2).
    Failed,
}

impl Status {
    /// [`Status::Success`] when everything was valid, else [`Status::Invalid`].
    pub(crate) const fn valid_if(valid: bool) -> Self {
        if valid {
            Self::Success
        } else {
            Self::Invalid
        }
    }
}
