//! `bao-i18n`: the one message catalogue of every surface of `bao`, in English and
//! Kiswahili (issue 34).
//!
//! The catalogues are Project Fluent files, one set per language, split by surface:
//! `locales/en/*.ftl` and `locales/sw/*.ftl` (`diagnostics.ftl`, `cli.ftl`, ...). They are
//! embedded in the binary at build time and parsed lazily, once per process and only for
//! the language asked for (English too only when a Kiswahili message falls back to it).
//!
//! A message is asked for by its id, in a [`Lang`], with named arguments:
//!
//! ```
//! use bao_i18n::{t, Lang};
//!
//! assert_eq!(t!(Lang::En, "summary-errors", count = 2), "2 errors");
//! assert_eq!(t!(Lang::Sw, "summary-errors", count = 1), "kosa 1");
//! ```
//!
//! Bao's own words are arguments, not text of the catalogue: the variant's names
//! (`rules.names()`: Kete's kuu, nemo, hizi zetu, takata) go in as `nyumba`, `namua`,
//! `takasia`, `takasa`, so one message serves every rule set.
//!
//! A message or an argument missing in Kiswahili falls back to English at run time (and
//! the completeness test of this crate fails on it); an id missing in English too gives
//! the id itself, never a panic.
//!
//! The output carries no Unicode isolation marks (U+2068/U+2069): the catalogue's
//! arguments are moves, pits, numbers and Bao's words, all left-to-right.
#![deny(missing_docs)]
#![warn(missing_debug_implementations)]

use std::fmt;
use std::sync::OnceLock;

use fluent_bundle::concurrent::FluentBundle;
use fluent_bundle::{FluentArgs, FluentResource, FluentValue};

/// A language of the catalogue.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Lang {
    /// English, the default and the fallback.
    #[default]
    En,
    /// Kiswahili.
    Sw,
}

/// The variable [`Lang::from_env`] reads first: `BAO_LANG=sw`.
pub const BAO_LANG: &str = "BAO_LANG";

/// The locale variables read after `BAO_LANG`, in POSIX order: the first one set (and not
/// empty) decides.
pub const LOCALE_VARS: [&str; 3] = ["LC_ALL", "LC_MESSAGES", "LANG"];

impl Lang {
    /// Every language, English first.
    pub const ALL: [Self; 2] = [Self::En, Self::Sw];

    /// The language's tag: `en`, `sw`.
    #[must_use]
    pub const fn code(self) -> &'static str {
        match self {
            Self::En => "en",
            Self::Sw => "sw",
        }
    }

    /// The language of a tag or locale name: `sw`, `sw-KE`, `sw_TZ.UTF-8`, `swa`, `en_GB`,
    /// `C` and `POSIX` (English); `None` for a language the catalogue does not have.
    ///
    /// ```
    /// use bao_i18n::Lang;
    ///
    /// assert_eq!(Lang::from_tag("sw_TZ.UTF-8"), Some(Lang::Sw));
    /// assert_eq!(Lang::from_tag("sw-KE"), Some(Lang::Sw));
    /// assert_eq!(Lang::from_tag("en_US.UTF-8"), Some(Lang::En));
    /// assert_eq!(Lang::from_tag("C.UTF-8"), Some(Lang::En));
    /// assert_eq!(Lang::from_tag("fr_FR"), None);
    /// ```
    #[must_use]
    pub fn from_tag(tag: &str) -> Option<Self> {
        let language = tag
            .trim()
            .split(['_', '-', '.', '@'])
            .next()
            .unwrap_or_default();
        match language.to_ascii_lowercase().as_str() {
            "sw" | "swa" | "swh" => Some(Self::Sw),
            "en" | "eng" | "c" | "posix" => Some(Self::En),
            _ => None,
        }
    }

    /// The language chosen by the environment `var` reads: `BAO_LANG` when it names a
    /// language of the catalogue, else the first of `LC_ALL`, `LC_MESSAGES` and `LANG`
    /// that is set (English when it names another language), else English.
    ///
    /// ```
    /// use bao_i18n::Lang;
    ///
    /// let env = |vars: &'static [(&'static str, &'static str)]| {
    ///     move |name: &str| vars.iter().find(|(k, _)| *k == name).map(|(_, v)| v.to_string())
    /// };
    /// assert_eq!(Lang::from_vars(env(&[("LANG", "sw_TZ.UTF-8")])), Lang::Sw);
    /// assert_eq!(Lang::from_vars(env(&[("LC_ALL", "fr_FR"), ("LANG", "sw_TZ")])), Lang::En);
    /// assert_eq!(Lang::from_vars(env(&[("BAO_LANG", "en"), ("LANG", "sw_KE")])), Lang::En);
    /// assert_eq!(Lang::from_vars(env(&[])), Lang::En);
    /// ```
    pub fn from_vars(var: impl Fn(&str) -> Option<String>) -> Self {
        if let Some(lang) = var(BAO_LANG).as_deref().and_then(Self::from_tag) {
            return lang;
        }
        LOCALE_VARS
            .iter()
            .filter_map(|name| var(name))
            .find(|v| !v.trim().is_empty())
            .and_then(|v| Self::from_tag(&v))
            .unwrap_or_default()
    }

    /// The language of this process's environment ([`Lang::from_vars`] on
    /// `std::env::var`).
    #[must_use]
    pub fn from_env() -> Self {
        Self::from_vars(|name| std::env::var(name).ok())
    }

    /// The language asked for (`--lang`), else the environment's.
    #[must_use]
    pub fn choose(flag: Option<Self>) -> Self {
        flag.unwrap_or_else(Self::from_env)
    }
}

impl fmt::Display for Lang {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.code())
    }
}

impl std::str::FromStr for Lang {
    type Err = String;

    /// A tag as [`Lang::from_tag`] reads it; the error names the languages there are.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Self::from_tag(s).ok_or_else(|| format!("unknown language `{s}` (known: en, sw)"))
    }
}

/// The catalogue files of a language, by surface: (file name, text).
type Files = &'static [(&'static str, &'static str)];

macro_rules! catalogue {
    ($lang:literal: $($file:literal),* $(,)?) => {
        &[$(($file, include_str!(concat!("../locales/", $lang, "/", $file)))),*]
    };
}

/// The English catalogue.
const EN: Files = catalogue!("en": "diagnostics.ftl", "cli.ftl");
/// The Kiswahili catalogue.
const SW: Files = catalogue!("sw": "diagnostics.ftl", "cli.ftl");

/// The catalogue files of `lang`, by surface, as embedded: (file name, Fluent text). For
/// tests and tools; messages are asked for with [`message`] or [`t!`].
#[must_use]
pub const fn files(lang: Lang) -> &'static [(&'static str, &'static str)] {
    match lang {
        Lang::En => EN,
        Lang::Sw => SW,
    }
}

type Bundle = FluentBundle<FluentResource>;

/// A language's bundle, parsed from its embedded files on first use.
fn bundle(lang: Lang) -> &'static Bundle {
    static EN_BUNDLE: OnceLock<Bundle> = OnceLock::new();
    static SW_BUNDLE: OnceLock<Bundle> = OnceLock::new();
    let cell = match lang {
        Lang::En => &EN_BUNDLE,
        Lang::Sw => &SW_BUNDLE,
    };
    cell.get_or_init(|| build(lang, files(lang)))
}

/// A bundle of `files` for `lang`. An entry that does not parse or repeats an id is left
/// out (the completeness test reports it); the rest of the file still serves.
fn build(lang: Lang, files: &[(&str, &str)]) -> Bundle {
    let id: unic_langid::LanguageIdentifier = lang.code().parse().unwrap_or_default();
    let mut bundle = Bundle::new_concurrent(vec![id]);
    bundle.set_use_isolating(false);
    for (_, text) in files {
        let resource = match FluentResource::try_new((*text).to_owned()) {
            Ok(r) | Err((r, _)) => r,
        };
        // An id defined twice keeps its first definition.
        let _ = bundle.add_resource(resource);
    }
    bundle
}

/// The named arguments of a message.
#[derive(Debug, Default)]
pub struct Args<'a>(FluentArgs<'a>);

impl<'a> Args<'a> {
    /// No arguments.
    #[must_use]
    pub fn new() -> Self {
        Self(FluentArgs::new())
    }

    /// The arguments with `name` set to `value` (a text or a number).
    #[must_use]
    pub fn with(mut self, name: &'a str, value: impl Into<FluentValue<'a>>) -> Self {
        self.0.set(name, value);
        self
    }

    /// Sets `name` to `value`.
    pub fn set(&mut self, name: &'a str, value: impl Into<FluentValue<'a>>) {
        self.0.set(name, value);
    }
}

/// Formats `id` from `bundle`; `None` when the bundle lacks it or an argument it uses.
fn format_in(bundle: &Bundle, id: &str, args: &Args<'_>) -> Option<String> {
    let pattern = bundle.get_message(id)?.value()?;
    let mut errors = Vec::new();
    let text = bundle.format_pattern(pattern, Some(&args.0), &mut errors);
    errors.is_empty().then(|| text.into_owned())
}

/// Message `id` in `lang` with `args`: from `lang`'s catalogue, else (a message or an
/// argument missing there) from the English one, else the id itself.
#[must_use]
pub fn message(lang: Lang, id: &str, args: &Args<'_>) -> String {
    if lang != Lang::En {
        if let Some(text) = format_in(bundle(lang), id, args) {
            return text;
        }
    }
    english(bundle(Lang::En), id, args)
}

/// The English message, as complete as it can be made: an argument left out shows as
/// `{$name}`; an id the catalogue lacks gives the id.
fn english(bundle: &Bundle, id: &str, args: &Args<'_>) -> String {
    match bundle.get_message(id).and_then(|m| m.value()) {
        Some(pattern) => {
            let mut errors = Vec::new();
            bundle
                .format_pattern(pattern, Some(&args.0), &mut errors)
                .into_owned()
        }
        None => id.to_owned(),
    }
}

/// Message `id` in `lang` ([`message`]) with named arguments:
/// `t!(lang, "summary-errors", count = 2)`. Each name is the Fluent variable's, written
/// as a Rust identifier (`seed_count` for `$seed_count`).
#[macro_export]
macro_rules! t {
    ($lang:expr, $id:expr $(, $name:ident = $value:expr)* $(,)?) => {
        $crate::message(
            $lang,
            $id,
            &$crate::Args::new() $(.with(stringify!($name), $value))*,
        )
    };
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bundle_of(lang: Lang, text: &'static str) -> Bundle {
        build(lang, &[("test.ftl", text)])
    }

    #[test]
    fn a_missing_message_or_argument_falls_back_to_english() {
        let en = bundle_of(
            Lang::En,
            "hello = hello { $name }\nonly-en = only English\n",
        );
        let sw = bundle_of(Lang::Sw, "hello = habari { $jina }\n");
        let args = Args::new().with("name", "Ali");
        // Kiswahili lacks the argument: `format_in` refuses it, so `message` would fall back.
        assert_eq!(format_in(&sw, "hello", &args), None);
        assert_eq!(format_in(&sw, "only-en", &args), None);
        assert_eq!(english(&en, "hello", &args), "hello Ali");
        assert_eq!(english(&en, "only-en", &args), "only English");
        assert_eq!(english(&en, "nowhere", &args), "nowhere");
    }

    #[test]
    fn no_isolation_marks() {
        let en = bundle_of(Lang::En, "m = a { $x } b\n");
        let text = format_in(&en, "m", &Args::new().with("x", "A6<")).unwrap();
        assert_eq!(text, "a A6< b");
    }

    #[test]
    fn plurals_follow_each_language() {
        let sw = bundle_of(
            Lang::Sw,
            "m = { $n ->\n    [one] kete { $n }\n   *[other] kete { $n } (nyingi)\n}\n",
        );
        assert_eq!(
            format_in(&sw, "m", &Args::new().with("n", 1)).unwrap(),
            "kete 1"
        );
        assert_eq!(
            format_in(&sw, "m", &Args::new().with("n", 2)).unwrap(),
            "kete 2 (nyingi)"
        );
    }
}
